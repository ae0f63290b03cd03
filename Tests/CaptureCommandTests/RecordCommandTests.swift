import Foundation
import Testing

/// What ffprobe reads in a movie: `stream.0.codec_name`, `format.duration`, … as written by
/// `-of flat`, frames counted (`stream.N.nb_read_frames`).
struct Probe {
    var fields: [String: String]

    init(_ file: URL) throws {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/ffprobe"),
                                    ["-v", "error", "-count_frames", "-show_format", "-show_streams", "-of", "flat=s=.", file.path])
        guard result.status == 0 else { throw ProbeFailure(file: file.path, error: result.error) }
        fields = [:]
        for line in result.output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }

    /// The index of the first stream of `type` (video, audio).
    func stream(_ type: String) -> Int? {
        (0..<16).first { fields["streams.stream.\($0).codec_type"] == type }
    }

    func field(_ stream: Int, _ name: String) -> String? { fields["streams.stream.\(stream).\(name)"] }

    var duration: Double { Double(fields["format.duration"] ?? "") ?? 0 }

    struct ProbeFailure: Error, CustomStringConvertible {
        var file: String
        var error: String
        var description: String { "ffprobe cannot read \(file): \(error)" }
    }
}

@Suite("capture record", .serialized)
struct RecordCommandTests {
    /// A 640x480 H.264 movie of the length asked: video only by default, an AAC track with --audio.
    static func expectMovie(_ file: URL, seconds: Double, audio: String?) throws {
        let probe = try Probe(file)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect(probe.field(video, "codec_name") == "h264")
        #expect(probe.field(video, "width") == "640" && probe.field(video, "height") == "480")
        let frames = try #require(Int(probe.field(video, "nb_read_frames") ?? ""))
        #expect(abs(frames - Int(seconds * 30)) <= 1, "\(frames) frames in \(seconds) s at 30 fps")
        let videoDuration = try #require(Double(probe.field(video, "duration") ?? ""))
        #expect(abs(videoDuration - seconds) <= 1.0 / 30 + 1e-3, "video track of \(videoDuration) s")
        if let audio {
            let track = try #require(probe.stream("audio"), "\(probe.fields)")
            #expect(probe.field(track, "codec_name") == audio)
        } else {
            #expect(probe.stream("audio") == nil, "video only unless --audio is given")
        }
    }

    @Test("--duration 2 records 2 s of H.264 at the preset's size, says the limit stopped it, and prints only the path on a pipe")
    func duration() throws {
        let file = try scratchDirectory().appendingPathComponent("clip.mp4")
        let result = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--duration", "2", "-o", file.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == file.path + "\n")
        #expect(result.error.contains("stopped: reached --duration 2 s"), "\(result.error)")
        try Self.expectMovie(file, seconds: 2, audio: nil)
    }

    @Test("on a terminal a progress line is rewritten in place; --verbose names the encoder and shows the recording's pipeline",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminal() throws {
        let file = try scratchDirectory().appendingPathComponent("tty.mov")
        let command = [binaries.appendingPathComponent("capture").path, "record", "-d", "virtual", "--preset", "vga640x480",
                       "--duration", "1.5", "--verbose", "-o", file.path].joined(separator: " ")
        // script(1) gives the command a terminal for standard output and error, both copied here.
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/script"), ["-qefc", command, "/dev/null"])
        #expect(result.status == 0, "\(result.output)")
        let progress = result.output.components(separatedBy: "\r\u{1B}[K").dropFirst().filter { $0.hasPrefix("tty.mov  ") }
        #expect(progress.count >= 2, "\(result.output)")
        let last = try #require(progress.last?.components(separatedBy: "  "))
        #expect(last.count == 6 && last[2].hasSuffix("B") && last[3].hasSuffix(" fps") && last[4] == "0 dropped", "\(last)")
        let encoder = try #require(result.output.firstMatch(of: /encoder: (\w+)/)?.1)
        #expect(last[5].hasPrefix(encoder), "\(last)")
        #expect(result.output.contains("pipeline: ") && result.output.contains("\(encoder) name=enc") && result.output.contains("qtmux"),
                "\(result.output)")
        #expect(result.output.hasSuffix(file.path + "\r\n"), "\(result.output)")
    }

