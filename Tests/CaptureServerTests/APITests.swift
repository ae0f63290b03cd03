import CaptureKit
import Foundation
import Testing
@testable import CaptureServer

/// The JSON API against the virtual cameras: devices, state, switching, controls, and the
/// error shape for every mistake.
@Suite("Camera server: API", .serialized)
struct APITests {
    @Test("GET /api/devices lists both virtual cameras with uniqueID, name, position and formats")
    func devices() async throws {
        try await withServer { harness in
            let reply = try await harness.request("GET", "/api/devices")
            #expect(reply.status == 200 && reply.headers["content-type"]?.hasPrefix("application/json") == true)
            let devices = try #require(reply.json as? [[String: Any]], "\(reply.text)")
            let ids = devices.compactMap { $0["uniqueID"] as? String }
            #expect(ids.contains("virtual:back") && ids.contains("virtual:front"), "\(ids)")
            let back = try #require(devices.first { $0["uniqueID"] as? String == "virtual:back" })
            #expect(back["position"] as? String == "back" && (back["localizedName"] as? String)?.isEmpty == false)
            let formats = try #require(back["formats"] as? [[String: Any]])
            #expect(formats.contains { $0["width"] as? Int == 640 && $0["height"] as? Int == 480 }, "\(formats)")
            #expect(formats.allSatisfy { ($0["frameRates"] as? [[Double]])?.isEmpty == false && $0["pixelFormat"] is String })
        }
    }

    @Test("GET /api/state: the device, running, controls in `capture controls --json`'s schema, recording")
    func state() async throws {
        try await withServer { harness in
            let reply = try await harness.request("GET", "/api/state")
            #expect(reply.status == 200)
            let state = try #require(reply.object, "\(reply.text)")
            #expect((state["device"] as? [String: Any])?["uniqueID"] as? String == "virtual:back")
            #expect(state["running"] as? Bool == true)
            #expect((state["recording"] as? [String: Any])?["recording"] as? Bool == false)
            let controls = try #require(state["controls"] as? [String: Any])
            #expect(controls["serializationVersion"] as? Int == ControlReport.currentSerializationVersion)
            let data = try JSONSerialization.data(withJSONObject: controls)
            let report = try JSONDecoder().decode(ControlReport.self, from: data)
            #expect(report.uniqueID == "virtual:back" && report.activeFormat.width == 640)
            #expect(report.focusPointOfInterest?.x == 0.5 && report.exposurePointOfInterest?.supported == true)
        }
    }

