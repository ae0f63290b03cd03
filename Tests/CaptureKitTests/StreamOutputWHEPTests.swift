import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import CaptureKit

/// The WHEP target played by a real browser: headless Chromium (Selenium, Fixtures/whep) on a
/// page from another origin POSTs its offer, decodes the stream and DELETEs its session; and
/// the endpoint's HTTP answers to clients that get things wrong.
@Suite("Stream outputs: WHEP", .ownDevices, .serialized)
struct StreamOutputWHEPTests {
    static let player = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/whep/whep_player.py")

    /// A running session with a WHEP output on a free port.
    static func serving(preset: SessionPreset = .vga640x480) throws -> (TestSession, StreamOutput, URL) {
        let port = freePort()
        let output = try StreamOutput(target: StreamTarget(parsing: "whep://127.0.0.1:\(port)/live/whep"), videoSettings: .init(keyFrameInterval: 30))
        return (try TestSession(preset: preset, outputs: [output]), output, URL(string: "http://127.0.0.1:\(port)/live/whep")!)
    }

    /// One HTTP request; the status, headers and body.
    static func request(_ url: URL, method: String, headers: [String: String] = [:], body: String? = nil) async throws -> (Int, [String: String], String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        let fields = Dictionary(http.allHeaderFields.map { ("\($0.key)".lowercased(), "\($0.value)") }, uniquingKeysWith: { $1 })
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }

