import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// WHEP's SDP reading on seeded mutations of a browser's offer: it never crashes, refuses only
/// with the client's errors (400's `malformedOffer`, 406's `offerNotAcceptable`), and what it
/// accepts is what webrtcbin can take (payload types 0…127, a six-hex-digit profile, ICE
/// credentials and a fingerprint).
@Suite("WHEP offers: fuzzed", .ownDevices)
struct WHEPOfferFuzzTests {
    /// The fixture's offer with a second H.264 payload type (High profile) and an Opus audio
    /// section, as lines.
    static let offer: [String] = {
        var lines = try! String(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/whep/chromium-offer.sdp"), encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        lines[lines.firstIndex { $0.hasPrefix("m=video") }!] += " 98"
        lines += ["a=rtpmap:98 H264/90000", "a=fmtp:98 packetization-mode=1;profile-level-id=640c1f",
                  "m=audio 9 UDP/TLS/RTP/SAVPF 111", "a=mid:1", "a=recvonly", "a=rtpmap:111 opus/48000/2"]
        return lines
    }()

    static let replacements = ["999", "-5", "128", "0", "127", "zz", "42e0", "42e01f1", "", " ", "a=", ":", ";", "=", "H264/90000",
                               "profile-level-id=", "packetization-mode=0", "\u{0}", "é", "18446744073709551616", "m=video 9 RTP/AVP"]

    @Test("5,000 seeded mutations: no crash; refusals are malformedOffer or offerNotAcceptable; acceptances are well formed")
    func mutations() {
        var random = SplitMix(seed: 0x5DB_0FFE)
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