    @Test("POST /api/device switches cameras while running; an unknown one is 404 naming those there are")
    func switchDevice() async throws {
        try await withServer { harness in
            let front = try await harness.request("POST", "/api/device", json: #"{"uniqueID": "virtual:front"}"#)
            #expect(front.status == 200, "\(front.text)")
            #expect((front.object?["device"] as? [String: Any])?["uniqueID"] as? String == "virtual:front")
            let state = try await harness.request("GET", "/api/state")
            #expect((state.object?["device"] as? [String: Any])?["uniqueID"] as? String == "virtual:front")
            #expect(state.object?["running"] as? Bool == true)
            // The still output takes pictures from the new camera.
            let snap = try await harness.request("POST", "/api/snap")
            #expect(snap.status == 200 && snap.body.starts(with: [0xFF, 0xD8]))
            let unknown = try await harness.request("POST", "/api/device", json: #"{"uniqueID": "no-such-camera"}"#)
            #expect(unknown.status == 404 && unknown.error?.code == "deviceNotFound", "\(unknown.text)")
            #expect(unknown.error?.message.contains("no-such-camera") == true && unknown.error?.message.contains("virtual:back") == true)
            let back = try await harness.request("POST", "/api/device", json: #"{"uniqueID": "virtual:back"}"#)
            #expect(back.status == 200)
        }
    }

    @Test("POST /api/controls applies zoom, bias, torch and points; answers the values now in force")
    func controls() async throws {
        try await withServer { harness in
            let reply = try await harness.request("POST", "/api/controls", json: """
                {"videoZoomFactor": 2, "exposureTargetBias": -1, "torchMode": "on",
                 "focusPointOfInterest": {"x": 0.25, "y": 0.75}, "exposurePointOfInterest": {"x": 0.3, "y": 0.6}}
                """)
            #expect(reply.status == 200, "\(reply.text)")
            let report = try JSONDecoder().decode(ControlReport.self, from: reply.body)
            #expect(report.videoZoomFactor.value == 2)
            #expect(report.exposureTargetBias.value == -1)
            #expect(report.torchMode.value == "on")
            #expect(report.focusPointOfInterest?.x == 0.25 && report.focusPointOfInterest?.y == 0.75)
            #expect(report.exposurePointOfInterest?.x == 0.3 && report.exposurePointOfInterest?.y == 0.6)
            let state = try await harness.request("GET", "/api/state")
            let controls = try #require(state.object?["controls"] as? [String: Any])
            #expect((controls["videoZoomFactor"] as? [String: Any])?["value"] as? Double == 2)
        }
    }

    @Test("Bad control values are 400 naming the value and the valid range; nothing is applied")
    func badControls() async throws {
        try await withServer { harness in
            let cases: [(String, String, [String])] = [
                (#"{"videoZoomFactor": 1000}"#, "outOfRange", ["1000", "1…"]),
                (#"{"videoZoomFactor": 0.5}"#, "outOfRange", ["0.5"]),
                (#"{"videoZoomFactor": "2"}"#, "invalidValue", ["\"2\"", "not a number"]),
                (#"{"exposureTargetBias": 99}"#, "outOfRange", ["99", "EV"]),
                (#"{"torchMode": "blinking"}"#, "invalidValue", ["blinking", "off, on, auto"]),
                (#"{"focusPointOfInterest": {"x": 2, "y": 0}}"#, "outOfRange", ["focusPointOfInterest", "0…1"]),
                (#"{"exposurePointOfInterest": [0.5, 0.5]}"#, "invalidValue", ["exposurePointOfInterest"]),
                (#"{"iso": 400}"#, "unknownKey", ["iso", "videoZoomFactor"]),
                (#"{"videoZoomFactor": 2,"#, "malformedJSON", ["not JSON"]),
                ("[1, 2]", "malformedJSON", ["not an object"]),
            ]
            for (body, code, mentions) in cases {
                let reply = try await harness.request("POST", "/api/controls", json: body)
                #expect(reply.status == 400, "\(body): \(reply.status) \(reply.text)")
                #expect(reply.error?.code == code, "\(body): \(reply.text)")
                for mention in mentions { #expect(reply.error?.message.contains(mention) == true, "\(body): \(reply.text) should name \(mention)") }
            }
            // A valid key beside a bad one: none applied.
            _ = try await harness.request("POST", "/api/controls", json: #"{"videoZoomFactor": 1.5, "exposureTargetBias": 99}"#)
            let state = try await harness.request("GET", "/api/state")
            #expect(((state.object?["controls"] as? [String: Any])?["videoZoomFactor"] as? [String: Any])?["value"] as? Double == 1)
        }
    }

    @Test("A body over 64 KiB is 413, a key to a request that takes none 400, each naming what is valid")
    func bodies() async throws {
        try await withServer { harness in
            let large = try await harness.request("POST", "/api/controls", body: Data(repeating: 0x20, count: 100_000), contentType: "application/json")
            #expect(large.status == 413 && large.error?.code == "bodyTooLarge" && large.error?.message.contains("videoZoomFactor") == true, "\(large.text)")
            let snap = try await harness.request("POST", "/api/snap", json: #"{"quality": 90}"#)
            #expect(snap.status == 400 && snap.error?.code == "unknownKey" && snap.error?.message.contains("quality") == true, "\(snap.text)")
            let missing = try await harness.request("POST", "/api/device", json: "{}")
            #expect(missing.status == 400 && missing.error?.code == "missingKey" && missing.error?.message.contains("virtual:front") == true, "\(missing.text)")
        }
    }

    @Test("Unknown routes and methods are 404 in the same JSON error shape")
    func unknownRoute() async throws {
        try await withServer { harness in
            for (method, path) in [("GET", "/api/nothing"), ("GET", "/no/such/page.html"), ("DELETE", "/api/state")] {
                let reply = try await harness.request(method, path)
                #expect(reply.status == 404 || reply.status == 405, "\(method) \(path): \(reply.status)")
                #expect(reply.error != nil, "\(method) \(path): \(reply.text)")
            }
        }
    }

    @Test("GET / serves the page")
    func page() async throws {
        try await withServer { harness in
            let reply = try await harness.request("GET", "/")
            #expect(reply.status == 200 && reply.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(reply.text.contains("<html") || reply.text.contains("<!doctype html") || reply.text.contains("<!DOCTYPE html"))
        }
    }
}