    /// The JSON after `tag ` on the player's output, once it printed it.
    static func report(_ tag: String, in output: String) -> [String: Any]? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("\(tag) ") }) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(tag.count + 1).utf8)) as? [String: Any]
    }

    @Test("Chromium on another origin plays two viewers at 640x480 from one encode; DELETE ends each, the server frees its port")
    func browserPlays() async throws {
        let (test, output, url) = try Self.serving()
        try await test.session.checked.startRunning()
        let player = try BackgroundProcess("/usr/bin/python3", [Self.player.path, url.absoluteString, "--viewers", "2", "--frames", "30",
                                                                 "--timeout", "30", "--hold", "2"])
        try await StreamOutputTests.wait(seconds: 40) { Self.report("PLAYING", in: player.output) != nil || !player.process.isRunning }
        let playing = try #require(Self.report("PLAYING", in: player.output), "the browser played: \(player.output)")
        let viewers = try #require(playing["viewers"] as? [[String: Any]])
        for viewer in viewers {
            #expect((viewer["frames"] as? Int ?? 0) >= 30 && viewer["width"] as? Int == 640 && viewer["height"] as? Int == 480, "\(viewer)")
            // The answer: send-only H.264, constrained baseline, every candidate in it (no trickle).
            let answer = viewer["answerLines"] as? [String] ?? []
            #expect(answer.contains("a=sendonly") && answer.contains { $0.hasPrefix("a=rtpmap:") && $0.contains("H264/90000") }, "\(answer)")
            #expect(answer.contains { $0.hasPrefix("a=fmtp:") && $0.contains("profile-level-id=42e01f") && $0.contains("packetization-mode=1") }, "\(answer)")
            #expect(answer.contains { $0.hasPrefix("a=candidate:") }, "\(answer)")
            // The SSRC the packets carry: answered once the viewer's first frame reached webrtcbin.
            #expect(answer.contains { $0.hasPrefix("a=ssrc:") }, "\(answer)")
        }
        let firstFrames = viewers.compactMap { $0["firstFrameMs"] as? Double }.map { Int($0) }
        print("WHEP: first decoded frame \(firstFrames) ms after each POST")
        #expect(output.statistics.clients == 2, "both viewers connected: \(output.statistics)")
        // Each viewer is a part of the branch the session's description shows, off its tee.
        let description = test.session.pipelineDescription
        let webrtcbins = description.matches(of: /webrtcbin name=(\w+)_whep(\d+)_webrtc bundle-policy=max-bundle/)
        #expect(webrtcbins.count == 2, "\(description)")
        #expect(description.contains("_tee. ! queue name=") && description.contains("rtph264pay name="), "\(description)")
        #expect(try await player.wait(seconds: 20), "the player DELETEs and exits: \(player.output)")
        let deleted = try #require(Self.report("DELETED", in: player.output), "\(player.output)")
        #expect(deleted["deleted"] as? [Int] == [200, 200])
        try await StreamOutputTests.wait(seconds: 5) { output.statistics.clients == 0 }
        #expect(output.statistics.clients == 0, "the viewers left")
        #expect(!test.session.pipelineDescription.contains("webrtcbin"), "\(test.session.pipelineDescription)")
        #expect(output.statistics.bytesSent > 10_000 && output.status == .streaming && test.session.isRunning, "\(output.statistics) \(output.status)")
        await test.session.checked.stopRunning()
        let stillServing = (try? await Self.request(url, method: "OPTIONS")) != nil
        #expect(!stillServing, "the server stopped with the session")
        // The port is free again: a second output binds it.
        let again = try StreamOutput(target: .whep(host: "127.0.0.1", port: url.port!, path: "/live/whep"))
        let second = try TestSession(preset: .vga640x480, outputs: [again])
        try await second.session.checked.startRunning()
        #expect(again.status == .streaming)
        await second.session.checked.stopRunning()
    }

    @Test("HTTP: POST without SDP is 400 naming what is expected, OPTIONS answers CORS, DELETE of an unknown session is 404, PATCH 405")
    func httpAnswers() async throws {
        let (test, _, url) = try Self.serving()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let (bad, badHeaders, badBody) = try await Self.request(url, method: "POST", headers: ["Content-Type": "application/json"], body: "{}")
        #expect(bad == 400 && badBody.contains("application/sdp"), "\(bad) \(badBody)")
        #expect(badHeaders["access-control-allow-origin"] == "*")
        let (preflight, headers, _) = try await Self.request(url, method: "OPTIONS", headers: [
            "Origin": "http://player.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type",
        ])
        #expect(preflight == 204 || preflight == 200)
        #expect(headers["access-control-allow-origin"] == "*")
        for method in ["POST", "DELETE", "OPTIONS", "PATCH"] { #expect(headers["access-control-allow-methods"]?.contains(method) == true, "\(headers)") }
        for header in ["Content-Type", "Location", "Link"] {
            #expect(headers["access-control-allow-headers"]?.contains(header) == true && headers["access-control-expose-headers"]?.contains(header) == true, "\(headers)")
        }
        let (unknown, _, _) = try await Self.request(url.appendingPathComponent("no-such-session"), method: "DELETE")
        #expect(unknown == 404)
        let (patch, _, _) = try await Self.request(url.appendingPathComponent("no-such-session"), method: "PATCH",
                                                   headers: ["Content-Type": "application/trickle-ice-sdpfrag"], body: "a=end-of-candidates\r\n")
        #expect(patch == 405)
        let (noVideo, _, noVideoBody) = try await Self.request(url, method: "POST", headers: ["Content-Type": "application/sdp"],
                                                               body: "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n")
        #expect(noVideo == 406 && noVideoBody.contains("H.264"), "\(noVideo) \(noVideoBody)")
    }

    @Test("The offer's H.264 payload type: constrained baseline in packetization mode 1 first; none, nil")
    func offerParsing() throws {
        let chrome = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "m=audio 9 UDP/TLS/RTP/SAVPF 111", "a=rtpmap:111 opus/48000/2",
                      "m=video 9 UDP/TLS/RTP/SAVPF 96 102 104 108 116", "a=rtpmap:96 VP8/90000",
                      "a=rtpmap:102 H264/90000", "a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f",
                      "a=rtpmap:104 H264/90000", "a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f",
                      "a=rtpmap:108 H264/90000", "a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
                      "a=rtpmap:116 H264/90000", "a=fmtp:116 packetization-mode=1;profile-level-id=4d001f", ""].joined(separator: "\r\n")
        let offer = try #require(WHEPOffer(sdp: chrome))
        #expect(offer.videoPayload == 108 && offer.profileLevelID == "42e01f" && offer.levelAsymmetryAllowed)
        let caps = try offer.videoCaps(streamLevel: "3")
        #expect(caps.contains("payload=108") && caps.contains("encoding-name=H264") && caps.contains("profile-level-id=(string)42e01f"))
        // A stream above the offer's level 3.1 is answered at its own level, as the offer allows.
        #expect(try offer.videoCaps(streamLevel: "4").contains("profile-level-id=(string)42e028"))
        #expect(try offer.videoCaps(streamLevel: "5.1").contains("profile-level-id=(string)42e033"))
        let strict = try #require(WHEPOffer(sdp: chrome.replacingOccurrences(of: "level-asymmetry-allowed=1;", with: "")))
        #expect(!strict.levelAsymmetryAllowed)
        #expect(try strict.videoCaps(streamLevel: "3.1").contains("42e01f"))
        #expect(throws: CaptureError.self) { try strict.videoCaps(streamLevel: "4") }
        #expect(H264Level(name: "4.1")?.idc == 41 && H264Level(name: "1b")?.idc == 9 && H264Level(idc: 40).name == "4"
                && H264Level(idc: 31).name == "3.1" && H264Level(name: "x") == nil && H264Level(name: "4.7") == nil)
        #expect(WHEPOffer(sdp: chrome.replacingOccurrences(of: "H264", with: "VP9")) == nil)
    }

    @Test("A port in use is a streamFailed error naming the target")
    func portInUse() async throws {
        let (test, output, url) = try Self.serving()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        #expect(output.status == .streaming)
        let clash = try StreamOutput(target: .whep(host: "127.0.0.1", port: url.port!, path: "/other"))
        let second = try TestSession(preset: .vga640x480, device: CaptureDevice.find(virtual: .front), outputs: [clash])
        do {
            try await second.session.checked.startRunning()
            Issue.record("a second server on the same port starts: \(clash.status)")
            await second.session.checked.stopRunning()
        } catch {
            #expect(error.code == .streamFailed && error.value == clash.target.description && error.message.contains("\(url.port!)"), "\(error)")
        }
    }
}