    @Test("--audio virtual adds the virtual microphone's track: AAC in .mp4")
    func audio() throws {
        let file = try scratchDirectory().appendingPathComponent("av.mp4")
        let result = try launch("capture", ["record", "-d", "virtual", "--audio", "virtual", "--preset", "vga640x480",
                                            "--duration", "2", "-o", file.path])
        #expect(result.status == 0, "\(result.error)")
        try Self.expectMovie(file, seconds: 2, audio: "aac")
        let other = file.deletingLastPathComponent().appendingPathComponent("camera.mp4")
        let camera = try launch("capture", ["record", "-d", "virtual", "--audio", "virtual-front", "--duration", "1", "-o", other.path])
        #expect(camera.status == 1 && camera.error.contains("not a microphone") && camera.error.contains("virtual:microphone"), "\(camera.error)")
    }

    @Test("SIGINT and SIGTERM finish the file and exit 0", arguments: [SIGINT, SIGTERM])
    func interrupt(signal: Int32) throws {
        let file = try scratchDirectory().appendingPathComponent("interrupted.mkv")
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("capture")
        process.arguments = ["record", "-d", "virtual", "--preset", "vga640x480", "-o", file.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Interrupt once the recording has written something, then some more.
        while process.isRunning, ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) == 0 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, signal)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(String(decoding: error, as: UTF8.self))")
        #expect(String(decoding: output, as: UTF8.self) == file.path + "\n")
        let probe = try Probe(file)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect(probe.field(video, "codec_name") == "h264")
        #expect((Int(probe.field(video, "nb_read_frames") ?? "") ?? 0) > 0)
        #expect(probe.duration > 0)
    }

    @Test("kill -9 at random moments leaves a playable file each time, losing at most one fragment")
    func killed() throws {
        var generator = SystemRandomNumberGenerator()
        for run in 0..<4 {
            let file = try scratchDirectory().appendingPathComponent("killed\(run).mp4")
            let process = Process()
            process.executableURL = binaries.appendingPathComponent("capture")
            process.arguments = ["record", "-d", "virtual", "--audio", "virtual", "--preset", "vga640x480", "--fragment", "0.5", "-o", file.path]
            // Its standard error goes to a file, read when it ended by itself (once, in a full run, it
            // exited before its file appeared, and the reason was thrown away with its output).
            let log = file.deletingPathExtension().appendingPathExtension("stderr.txt")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let errors = try FileHandle(forWritingTo: log)
            defer { try? errors.close() }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            // The file appears when the recording's branch starts: count the recorded time from there.
            while process.isRunning, !FileManager.default.fileExists(atPath: file.path) { Thread.sleep(forTimeInterval: 0.01) }
            let started = Date()
            let moment = Double.random(in: 1.0...2.5, using: &generator)
            Thread.sleep(forTimeInterval: moment)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let recorded = Date().timeIntervalSince(started)
            #expect(process.terminationReason == .uncaughtSignal,
                    "run \(run): capture record ended by itself (status \(process.terminationStatus)): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            let probe = try Probe(file)
            let video = try #require(probe.stream("video"), "run \(run): \(probe.fields)")
            #expect(probe.stream("audio") != nil, "run \(run): the audio track survives too")
            let frames = Int(probe.field(video, "nb_read_frames") ?? "") ?? 0
            // One fragment (0.5 s) may be lost, and the first frame comes up to a frame after the file appears.
            #expect(Double(frames) / 30 >= recorded - 0.5 - 0.1 - 1.0 / 30, "run \(run): \(frames) frames after \(recorded) s killed at a random moment")
            let decoded = try runProcess(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-v", "error", "-i", file.path, "-f", "null", "-"])
            #expect(decoded.status == 0 && decoded.error.isEmpty, "run \(run): ffmpeg decodes it: \(decoded.error)")
        }
    }

    @Test("--max-size stops the recording before the file passes the limit, says so, and leaves a playable file")
    func maxSize() throws {
        let file = try scratchDirectory().appendingPathComponent("small.mp4")
        let result = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--bitrate", "2000",
                                            "--max-size", "300K", "--duration", "30", "-o", file.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("stopped: reached --max-size 300.0 kB (300000 bytes)"), "\(result.error)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(size <= 300_000)
        let probe = try Probe(file)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect((Int(probe.field(video, "nb_read_frames") ?? "") ?? 0) > 0)
        #expect(try launch("capture", ["record", "--max-size", "lots"]).status == 2)
    }

    /// Whether this machine lets an unprivileged process mount a small tmpfs in a namespace of its own.
    static let canMountTmpfs: Bool = {
        (try? runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]))?.status == 0
    }()

    @Test("a full disk exits 1, says so, and leaves the file", .enabled(if: canMountTmpfs))
    func diskFull() throws {
        // A 100 kB tmpfs over a scratch directory, in a mount namespace that ends with the shell:
        // ffprobe reads the file there.
        let directory = try scratchDirectory()
        let file = directory.appendingPathComponent("full.mp4")
        let capture = binaries.appendingPathComponent("capture").path
        let script = """
            mount -t tmpfs -o size=100k tmpfs '\(directory.path)' || exit 99
            '\(capture)' record -d virtual --preset vga640x480 --bitrate 3000 --duration 30 -o '\(file.path)'
            status=$?
            echo "size=$(stat -c %s '\(file.path)')"
            ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of default=noprint_wrappers=1 '\(file.path)'
            exit $status
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["-rm", "sh", "-c", script])
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.contains("error: the disk holding '\(file.path)' is full"), "\(result.error)")
        #expect(result.error.contains("the file \(file.path) was kept"), "\(result.error)")
        let size = result.output.split(separator: "\n").first { $0.hasPrefix("size=") }.flatMap { Int($0.dropFirst(5)) }
        #expect((size ?? 0) > 0, "\(result.output)")
        #expect(result.output.contains("codec_name=h264"), "\(result.output)")
    }

    @Test("an existing file is left alone without --force and replaced with it")
    func existingFile() throws {
        let file = try scratchDirectory().appendingPathComponent("taken.mp4")
        try Data("keep me".utf8).write(to: file)
        let refused = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--duration", "1", "-o", file.path])
        #expect(refused.status == 1)
        #expect(refused.error.contains("'\(file.path)' already exists") && refused.error.contains("--force"), "\(refused.error)")
        #expect(refused.output.isEmpty)
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        let forced = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--duration", "1", "--force", "-o", file.path])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try Probe(file).stream("video") != nil)
    }

    @Test("-d screen records the screen $DISPLAY names, at its size; `capture devices` lists it",
          .enabled(if: XvfbDisplay.isInstalled, "Xvfb is not installed (make test installs it: scripts/apt-packages.txt)"))
    func screen() throws {
        let xvfb = try XvfbDisplay(width: 800, height: 600)
        let devices = try launch("capture", ["devices"], environment: ["DISPLAY": xvfb.name])
        #expect(devices.output.contains("Screen \(xvfb.name) [screen:\(xvfb.name)]") && devices.output.contains("800x600 bgrx 1-60 fps  (active)"),
                "\(devices.output)")
        let file = try scratchDirectory().appendingPathComponent("screen.mp4")
        let result = try launch("capture", ["record", "-d", "screen", "--duration", "1", "-o", file.path], environment: ["DISPLAY": xvfb.name])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == file.path + "\n")
        let probe = try Probe(file)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect(probe.field(video, "codec_name") == "h264")
        #expect(probe.field(video, "width") == "800" && probe.field(video, "height") == "600")
        let frames = try #require(Int(probe.field(video, "nb_read_frames") ?? ""))
        #expect(abs(frames - 30) <= 1, "\(frames) frames in 1 s at 30 fps")
    }

    @Test("with $DISPLAY unset, -d screen is an error naming the devices there are")
    func noScreen() throws {
        let file = try scratchDirectory().appendingPathComponent("screen.mp4")
        let result = try launch("capture", ["record", "-d", "screen", "--duration", "1", "-o", file.path], environment: ["DISPLAY": nil])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("no device 'screen'; available: 0: virtual:back"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("an extension no container is made for is an error naming the ones there are")
    func unsupportedExtension() throws {
        let file = try scratchDirectory().appendingPathComponent("clip.avi")
        let result = try launch("capture", ["record", "-d", "virtual", "--duration", "1", "-o", file.path])
        #expect(result.status == 1)
        #expect(result.error.contains("'clip.avi'") && result.error.contains(".mp4, .mov, .mkv"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
