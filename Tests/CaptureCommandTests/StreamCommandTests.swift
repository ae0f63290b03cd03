import Foundation
import Testing

@Suite("capture stream", .serialized)
struct StreamCommandTests {
    /// A port nothing listens on (TCP and UDP) on loopback, most likely.
    static func port() -> Int { Int.random(in: 20_000..<60_000) & ~1 }

    @Test("SRT, HLS and RTP at once from one encode: ffmpeg reads the SRT listener, the playlist has segments, the SDP is written; exit 0 after --duration")
    func severalTargets() throws {
        let directory = try scratchDirectory()
        let srt = Self.port(), rtp = Self.port()
        let sdp = directory.appendingPathComponent("stream.sdp")
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("capture")
        process.arguments = ["stream", "-d", "virtual", "--preset", "vga640x480", "--keyframe-interval", "15", "--duration", "5",
                             "srt://:\(srt)", "hls:\(directory.appendingPathComponent("live").path)", "rtp://127.0.0.1:\(rtp)", "--sdp", sdp.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        let received = directory.appendingPathComponent("srt.ts")
        let ffmpeg = try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"),
                                    ["10", "ffmpeg", "-v", "error", "-i", "srt://127.0.0.1:\(srt)?mode=caller", "-t", "2", "-c", "copy", "-f", "mpegts", received.path])
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(error)")
        #expect(ffmpeg.status == 0, "\(ffmpeg.error)")
        #expect(!output.contains("v=0"), "the SDP went to --sdp, not to standard output: \(output)")
        let probe = try Probe(received)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect(probe.field(video, "codec_name") == "h264" && probe.field(video, "width") == "640")
        #expect((Int(probe.field(video, "nb_read_frames") ?? "") ?? 0) >= 45, "2 s at 30 fps: \(probe.fields)")
        let playlist = try String(contentsOf: directory.appendingPathComponent("live/playlist.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXTINF") && playlist.contains("segment"), "\(playlist)")
        let description = try String(contentsOf: sdp, encoding: .utf8)
        #expect(description.contains("m=video \(rtp) RTP/AVP 96"), "\(description)")
        for target in ["srt://127.0.0.1:\(srt)", "hls:", "rtp://127.0.0.1:\(rtp)"] {
            #expect(output.split(separator: "\n").contains { $0.hasPrefix(target) && $0.contains("frames") }, "a summary line for \(target): \(output)")
        }
    }

    @Test("SIGINT ends the stream and exits 0")
    func interrupt() throws {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("capture")
        process.arguments = ["stream", "-d", "virtual", "--preset", "vga640x480", "srt://:\(Self.port())"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 2)
        kill(process.processIdentifier, SIGINT)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(error)")
        #expect(output.contains("frames"), "the summary: \(output)")
    }

    @Test("Bad targets are usage errors (exit 2) naming the accepted forms", arguments: ["ftp://host:1/x", "srt://:99999", "hls:", "rtp://:5004"])
    func badTarget(target: String) throws {
        let result = try launch("capture", ["stream", "-d", "virtual", target])
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.contains(target) && result.error.contains("srt://:PORT") && result.error.contains("whep://"), "\(result.error)")
    }
}
