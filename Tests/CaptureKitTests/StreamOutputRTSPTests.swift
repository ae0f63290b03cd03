import Foundation
import Testing
@_spi(Plan) @testable import CaptureKit

/// RTSP targets read and fed by clients and servers no one here wrote: ffmpeg and ffprobe
/// (TCP and UDP), GStreamer's rtspsrc, a bare DESCRIBE with basic credentials; rtspclientsink publishing to a gst-rtsp-server
/// mount in RECORD mode.
@Suite("Stream outputs: RTSP", .ownDevices, .serialized)
struct StreamOutputRTSPTests {
    static func wait(seconds: Double, _ condition: () -> Bool) async throws {
        for _ in 0..<Int(seconds * 20) where !condition() { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// ffmpeg reading `url` over `transport` for `seconds` into an MPEG-TS file.
    static func ffmpeg(_ url: String, transport: String, seconds: Int, to file: URL) throws -> BackgroundProcess {
        try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-rtsp_transport", transport, "-i", url,
                                                  "-t", String(seconds), "-c", "copy", "-f", "mpegts", file.path])
    }

    @Test("Served: ffmpeg over TCP and over UDP and GStreamer's rtspsrc read it at once, one encode for all; clients counted")
    func servesSeveralClients() async throws {
        let port = freePort()
        let url = "rtsp://127.0.0.1:\(port)/cam"
        let output = try StreamOutput(target: StreamTarget(parsing: "rtsp://:\(port)/cam"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let directory = try temporaryDirectory()
        let tcpFile = directory.appendingPathComponent("tcp.ts"), udpFile = directory.appendingPathComponent("udp.ts")
        let gstFile = directory.appendingPathComponent("rtspsrc.ts")
        let tcp = try Self.ffmpeg(url, transport: "tcp", seconds: 3, to: tcpFile)
        let udp = try Self.ffmpeg(url, transport: "udp", seconds: 3, to: udpFile)
        // rtspsrc's 90th access unit (3 s) ends its stream: the muxer finishes the file.
        let rtspsrc = try BackgroundProcess("/usr/bin/gst-launch-1.0", ["-q", "rtspsrc", "location=\(url)", "latency=0", "!", "rtph264depay", "!",
                                                                        "h264parse", "!", "video/x-h264,alignment=au", "!", "identity", "eos-after=90", "!", "mpegtsmux", "!",
                                                                        "filesink", "location=\(gstFile.path)"])
        try await Self.wait(seconds: 5) { output.statistics.clients >= 3 }
        #expect(output.statistics.clients >= 3, "three clients connected at once")
        #expect(try await tcp.wait(seconds: 15), "ffmpeg (TCP) ends after 3 s: \(tcp.output)")
        #expect(try await udp.wait(seconds: 15), "ffmpeg (UDP) ends after 3 s: \(udp.output)")
        #expect(try await rtspsrc.wait(seconds: 15), "gst-launch ends: \(rtspsrc.output)")
        for file in [tcpFile, udpFile] {
            let video = try #require(try MovieProbe(file.path).video, "\(file.lastPathComponent) decodes")
            #expect(video.codec == "h264" && video.width == 640 && video.height == 480, "\(file.lastPathComponent): \(video)")
            #expect(video.frames >= 75, "\(file.lastPathComponent): 3 s at 30 fps, got \(video.frames)")
        }
        let video = try #require(try MovieProbe(gstFile.path).video, "rtspsrc's recording decodes")
        #expect(video.codec == "h264" && video.width == 640 && video.height == 480 && video.frames >= 75, "rtspsrc: \(video)")
        // One encode: the session runs one encoded stage however many clients it serves.
        let stages = test.session.pipelinePlan.branches.filter { $0.key.hasPrefix("enc") }
        #expect(stages.count == 1, "one encoded stage: \(stages.map(\.key))")
        try await Self.wait(seconds: 5) { output.statistics.clients == 0 }
        #expect(output.statistics.clients == 0, "the clients left")
        #expect(test.session.isRunning && output.status == .streaming && output.statistics.framesSent > 90)
    }

    @Test("Credentials: refused (401) without them or with a wrong password; played with digest (ffmpeg) and basic")
    func credentials() async throws {
        let port = freePort()
        let output = try StreamOutput(target: StreamTarget(parsing: "rtsp://me:s3cret@:\(port)/cam"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let refused = try run("/usr/bin/ffprobe", ["-v", "error", "-rtsp_transport", "tcp", "rtsp://127.0.0.1:\(port)/cam"])
        #expect(refused.contains("401"), "no credentials: \(refused)")
        let wrong = try run("/usr/bin/ffprobe", ["-v", "error", "-rtsp_transport", "tcp", "rtsp://me:nope@127.0.0.1:\(port)/cam"])
        #expect(wrong.contains("401"), "wrong password: \(wrong)")
        let file = try temporaryDirectory().appendingPathComponent("auth.ts")
        let ffmpeg = try Self.ffmpeg("rtsp://me:s3cret@127.0.0.1:\(port)/cam", transport: "tcp", seconds: 2, to: file)
        #expect(try await ffmpeg.wait(seconds: 15), "ffmpeg with credentials (digest) plays: \(ffmpeg.output)")
        let video = try #require(try MovieProbe(file.path).video)
        #expect(video.codec == "h264" && video.width == 640 && video.frames >= 45, "\(video)")
        // Basic: a DESCRIBE with the credentials in its first request, the status line read
        // back (ffmpeg and rtspsrc choose digest when offered it).
        func describe(_ credentials: String) throws -> String {
            let basic = Data(credentials.utf8).base64EncodedString()
            let request = "DESCRIBE rtsp://127.0.0.1:\(port)/cam RTSP/1.0\\r\\nCSeq: 1\\r\\nAuthorization: Basic \(basic)\\r\\n\\r\\n"
            return try run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port); printf '\(request)' >&3; timeout 5 head -n 1 <&3"])
        }
        #expect(try describe("me:s3cret").hasPrefix("RTSP/1.0 200"), "basic with the password")
        #expect(try describe("me:nope").hasPrefix("RTSP/1.0 401"), "basic with a wrong one")
        #expect(test.session.isRunning && output.status == .streaming)
    }

    @Test("A client killed mid-stream (SIGKILL) and one that sends junk leave the other client, the session and the camera running")
    func clientKilled() async throws {
        let port = freePort()
        let url = "rtsp://127.0.0.1:\(port)/cam"
        let output = try StreamOutput(target: StreamTarget(parsing: "rtsp://:\(port)/cam"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let directory = try temporaryDirectory()
        let stays = try Self.ffmpeg(url, transport: "tcp", seconds: 4, to: directory.appendingPathComponent("stays.ts"))
        let killed = try Self.ffmpeg(url, transport: "udp", seconds: 30, to: directory.appendingPathComponent("killed.ts"))
        try await Self.wait(seconds: 5) { output.statistics.clients >= 2 }
        try await Task.sleep(for: .seconds(1))
        killed.kill()
        // A client that sends what is not RTSP, and hangs up.
        let junk = try run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port); printf 'NOT RTSP AT ALL\\r\\n\\r\\n' >&3; timeout 2 head -c 200 <&3"])
        // A third client joins after those.
        let joins = try Self.ffmpeg(url, transport: "tcp", seconds: 2, to: directory.appendingPathComponent("joins.ts"))
        #expect(try await stays.wait(seconds: 15), "the other client plays to its end: \(stays.output)")
        #expect(try await joins.wait(seconds: 15), "a new client plays: \(joins.output)")
        let stayed = try #require(try MovieProbe(directory.appendingPathComponent("stays.ts").path).video)
        #expect(stayed.codec == "h264" && stayed.frames >= 100, "4 s at 30 fps, got \(stayed.frames)")
        let joined = try #require(try MovieProbe(directory.appendingPathComponent("joins.ts").path).video)
        #expect(joined.codec == "h264" && joined.frames >= 45, "2 s at 30 fps, got \(joined.frames)")
        #expect(test.session.isRunning && output.status == .streaming, "after a junk client that was answered: \(junk)")
    }

    @Test("A port in use fails with streamFailed naming the address; stopping frees the port for the next session")
    func portInUse() async throws {
        let port = freePort()
        let first = try StreamOutput(target: StreamTarget(parsing: "rtsp://:\(port)/a"))
        let test = try TestSession(preset: .vga640x480, outputs: [first])
        try await test.session.checked.startRunning()
        let second = try StreamOutput(target: StreamTarget(parsing: "rtsp://:\(port)/b"))
        let other = try TestSession(preset: .vga640x480, device: CaptureDevice.find(virtual: .front), outputs: [second])
        await #expect {
            try await other.session.checked.startRunning()
        } throws: { error in
            guard let error = error as? CaptureError else { return false }
            return error.code == .streamFailed && error.message.contains("127.0.0.1:\(port)")
        }
        await test.session.checked.stopRunning()
        try await other.session.checked.startRunning()
        defer { other.session.stopRunning() }
        let probe = try run("/usr/bin/ffprobe", ["-v", "error", "-rtsp_transport", "tcp", "-show_entries", "stream=codec_name,width",
                                                 "-of", "csv=p=0", "rtsp://127.0.0.1:\(port)/b"])
        #expect(probe.contains("h264,640"), "the second session serves on the freed port: \(probe)")
    }

    @Test("Publish: rtspclientsink records to a RECORD-mode server; killed and restarted, the stream resumes while HLS runs on")
    func publishReconnects() async throws {
        let port = freePort()
        let directory = try temporaryDirectory()
        var server = try RTSPRecordServer(port: port, path: "/in", file: directory.appendingPathComponent("first.ts"), user: "me", password: "s3cret")
        #expect(try await server.waitListening(seconds: 10), "the record server listens: \(server.process.output)")
        let publisher = try StreamOutput(target: StreamTarget(parsing: "publish:rtsp://me:s3cret@127.0.0.1:\(port)/in"),
                                         videoSettings: .init(keyFrameInterval: 15))
        let hls = try StreamOutput(target: .hls(HLSTarget(directory: directory.appendingPathComponent("hls"), segmentDuration: 1)),
                                   videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [publisher, hls])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await Self.wait(seconds: 10) { server.recordedBytes > 150_000 }
        #expect(server.recordedBytes > 150_000, "the server records: \(server.process.output)")
        #expect(publisher.status == .streaming && publisher.statistics.clients == 1)
        #expect(!test.session.pipelineDescription.contains("s3cret"), "the printed pipeline leaves the password out")
        server.kill()
        let framesBefore = hls.statistics.framesSent
        try await Self.wait(seconds: 10) { if case .failed = publisher.status { true } else { false } }
        guard case .failed(let error, let retry) = publisher.status else {
            Issue.record("the publisher notices its server went away: \(publisher.status)")
            return
        }
        #expect(error.code == .streamFailed && retry != nil, "\(error)")
        server = try RTSPRecordServer(port: port, path: "/in", file: directory.appendingPathComponent("second.ts"), user: "me", password: "s3cret")
        #expect(try await server.waitListening(seconds: 10), "the record server listens again: \(server.process.output)")
        try await Self.wait(seconds: 20) { server.recordedBytes > 150_000 }
        #expect(server.recordedBytes > 150_000, "the publisher published again")
        server.kill()
        #expect(publisher.statistics.reconnects >= 1)
        #expect(hls.statistics.framesSent > framesBefore + 30, "HLS ran on meanwhile")
        #expect(test.session.isRunning && hls.status == .streaming)
        for name in ["first.ts", "second.ts"] {
            // Both servers were killed mid-stream: their files end in a cut-off packet.
            let video = try #require(try MovieProbe(directory.appendingPathComponent(name).path, toleratingErrors: true).video, "\(name) decodes")
            #expect(video.codec == "h264" && video.width == 640 && video.height == 480 && video.frames >= 20, "\(name): \(video)")
        }
    }

    @Test("Publish before the server runs: the session starts at once, the publisher fails and calls again until it comes")
    func publishWaitsForServer() async throws {
        let port = freePort()
        let directory = try temporaryDirectory()
        let publisher = try StreamOutput(target: StreamTarget(parsing: "publish:rtsp://127.0.0.1:\(port)/in"), videoSettings: .init(keyFrameInterval: 15))
        let test = try TestSession(preset: .vga640x480, outputs: [publisher])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try await Self.wait(seconds: 10) { if case .failed = publisher.status { true } else { false } }
        guard case .failed(let error, let retry) = publisher.status else {
            Issue.record("nothing listens: the publisher fails: \(publisher.status)")
            return
        }
        #expect(error.code == .streamFailed && retry != nil && error.value == "publish:rtsp://127.0.0.1:\(port)/in", "\(error)")
        #expect(test.session.isRunning)
        let server = try RTSPRecordServer(port: port, path: "/in", file: directory.appendingPathComponent("late.ts"))
        defer { server.kill() }
        #expect(try await server.waitListening(seconds: 10), "the record server listens: \(server.process.output)")
        try await Self.wait(seconds: 20) { server.recordedBytes > 100_000 }
        #expect(server.recordedBytes > 100_000, "the publisher called again and published")
        #expect(publisher.statistics.reconnects >= 1 && test.session.isRunning)
    }
}
