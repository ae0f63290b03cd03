import Foundation
import Testing
@testable import CaptureKit

/// WHEP's SDP reading on seeded mutations of a browser's offer: it never crashes, refuses only
/// with the client's errors (400's `malformedOffer`, 406's `offerNotAcceptable`), and what it
/// accepts is what webrtcbin can take (payload types 0…127, a six-hex-digit profile, ICE
/// credentials and a fingerprint).
@Suite("WHEP offers: fuzzed")
struct WHEPOfferFuzzTests {
    /// SplitMix64: the same offers every run.
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

    static let offer = [
        "v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1",
        "m=video 9 UDP/TLS/RTP/SAVPF 96 97 98", "c=IN IP4 0.0.0.0", "a=ice-ufrag:Wb5z", "a=ice-pwd:Ak8rNn5eXbd9Ff4cVuNsMpQw",
        "a=fingerprint:sha-256 0F:74:31:25:CB:A2:13:EC:28:6F:6D:2C:61:FF:5D:C2:BC:B9:DB:3D:98:14:8D:1A:BB:EA:33:0C:A4:60:A8:8E",
        "a=setup:actpass", "a=mid:0", "a=recvonly", "a=rtcp-mux", "a=rtpmap:96 H264/90000",
        "a=fmtp:96 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f", "a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96",
        "a=rtpmap:98 H264/90000", "a=fmtp:98 packetization-mode=1;profile-level-id=640c1f",
        "m=audio 9 UDP/TLS/RTP/SAVPF 111", "a=mid:1", "a=recvonly", "a=rtpmap:111 opus/48000/2",
    ]

    static let replacements = ["999", "-5", "128", "0", "127", "zz", "42e0", "42e01f1", "", " ", "a=", ":", ";", "=", "H264/90000",
                               "profile-level-id=", "packetization-mode=0", "\u{0}", "é", "18446744073709551616", "m=video 9 RTP/AVP"]

    @Test("5,000 seeded mutations: no crash; refusals are malformedOffer or offerNotAcceptable; acceptances are well formed")
    func mutations() {
        var random = Seeded(state: 0x5DB_0FFE)
        var outcomes: [String: Int] = [:]
        for round in 0..<5_000 {
            var lines = Self.offer
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<lines.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: lines.remove(at: index)
                case 1: lines.insert(lines[Int.random(in: 0..<lines.count, using: &random)], at: index)
                case 2:
                    // A token of the line replaced.
                    var tokens = lines[index].split(omittingEmptySubsequences: false) { " :;=".contains($0) }.map(String.init)
                    let at = Int.random(in: 0..<tokens.count, using: &random)
                    tokens[at] = Self.replacements.randomElement(using: &random)!
                    let separators = lines[index].filter { " :;=".contains($0) }.map(String.init) + [""]
                    lines[index] = zip(tokens, separators).map { $0 + $1 }.joined()
                default:
                    let line = lines[index]
                    let cut = Int.random(in: 0...line.count, using: &random)
                    lines[index] = String(line.prefix(cut))
                }
            }
            let sdp = lines.joined(separator: "\r\n") + "\r\n"
            do {
                let offer = try WHEPOffer(validating: sdp)
                outcomes["accepted", default: 0] += 1
                #expect((0...127).contains(offer.videoPayload) && offer.profileLevelID.count == 6
                        && offer.profileLevelID.allSatisfy(\.isHexDigit), "round \(round): \(offer)")
                #expect(sdp.contains("a=ice-ufrag:") && sdp.contains("a=ice-pwd:") && sdp.contains("a=fingerprint:"), "round \(round): \(sdp.debugDescription)")
            } catch {
                outcomes[error.code.rawValue, default: 0] += 1
                #expect(error.code == .malformedOffer || error.code == .offerNotAcceptable, "round \(round): \(error)")
                #expect(error.message.count < 600, "round \(round): \(error.message.count) characters")
            }
        }
        print("WHEP offer fuzz: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["accepted", default: 0] > 500 && outcomes["malformedOffer", default: 0] > 500)
    }
}