extension StreamOutputWHEPTests {
    @Test("A viewer whose browser is killed (SIGKILL) is removed within seconds, when its RTCP stops; the session and the stream run on")
    func viewerVanishes() async throws {
        let (test, output, url) = try Self.serving()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let player = try BackgroundProcess("/usr/bin/python3", [Self.player.path, url.absoluteString, "--frames", "15", "--timeout", "30",
                                                                 "--hold", "1", "--vanish"])
        try await StreamOutputTests.wait(seconds: 40) { player.output.contains("VANISHED") || !player.process.isRunning }
        #expect(player.output.contains("VANISHED"), "\(player.output)")
        let killed = Date()
        try await StreamOutputTests.wait(seconds: 20) { output.statistics.clients == 0 }
        #expect(output.statistics.clients == 0, "the vanished viewer was removed")
        print("WHEP: a killed browser's viewer removed after \(Int(Date().timeIntervalSince(killed))) s")
        let sent = output.statistics.framesSent
        try await StreamOutputTests.wait(seconds: 5) { output.statistics.framesSent > sent }
        #expect(test.session.isRunning && output.status == .streaming && output.statistics.framesSent > sent)
    }
}

extension StreamOutputWHEPTests {
    @Test("With the virtual microphone, a viewer that offers audio receives Opus beside the video")
    func audio() async throws {
        let (test, output, url) = try Self.serving()
        let mic = CaptureDevice.virtualMicrophone
        try test.session.checked.addInput(CaptureDeviceInput(device: mic))
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let player = try BackgroundProcess("/usr/bin/python3", [Self.player.path, url.absoluteString, "--audio", "--frames", "15",
                                                                 "--timeout", "30", "--hold", "0"])
        #expect(try await player.wait(seconds: 40), "\(player.output)")
        let playing = try #require(Self.report("PLAYING", in: player.output), "the browser played: \(player.output)")
        let viewer = try #require((playing["viewers"] as? [[String: Any]])?.first)
        #expect((viewer["audioPackets"] as? Int ?? 0) >= 20 && (viewer["audioCodec"] as? String)?.lowercased() == "audio/opus", "\(viewer)")
        #expect((viewer["frames"] as? Int ?? 0) >= 15, "\(viewer)")
        try await StreamOutputTests.wait(seconds: 5) { output.statistics.clients == 0 }
        #expect(output.statistics.clients == 0)
    }
}

extension StreamOutputWHEPTests {
    @Test("A 1920x1080 stream (H.264 level 4) plays in Chromium, whose offer names level 3.1 and allows asymmetry; an offer that does not is 406 naming both levels")
    func levelAboveTheOffer() async throws {
        let (test, output, url) = try Self.serving(preset: .hd1920x1080)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let player = try BackgroundProcess("/usr/bin/python3", [Self.player.path, url.absoluteString, "--frames", "15", "--timeout", "30",
                                                                 "--hold", "0"])
        #expect(try await player.wait(seconds: 40), "\(player.output)")
        let playing = try #require(Self.report("PLAYING", in: player.output), "the browser played: \(player.output)")
        let viewer = try #require((playing["viewers"] as? [[String: Any]])?.first)
        #expect((viewer["frames"] as? Int ?? 0) >= 15 && viewer["width"] as? Int == 1920 && viewer["height"] as? Int == 1080, "\(viewer)")
        let answer = viewer["answerLines"] as? [String] ?? []
        #expect(answer.contains { $0.hasPrefix("a=fmtp:") && $0.contains("profile-level-id=42e028") }, "answered at level 4: \(answer)")
        // Well formed but for its level (ICE credentials and a fingerprint, as every offer has).
        let strict = ["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=-", "t=0 0", "m=video 9 UDP/TLS/RTP/SAVPF 102", "a=ice-ufrag:Wb5z",
                      "a=ice-pwd:Ak8rNn5eXbd9Ff4cVuNsMpQw", "a=fingerprint:sha-256 0F:74:31:25:CB:A2:13:EC:28:6F:6D:2C:61:FF:5D:C2:BC:B9:DB:3D:98:14:8D:1A:BB:EA:33:0C:A4:60:A8:8E",
                      "a=setup:actpass", "a=mid:0", "a=recvonly", "a=rtpmap:102 H264/90000",
                      "a=fmtp:102 packetization-mode=1;profile-level-id=42e01f", ""].joined(separator: "\r\n")
        let (status, _, body) = try await Self.request(url, method: "POST", headers: ["Content-Type": "application/sdp"], body: strict)
        #expect(status == 406 && body.contains("level 4") && body.contains("level 3.1") && body.contains("level-asymmetry-allowed=1"),
                "\(status) \(body)")
        #expect(test.session.isRunning && output.status == .streaming)
    }
}
