import Foundation
import Testing
@testable import CaptureKit

/// Stream outputs read by clients no one here wrote: ffprobe and ffmpeg over SRT and RTP,
/// srt-live-transmit as an SRT listener, ffprobe on an HLS playlist.
@Suite("Stream outputs", .ownDevices, .serialized)
struct StreamOutputTests {
    /// Waits until `condition` holds, up to `seconds`.
    static func wait(seconds: Double, _ condition: () -> Bool) async throws {
        for _ in 0..<Int(seconds * 20) where !condition() { try await Task.sleep(for: .milliseconds(50)) }
    }

    @Test("HLS: a rolling playlist whose segments ffprobe reads, at the camera's size; old segments deleted")
    func hls() async throws {
        let directory = try temporaryDirectory().appendingPathComponent("live")
        let output = try StreamOutput(target: .hls(HLSTarget(directory: directory, segmentDuration: 1, playlistLength: 2)),
                                      videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let playlist = directory.appendingPathComponent("playlist.m3u8")
        try await Self.wait(seconds: 10) { ((try? String(contentsOf: playlist, encoding: .utf8)) ?? "").components(separatedBy: "#EXTINF").count > 2 }
        let text = try String(contentsOf: playlist, encoding: .utf8)
        #expect(text.components(separatedBy: "#EXTINF").count - 1 >= 2, "two segments listed: \(text)")
        // A player: ffmpeg follows the live playlist for two seconds of video.
        let file = directory.deletingLastPathComponent().appendingPathComponent("hls.ts")
        let ffmpeg = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", playlist.path, "-t", "2", "-c", "copy", "-f", "mpegts", file.path])
        #expect(try await ffmpeg.wait(seconds: 15), "ffmpeg ends after 2 s: \(ffmpeg.output)")
        let video = try #require(try MovieProbe(file.path).video, "ffprobe reads what ffmpeg took from the playlist")
        #expect(video.codec == "h264" && video.width == 640 && video.height == 480)
        #expect(video.frames >= 45, "\(video.frames) frames")
        #expect(output.status == .streaming && output.statistics.framesSent > 30)
        let first = directory.appendingPathComponent("segment00000.ts").path
        #expect(await waitFor(within: 15) { !FileManager.default.fileExists(atPath: first) }, "the oldest segment is deleted once the playlist moved past it")
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".ts") }
        #expect(segments.count <= 5, "at most twice the playlist's length kept, and the one being written: \(segments.sorted())")
        #expect(!segments.contains("segment00000.ts"), "the oldest segment was deleted")
    }

    @Test("SRT listener: ffmpeg calls in and records what ffprobe decodes; the caller is counted")
    func srtListener() async throws {
        let port = freePort()
        let output = try StreamOutput(target: StreamTarget(parsing: "srt://:\(port)?latency=20"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let file = try temporaryDirectory().appendingPathComponent("srt.ts")
        let ffmpeg = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", "srt://127.0.0.1:\(port)?mode=caller&latency=20000",
                                                                "-t", "3", "-c", "copy", "-f", "mpegts", file.path])
        try await Self.wait(seconds: 5) { output.statistics.clients == 1 }
        #expect(output.statistics.clients == 1)
        #expect(try await ffmpeg.wait(seconds: 15), "ffmpeg ends after 3 s of stream: \(ffmpeg.output)")
        let video = try #require(try MovieProbe(file.path).video)
        #expect(video.codec == "h264" && video.width == 640 && video.height == 480)
        #expect(video.frames >= 75, "3 s at 30 fps, got \(video.frames)")
        try await Self.wait(seconds: 3) { output.statistics.clients == 0 }
        #expect(output.statistics.clients == 0, "the caller left")
        #expect(test.session.isRunning && output.status == .streaming)
    }

    @Test("SRT listener, two receivers: one killed mid-stream, the other reads on to the end, audio (AAC) and video")
    func srtReceiverKilled() async throws {
        let port = freePort()
        let output = try StreamOutput(target: StreamTarget(parsing: "srt://:\(port)?latency=20"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [])
        try test.session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.virtualMicrophone))
        try test.session.checked.addOutput(output)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let directory = try temporaryDirectory()
        func receiver(_ name: String, seconds: Int) throws -> BackgroundProcess {
            try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", "srt://127.0.0.1:\(port)?mode=caller&latency=20000", "-t", String(seconds),
                                                      "-c", "copy", "-f", "mpegts", directory.appendingPathComponent(name).path])
        }
        let doomed = try receiver("doomed.ts", seconds: 30)
        try await Self.wait(seconds: 10) { output.statistics.clients == 1 }
        let survivor = try receiver("survivor.ts", seconds: 3)
        try await Self.wait(seconds: 10) { output.statistics.clients == 2 }
        #expect(output.statistics.clients == 2, "both receivers called in: \(doomed.output) \(survivor.output)")
        // Killed mid-stream: once it has written some of what it received.
        let doomedFile = directory.appendingPathComponent("doomed.ts").path
        try await Self.wait(seconds: 10) { ((try? FileManager.default.attributesOfItem(atPath: doomedFile)[.size] as? Int) ?? 0) > 20_000 }
        doomed.kill()
        #expect(try await survivor.wait(seconds: 15), "the other receiver reads on: \(survivor.output)")
        let probe = try MovieProbe(directory.appendingPathComponent("survivor.ts").path)
        let video = try #require(probe.video), audio = try #require(probe.audio, "the microphone's AAC")
        #expect(video.codec == "h264" && video.frames >= 75, "\(video.frames) frames in 3 s")
        #expect(audio.codec == "aac")
        #expect(test.session.isRunning && output.status == .streaming)
    }

    @Test("SRT caller: srt-live-transmit receives; killed mid-stream and restarted, the stream resumes while HLS runs on")
    func srtCallerReconnects() async throws {
        let port = freePort()
        let directory = try temporaryDirectory()
        let caller = try StreamOutput(target: StreamTarget(parsing: "srt://127.0.0.1:\(port)?latency=20"), videoSettings: .init(keyFrameInterval: 15))
        let hls = try StreamOutput(target: .hls(HLSTarget(directory: directory.appendingPathComponent("hls"), segmentDuration: 1)),
                                   videoSettings: .init(keyFrameInterval: 15))
        func receive(_ name: String) throws -> (BackgroundProcess, URL) {
            let file = directory.appendingPathComponent(name)
            // srt-live-transmit writes files only as standard output (`file://con`).
            return (try BackgroundProcess("/bin/sh", ["-c", "exec srt-live-transmit -q 'srt://:\(port)?mode=listener' file://con > '\(file.path)'"]), file)
        }
        var (receiver, first) = try receive("first.ts")
        let test = try TestSession(preset: .vga640x480, outputs: [caller, hls])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        // Killed mid-stream: once it has received some of it.
        try await Self.wait(seconds: 10) { ((try? FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int) ?? 0) > 200_000 }
        receiver.kill()
        let framesBefore = hls.statistics.framesSent
        try await Self.wait(seconds: 10) { if case .failed = caller.status { true } else { false } }
        guard case .failed(let error, let retry) = caller.status else {
            Issue.record("the caller notices its receiver went away: \(caller.status)")
            return
        }
        #expect(error.code == .streamFailed && retry != nil)
        (receiver, _) = try receive("second.ts")
        let second = directory.appendingPathComponent("second.ts")
        try await Self.wait(seconds: 15) { ((try? FileManager.default.attributesOfItem(atPath: second.path)[.size] as? Int) ?? 0) > 200_000 }
        receiver.kill()
        #expect(caller.statistics.reconnects >= 1)
        #expect(hls.statistics.framesSent > framesBefore + 30, "HLS ran on meanwhile")
        #expect(test.session.isRunning)
        for file in [first, second] {
            // Both receivers were killed mid-stream: their files end in a cut-off packet.
            let video = try #require(try MovieProbe(file.path, toleratingErrors: true).video, "\(file.lastPathComponent) decodes")
            #expect(video.codec == "h264" && video.width == 640 && video.frames >= 20, "\(file.lastPathComponent): \(video.frames) frames")
        }
    }

    @Test("SRT caller into ffmpeg listening: what ffmpeg writes decodes from its first frame (the caller joins with a key frame)")
    func srtCallerToFFmpeg() async throws {
        let port = freePort()
        let file = try temporaryDirectory().appendingPathComponent("ffmpeg-listener.ts")
        let ffmpeg = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", "srt://127.0.0.1:\(port)?mode=listener&latency=20000",
                                                                "-t", "2", "-c", "copy", "-f", "mpegts", file.path])
        try await Task.sleep(for: .milliseconds(500))
        let output = try StreamOutput(target: StreamTarget(parsing: "srt://127.0.0.1:\(port)?latency=20"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        #expect(try await ffmpeg.wait(seconds: 15), "ffmpeg ends after 2 s: \(ffmpeg.output)")
        let video = try #require(try MovieProbe(file.path).video, "ffprobe decodes it without errors")
        #expect(video.codec == "h264" && video.width == 640 && video.height == 480 && video.frames >= 45, "\(video.frames) frames")
        // ffmpeg has gone: the caller notices and will call again.
        try await Self.wait(seconds: 10) { if case .failed(_, _?) = output.status { true } else { false } }
        guard case .failed(let error, _?) = output.status else {
            Issue.record("the caller calls again once its listener left: \(output.status)")
            return
        }
        #expect(error.code == .streamFailed && test.session.isRunning)
    }

    @Test("RTP: ffmpeg receives from the SDP the output writes")
    func rtp() async throws {
        let port = freePort() & ~1
        let output = try StreamOutput(target: StreamTarget(parsing: "rtp://127.0.0.1:\(port)"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await Self.wait(seconds: 5) { output.sessionDescription != nil }
        let sdp = try #require(output.sessionDescription)
        #expect(sdp.contains("m=video \(port) RTP/AVP 96") && sdp.contains("sprop-parameter-sets="), "\(sdp)")
        let directory = try temporaryDirectory()
        try sdp.write(to: directory.appendingPathComponent("stream.sdp"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("rtp.ts")
        let ffmpeg = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-protocol_whitelist", "file,udp,rtp",
                                                                "-i", directory.appendingPathComponent("stream.sdp").path,
                                                                "-t", "2", "-c", "copy", "-f", "mpegts", file.path])
        #expect(try await ffmpeg.wait(seconds: 15), "ffmpeg ends after 2 s: \(ffmpeg.output)")
        let video = try #require(try MovieProbe(file.path).video)
        #expect(video.codec == "h264" && video.width == 640 && video.height == 480 && video.frames >= 45, "\(video.frames) frames")
    }

    @Test("Targets built in code are checked: ports, paths, passphrases, WHEP's profile; a passphrase is never printed")
    func misuse() throws {
        for (target, name) in [(StreamTarget.rtsp(host: "127.0.0.1", port: 70_000, path: "/cam"), "70000"), (.whep(host: "127.0.0.1", port: 8080, path: "cam"), "cam"),
                               (.rtp(host: "127.0.0.1", port: -1), "-1"), (.srt(SRTTarget(mode: .listener, host: "127.0.0.1", port: 9000, passphrase: "short")), "5 characters")] {
            #expect {
                try StreamOutput(target: target)
            } throws: { error in
                (error as? CaptureError)?.code == .invalidSetting && (error as? CaptureError)?.value == name
            }
        }
        #expect(throws: CaptureError.self) { try StreamOutput(target: .whep(host: "127.0.0.1", port: 8080, path: "/w"), videoSettings: .init(profile: .high)) }
        let secret = try StreamTarget(parsing: "srt://:\(freePort())?passphrase=correct-horse-battery")
        #expect(!secret.description.contains("correct-horse"))
        let output = try StreamOutput(target: secret)
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        #expect(!test.session.pipelineDescription.contains("correct-horse"), "\(test.session.pipelineDescription)")
    }

    @Test("Callers wait 0.5, 1, 2, 4, 8, then 10 s between attempts")
    func backOff() {
        #expect((1...8).map { StreamOutput.backOff(failures: $0) } == [0.5, 1, 2, 4, 8, 10, 10, 10])
    }

    @Test("Targets parse from their URL forms; bad ones name the text and the accepted forms")
    func parsing() throws {
        #expect(try StreamTarget(parsing: "srt://:9000") == .srt(SRTTarget(mode: .listener, host: "127.0.0.1", port: 9000)))
        #expect(try StreamTarget(parsing: "srt://:9000", listen: "0.0.0.0") == .srt(SRTTarget(mode: .listener, host: "0.0.0.0", port: 9000)))
        #expect(try StreamTarget(parsing: "srt://10.0.0.5:9000?latency=20") == .srt(SRTTarget(mode: .caller, host: "10.0.0.5", port: 9000, latency: 20)))
        #expect(try StreamTarget(parsing: "rtsp://:8554/cam") == .rtsp(host: "127.0.0.1", port: 8554, path: "/cam"))
        #expect(try StreamTarget(parsing: "publish:rtsp://me:pw@media:8554/cam")
            == .rtspPublish(url: "rtsp://media:8554/cam", credentials: StreamCredentials(user: "me", password: "pw")))
        #expect(try StreamTarget(parsing: "rtp://239.0.0.1:5004") == .rtp(host: "239.0.0.1", port: 5004))
        #expect(try StreamTarget(parsing: "hls:/tmp/live") == .hls(HLSTarget(directory: URL(fileURLWithPath: "/tmp/live", isDirectory: true))))
        #expect(try StreamTarget(parsing: "whep://:8080/whep") == .whep(host: "127.0.0.1", port: 8080, path: "/whep"))
        for bad in ["ftp://x:1/a", "srt://:0", "srt://host", "rtp://:5004", "hls:", "srt://:9000?latency=abc", "rtsp://:8554", "camera"] {
            #expect {
                try StreamTarget(parsing: bad)
            } throws: { error in
                guard let error = error as? CaptureError else { return false }
                return error.code == .invalidStreamTarget && error.value == bad && error.message.contains("srt://:PORT")
            }
        }
    }
}
