import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// Garbage to every POST endpoint: always an answer, never a 5xx, every refusal the JSON error
/// shape, and the server alive after.
@Suite("Camera server: fuzzed bodies", .serialized)
struct FuzzTests {
    /// A seeded generator (SplitMix64): the same bodies every run, printed on failure.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let keys = ServerCamera.controlKeys + ["uniqueID", "x", "y", "", "__proto__", "token", "videoZoomFactor "]

    /// A random JSON value, `depth` levels at most.
    static func value(_ random: inout Seeded, depth: Int = 3) -> String {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 7), using: &random) {
        case 0: return "null"
        case 1: return Bool.random(using: &random) ? "true" : "false"
        case 2: return ["0", "-0", "1", "2", "-1", "1e308", "-1e308", "1e-320", "3.5", "100000000000000000000000", "0.000001", "-2.5"].randomElement(using: &random)!
        case 3: return String(Double.random(in: -1e6...1e6, using: &random))
        case 4: return "\"" + ["", "on", "off", "auto", "torch", "virtual:front", "virtual:back", "\\u0000", "\\\"", "é", "🎥", String(repeating: "a", count: 300)].randomElement(using: &random)! + "\""
        case 5: return ["{\"x\": 0.5, \"y\": 0.5}", "{\"x\": -1, \"y\": 2}", "{\"x\": \"a\"}", "{}", "[]"].randomElement(using: &random)!
        case 6: return String(Int.random(in: -5...5, using: &random))
        case 7, 8:
            let count = Int.random(in: 0...4, using: &random)
            let fields = (0..<count).map { _ in "\"\(keys.randomElement(using: &random)!)\": \(value(&random, depth: depth - 1))" }
            return "{" + fields.joined(separator: ", ") + "}"
        default:
            let count = Int.random(in: 0...3, using: &random)
            return "[" + (0..<count).map { _ in value(&random, depth: depth - 1) }.joined(separator: ",") + "]"
        }
    }

    /// A random body: JSON objects with the endpoints' keys, any JSON, JSON cut short, bytes.
    static func body(_ random: inout Seeded) -> Data {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: return Data(value(&random, depth: 3).utf8)
        case 2:
            let text = value(&random, depth: 3)
            return Data(text.prefix(Int.random(in: 0...max(0, text.count), using: &random)).utf8)
        case 3: return Data((0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 4: return Data(("{\"" + ServerCamera.controlKeys.randomElement(using: &random)! + "\": " + value(&random, depth: 2) + "}").utf8)
        default: return Data(["", " ", "{", "}", "{{}}", "\"", "nul", "{\"a\":}", "{\"videoZoomFactor\": NaN}", "{\"videoZoomFactor\": Infinity}",
                              "\u{FEFF}{}", "{\"uniqueID\": \"virtual:front\"} trailing"].randomElement(using: &random)!.utf8)
        }
    }

    @Test("400 random bodies to the POST endpoints: 2xx or a 4xx JSON error, never 5xx; the server answers after")
    func bodies() async throws {
        try await withServer { harness in
            var random = Seeded(state: 0x5EED_CA11)
            let endpoints = ["/api/controls", "/api/device", "/api/snap", "/api/record/start", "/api/record/stop", "/whep"]
            var statuses: [Int: Int] = [:]
            for round in 0..<400 {
                let endpoint = endpoints[round % endpoints.count]
                let body = Self.body(&random)
                let type = ["application/json", "text/plain", "application/sdp", "application/x-www-form-urlencoded"].randomElement(using: &random)!
                let reply = try await harness.request("POST", endpoint, body: body, contentType: type)
                statuses[reply.status, default: 0] += 1
                let shown = String(decoding: body.prefix(120), as: UTF8.self)
                #expect(reply.status < 500, "POST \(endpoint) \(shown.debugDescription): \(reply.status) \(reply.text)")
                if reply.status >= 400 {
                    #expect(reply.error != nil, "POST \(endpoint) \(shown.debugDescription): \(reply.status) \(reply.text)")
                }
            }
            print("fuzz statuses: \(statuses.sorted { $0.key < $1.key })")
            _ = try? await harness.request("POST", "/api/record/stop")
            let state = try await harness.request("GET", "/api/state")
            #expect(state.status == 200 && state.object?["running"] as? Bool == true)
        }
    }

    @Test("Query parameters of /ws/metadata that are wrong are 400 naming them, before any upgrade")
    func metadataQuery() async throws {
        try await withServer { harness in
            for (query, mention) in [("width=-5", "width"), ("gravity=sideways", "sideways"), ("orientation=up", "up"),
                                     ("mirrored=maybe", "maybe"), ("zoom=2", "zoom"), ("width=1e400", "width")] {
                let reply = try await harness.request("GET", "/ws/metadata?\(query)")
                #expect(reply.status == 400 && reply.error?.message.contains(mention) == true, "\(query): \(reply.status) \(reply.text)")
            }
        }
    }
}
