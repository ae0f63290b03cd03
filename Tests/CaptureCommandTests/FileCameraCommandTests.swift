import Foundation
import Testing

/// `-d file:PATH` on the commands: a video, or an image, plays as a live camera. Inputs are made
/// here by GStreamer's own tools and zint; results are read back by ffprobe.
@Suite("file cameras on the command line")
struct FileCameraCommandTests {
    /// Runs gst-launch-1.0 and requires it to succeed.
    static func gstLaunch(_ arguments: [String]) throws {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), ["-q"] + arguments)
        try #require(result.status == 0, "gst-launch-1.0 \(arguments.joined(separator: " ")): \(result.error)")
    }

    /// A one-second 320x240 H.264 MP4 of a moving ball, at 30 frames a second.
    static func clip(in directory: URL) throws -> URL {
        let clip = directory.appendingPathComponent("clip.mp4")
        try gstLaunch(["videotestsrc", "num-buffers=30", "pattern=ball", "!", "video/x-raw,width=320,height=240,framerate=30/1", "!",
                       "x264enc", "!", "mp4mux", "!", "filesink", "location=\(clip.path)"])
        return clip
    }

    @Test("record -d file:clip.mp4 for 3 s from a 1 s clip: the clip loops, 90 frames with timestamps that never go back or jump")
    func recordLoops() throws {
        let directory = try scratchDirectory()
        _ = try Self.clip(in: directory)
        let result = try launch("capture", ["record", "-d", "file:clip.mp4", "--duration", "3", "-o", "looped.mp4"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let movie = directory.appendingPathComponent("looped.mp4")
        let probe = try Probe(movie)
        let video = try #require(probe.stream("video"))
        let frames = Int(probe.field(video, "nb_read_frames") ?? "") ?? 0
        #expect(abs(frames - 90) <= 2, "\(frames) frames")
        #expect(probe.field(video, "width") == "320" && probe.field(video, "height") == "240")
        let times = try runProcess(URL(fileURLWithPath: "/usr/bin/ffprobe"),
                                   ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", movie.path])
        let stamps = times.output.split(separator: "\n").compactMap { Double($0.split(separator: ",")[0]) }
        let steps = zip(stamps, stamps.dropFirst()).map { $1 - $0 }
        #expect(stamps.count == frames && steps.allSatisfy { $0 > 0.03 && $0 < 0.037 },
                "every step one frame (1/30 s) across the loops: \(steps.filter { $0 <= 0.03 || $0 >= 0.037 })")
    }

    @Test("scan -d file:qr.png reads the code from an image camera; -d file:qr.mp4 from a video camera")
    func scanFileCamera() throws {
        let directory = try scratchDirectory()
        let qr = directory.appendingPathComponent("qr.png")
        let scanMe = try runProcess(URL(fileURLWithPath: "/usr/bin/zint"), ["-b", "QRCODE", "-d", "scan me", "--scale=4", "-o", qr.path])
        try #require(scanMe.status == 0, "\(scanMe.error)")
        let image = try launch("capture", ["scan", "-d", "file:\(qr.path)", "--once", "--types", "qr", "--timeout", "10"])
        #expect(image.status == 0 && image.output == "qr scan me\n", "\(image.output) \(image.error)")
        let video = directory.appendingPathComponent("qr.mp4")
        try Self.gstLaunch(["filesrc", "location=\(qr.path)", "!", "pngdec", "!", "videoconvert", "!", "videoscale", "!",
                            "video/x-raw,width=320,height=320", "!", "imagefreeze", "num-buffers=15", "!", "video/x-raw,framerate=15/1",
                            "!", "videoconvert", "!", "x264enc", "!", "mp4mux", "!", "filesink", "location=\(video.path)"])
        let clip = try launch("capture", ["scan", "-d", "file:qr.mp4", "--once", "--types", "qr", "--timeout", "10"], in: directory)
        #expect(clip.status == 0 && clip.output == "qr scan me\n", "\(clip.output) \(clip.error)")
    }

    @Test("a missing file, a folder and a file that is not a picture are errors naming the file and the reason; nothing is listed")
    func badFiles() throws {
        let directory = try scratchDirectory()
        let text = directory.appendingPathComponent("notes.mp4")
        try Data("not a movie\n".utf8).write(to: text)
        for (reference, reason) in [("file:\(directory.path)/missing.mp4", "no such file"), ("file:\(directory.path)", "not a regular file"),
                                    ("file:\(text.path)", "cannot decode")] {
            let result = try launch("capture", ["snap", "-d", reference, "-o", directory.appendingPathComponent("x.jpg").path])
            let path = String(reference.dropFirst(5))
            #expect(result.status != 0 && result.error.contains(path) && result.error.lowercased().contains(reason), "\(result.error)")
        }
        let devices = try launch("capture", ["devices"])
        #expect(devices.status == 0 && !devices.output.contains("file:"))
    }
}

extension FileCameraCommandTests {
    @Test("a pipeline file's `device: file:PATH` records from the file: ffprobe reads 2 s of its size")
    func pipelineFile() throws {
        let directory = try scratchDirectory()
        let clip = try Self.clip(in: directory)
        let file = directory.appendingPathComponent("replay.yaml")
        try """
            version: 1
            inputs:
              - name: camera
                device: "file:\(clip.path)"
            outputs:
              - movie:
                  path: replay.mp4
                  connection: { input: camera }
            run:
              seconds: 2
            """.write(to: file, atomically: true, encoding: .utf8)
        let ran = try launch("capture", ["run", file.path, "-d", directory.path])
        #expect(ran.status == 0, "\(ran.error)")
        let probe = try Probe(directory.appendingPathComponent("replay.mp4"))
        let video = try #require(probe.stream("video"))
        #expect(probe.field(video, "width") == "320" && abs(probe.duration - 2) < 0.15, "\(probe.duration) s")
    }
}

extension FileCameraCommandTests {
    @Test("stream -d file:clip.mp4 serves the 1 s clip in a loop: ffmpeg reads 3 s of it over SRT")
    func streamLoops() throws {
        let directory = try scratchDirectory()
        _ = try Self.clip(in: directory)
        let srt = StreamCommandTests.port()
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("capture")
        process.currentDirectoryURL = directory
        process.arguments = ["stream", "-d", "file:clip.mp4", "--keyframe-interval", "15", "--duration", "6", "srt://:\(srt)"]
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        let received = directory.appendingPathComponent("received.ts")
        let ffmpeg = try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"),
                                    ["10", "ffmpeg", "-v", "error", "-i", "srt://127.0.0.1:\(srt)?mode=caller", "-t", "3", "-c", "copy", "-f", "mpegts", received.path])
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(error)")
        #expect(ffmpeg.status == 0, "\(ffmpeg.error)")
        let probe = try Probe(received)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect(probe.field(video, "width") == "320" && (Int(probe.field(video, "nb_read_frames") ?? "") ?? 0) >= 75, "\(probe.fields)")
    }
}
