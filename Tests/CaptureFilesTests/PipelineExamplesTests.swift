@testable import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Every example in `pipelines/`: its compiled `gst-launch-1.0` line against a golden file and
/// against gst-launch-1.0 itself, and a real run on the virtual cameras. Plus the session-building
/// errors a file can only hit once devices are involved.
///
/// Serialized: each run is judged against the seconds its file asks for, and stream-srt's run and
/// its gst-launch line both listen on the file's fixed port 9710. Set `CAPTUREKIT_UPDATE_GOLDENS=1` to rewrite the goldens from the current output.
@Suite("Pipeline examples", .serialized)
struct PipelineExamplesTests {
    /// The package root, three levels above this file.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let pipelinesDirectory = packageRoot.appendingPathComponent("pipelines")
    static let goldenDirectory = packageRoot.appendingPathComponent("Tests/CaptureFilesTests/Golden")

    /// The example names (file names without `.yaml`), sorted.
    static let examples: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: pipelinesDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(".yaml".count)) }.sorted()
    }()

    static func load(_ name: String) throws -> PipelineFile {
        try PipelineFile.load(contentsOf: pipelinesDirectory.appendingPathComponent("\(name).yaml").path)
    }

    // MARK: - The examples directory

    @Test("pipelines/ holds at least four examples, each starting with a comment saying what it does")
    func examplesAreDocumented() throws {
        #expect(Self.examples.count >= 4, "\(Self.examples)")
        for name in Self.examples {
            let text = try String(contentsOf: Self.pipelinesDirectory.appendingPathComponent("\(name).yaml"), encoding: .utf8)
            let first = text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
            #expect(first.hasPrefix("# ") && first.count > 10, "\(name).yaml should start with a comment line")
        }
    }

    // MARK: - Goldens and gst-launch-1.0

    /// The environment the goldens are compiled in, pinned so they pass on any machine (one
    /// with VA-API, or one without x264enc, compiles the same line under it).
    static let goldenContext = try! CaptureContext(videoEncoderName: "x264enc")

    @Test("the compiled gst-launch-1.0 line equals the golden file", arguments: examples)
    func launchLineMatchesGolden(name: String) throws {
        let line = try Self.load(name).makeSession(context: Self.goldenContext).session.pipelineDescription
        let golden = Self.goldenDirectory.appendingPathComponent("\(name).launch.txt")
        if ProcessInfo.processInfo.environment["CAPTUREKIT_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try (line + "\n").write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(line == expected.trimmingCharacters(in: .newlines))
    }

    @Test("gst-launch-1.0 runs the compiled line to the end with bounded sources", arguments: examples)
    func gstLaunchAcceptsLaunchLine(name: String) throws {
        let line = try Self.load(name).makeSession(context: Self.goldenContext).session.pipelineDescription
        // The virtual camera's source is live and endless: bound it so the pipeline ends with EOS.
        var bounded = line.replacing(/videotestsrc name=input\d+_src/) { "\($0.output) num-buffers=5" }
        #expect(bounded != line, "no virtual-camera source to bound in \(line)")
        // So is the virtual microphone's (5 buffers of 10 ms).
        bounded = bounded.replacing(/audiotestsrc name=input\d+_src/) { "\($0.output) num-buffers=5" }
        // Nothing pulls an appsink's samples under gst-launch-1.0 (CaptureKit's callbacks do), so a
        // bounded appsink that does not drop would block its branch once full: let it drop.
        bounded = bounded.replacing(/appsink name=output\d+_sink(?![^!]* drop=)/) { "\($0.output) drop=true" }
        let (status, output) = try Self.shell("timeout 10 gst-launch-1.0 -q \(bounded)")
        #expect(status == 0, "gst-launch-1.0 exited \(status): \(output)\n\(bounded)")
    }

    /// The fenced blocks of `language` in a Markdown file that contain `marker`.
    static func fencedBlocks(in path: String, language: String, containing marker: String) throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if let lines = current, line == "```" {
                let block = lines.joined(separator: "\n")
                if block.contains(marker) { blocks.append(block) }
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("the README's and the DocC article's audio example is pipelines/record-audio.yaml, and the article's error is what it says")
    func documentedAudioExample() throws {
        let example = try Self.load("record-audio").makeSession(context: CaptureContext()).session.pipelineDescription
        let article = "Sources/CaptureKit/CaptureKit.docc/RunningPipelineFiles.md"
        let snippets = try Self.fencedBlocks(in: "README.md", language: "yaml", containing: "virtual-mic")
            + Self.fencedBlocks(in: article, language: "yaml", containing: "virtual-mic")
        #expect(snippets.count == 2, "\(snippets)")
        for snippet in snippets {
            #expect(try PipelineFile.parse(snippet, fileName: "snippet.yaml").makeSession(context: CaptureContext()).session.pipelineDescription == example)
        }
        let articleSnippet = try #require(snippets.last)
        let wrong = articleSnippet.replacing("connection: { input: mic }", with: "connection: { input: camera }")
        let error = try #require(throws: PipelineFileError.self) { try PipelineFile.parse(wrong, fileName: "record.yaml") }
        let shown = try Self.fencedBlocks(in: article, language: "text", containing: "record.yaml:")
        #expect(shown == [error.description])
    }

    @Test("the DocC article's movie output is pipelines/record-movie.yaml's")
    func documentedMovieExample() throws {
        let article = "Sources/CaptureKit/CaptureKit.docc/RunningPipelineFiles.md"
        let snippet = try #require(try Self.fencedBlocks(in: article, language: "yaml", containing: "- movie:").first)
        let lines = snippet.split(separator: "\n").map { line in
            String(line.split(separator: " #", maxSplits: 1).first ?? "").replacing(/\s+$/, with: "")
        }
        let example = try String(contentsOf: Self.pipelinesDirectory.appendingPathComponent("record-movie.yaml"), encoding: .utf8)
        #expect(example.contains(lines.joined(separator: "\n") + "\n"), "\(lines)")
    }

    // MARK: - Real runs

    @Test("running the example does what the file says", arguments: examples)
    func runExample(name: String) async throws {
        // Each example starts from new devices' controls (a context of its own), as in a `capture run` process.
        let file = try Self.load(name)
        let built = try file.makeSession(context: CaptureContext())
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Device controls outlive a run, as on AVFoundation; give the next example a fresh camera.
        defer { Self.resetControls(of: built.inputs.map(\.device)) }
        let clock = ContinuousClock()
        let started = clock.now
        let report = try await built.run(writingTo: directory)
        let elapsed = clock.now - started
        #expect(!built.session.isRunning)
        #expect(report.outputs.map(\.name) == file.outputs.map(\.name))
        #expect(elapsed < .seconds(4), "\(name) took \(elapsed)")
        for path in report.filesWritten {
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
            #expect(path.hasPrefix(directory.path), "\(path) is outside \(directory.path)")
        }

        switch name {
        case "snapshot":
            let still = try #require(report.output(named: "snapshot"))
            #expect(still.count == 1)
            #expect(still.files == [directory.appendingPathComponent("snapshot.jpg").path])
            try Self.expectJPEG(at: still.files[0], orientation: 6, width: 640, height: 480)
        case "front-selfie":
            let still = try #require(report.output(named: "selfie"))
            #expect(still.files == [directory.appendingPathComponent("selfie.jpg").path])
            try Self.expectJPEG(at: still.files[0], orientation: 7, width: 352, height: 288)
        case "orientations":
            let expected = ["landscape-right": 1, "landscape-left": 3, "upside-down": 8]
            for (output, orientation) in expected {
                let result = try #require(report.output(named: output))
                #expect(result.files == [directory.appendingPathComponent("orientation/\(output).jpg").path])
                try Self.expectJPEG(at: result.files[0], orientation: orientation, width: 352, height: 288)
            }
            let raw = try #require(report.output(named: "raw"))
            let path = try #require(raw.files.first)
            #expect(try Self.size(of: path) == 352 * 288 * 4)
        case "frames":
            let frames = try #require(report.output(named: "frames"))
            #expect(frames.kind == "videoData")
            #expect(frames.action == .count)
            #expect(frames.count == 30)
            #expect(frames.files.isEmpty)
            #expect(report.seconds >= 0.5, "30 frames at 30 fps cannot take \(report.seconds) s")
        case "dump":
            let dump = try #require(report.output(named: "dump"))
            #expect(dump.count == 5)
            #expect(dump.droppedFrames == 0)
            #expect(dump.files == (1...5).map { directory.appendingPathComponent("dump/frame-\($0).i420").path })
            for path in dump.files {
                #expect(try Self.size(of: path) == 160 * 120 * 3 / 2)
            }
        case "scan-codes":
            let codes = try #require(report.output(named: "codes"))
            #expect(codes.kind == "metadata")
            #expect(Set(codes.codes) == ["qr https://capturekit.dev/virtual-camera", "ean13 4006381333931"], "\(codes.codes)")
            #expect(codes.files == [directory.appendingPathComponent("codes.jsonl").path])
            let lines = try String(contentsOfFile: directory.appendingPathComponent("codes.jsonl").path, encoding: .utf8)
                .split(separator: "\n")
            #expect(lines.count == 2, "each code once: \(lines)")
            #expect(lines.allSatisfy { $0.contains("\"source\":\"camera\"") })
            #expect(report.description.contains("metadata 'codes': 2 codes"), "\(report.description)")
        case "timelapse":
            #expect(report.seconds >= 1.9 && report.seconds < 3, "\(report.seconds)")
            let stills = try #require(report.output(named: "timelapse"))
            #expect(stills.count == 3)
            #expect(stills.files == (1...3).map { directory.appendingPathComponent("timelapse-\($0).jpg").path })
            for path in stills.files {
                try Self.expectJPEG(at: path, orientation: 1, width: 352, height: 288)
            }
            let stats = try #require(report.output(named: "brightness"))
            #expect(stats.action == .stats)
            #expect(stats.count >= 20, "\(stats.count) frames in 2 s")
            #expect(stats.meanLuma.count == stats.count)
            for luma in stats.meanLuma {
                #expect(luma > 40 && luma < 220, "mean luma \(luma)")
            }
        case "night-exposure":
            let still = try #require(report.output(named: "night"))
            try Self.expectJPEG(at: still.files[0], orientation: 1, width: 352, height: 288)
            let tags = try Self.exiftool(["-n", "-s", "-ExposureTime", "-ISO", "-DigitalZoomRatio", "-WhiteBalance", still.files[0]])
            #expect(tags["ExposureTime"]?.hasPrefix("0.0333") == true && tags["ISO"] == "400", "\(tags)")
            #expect(tags["DigitalZoomRatio"] == "2" && tags["WhiteBalance"] == "1", "\(tags)")
            let device = try #require(built.inputs.first?.device)
            #expect(device.exposureMode == .custom && device.focusMode == .locked && device.lensPosition == 0.2)
            #expect(device.whiteBalanceMode == .locked)
        case "record-audio":
            #expect(report.seconds >= 1.9 && report.seconds < 3, "\(report.seconds)")
            let frames = try #require(report.output(named: "frames"))
            #expect(frames.kind == "videoData" && frames.count >= 30, "\(frames.count) frames in 2 s")
            let sound = try #require(report.output(named: "sound"))
            let path = directory.appendingPathComponent("sound.wav").path
            #expect(sound.kind == "audioData")
            #expect(sound.files == [path])
            #expect(sound.audioFormat == AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le))
            #expect(sound.count >= 180, "\(sound.count) buffers of 10 ms in 2 s")
            #expect(try Self.size(of: path) == 44 + sound.audioFrames * 4, "the header's 44 bytes and every frame")
            #expect(report.description.contains("audioData 'sound': \(sound.count) sample buffers ("), "\(report.description)")
            try Self.expectWAV(at: path, codec: "pcm_s16le", sampleRate: 48000, channels: 2, seconds: 2)
            try Self.expectVirtualMicrophoneTone(inWAVAt: path)
        case "record-movie":
            let clip = try #require(report.output(named: "clip"))
            #expect(clip.kind == "movie" && clip.count == 1)
            #expect(clip.files == [directory.appendingPathComponent("clip.mp4").path])
            #expect(clip.droppedFrames == 0)
            let seconds = try #require(clip.recordedSeconds)
            #expect(seconds > 1.5 && seconds <= report.seconds + 0.1, "\(seconds) s recorded in a \(report.seconds) s run")
            #expect(report.description.contains("movie 'clip': \(String(format: "%.2f", seconds)) s recorded, 0 dropped"),
                    "\(report.description)")
            try Self.expectMovie(at: clip.files[0], width: 640, height: 480, seconds: seconds, audioCodec: "aac")
            let poster = try #require(report.output(named: "poster"))
            try Self.expectJPEG(at: poster.files[0], orientation: 1, width: 640, height: 480)
        case "record-segments":
            let door = try #require(report.output(named: "door"))
            #expect(door.kind == "movie" && door.files.count >= 3, "\(door.files)")
            #expect(door.files.allSatisfy { $0.hasPrefix(directory.appendingPathComponent("door").path + "/") }, "\(door.files)")
            // 1 s segments to the frame, one after another on the recording's clock, each with its sound.
            for (index, path) in door.files.enumerated() {
                let video = try Self.ffprobe(path, stream: "v:0", entries: "stream=codec_name,width,nb_read_frames,start_time")
                #expect(video["codec_name"] == "h264" && video["width"] == "640", "\(video)")
                if index < door.files.count - 1 { #expect(video["nb_read_frames"] == "30", "\(path): \(video)") }
                #expect(abs((video["start_time"].flatMap(Double.init) ?? -1) - Double(index)) < 0.002, "\(path): \(video)")
                let audio = try Self.ffprobe(path, stream: "a:0", entries: "stream=codec_name")
                #expect(audio["codec_name"] == "aac", "\(audio)")
            }
            let index = try JSONDecoder().decode(SegmentIndex.self, from: Data(contentsOf: directory.appendingPathComponent("door/index.json")))
            #expect(index.segments.map { directory.appendingPathComponent("door/" + $0.file).path } == door.files)
            // The scene's codes are in view all along: one event, from the first frames, marked
            // in the index with where they are; no clip (clips: false).
            #expect(index.events.count == 1 && index.events.first?.kinds == ["code"], "\(index.events)")
            #expect(index.events.first.map { $0.start < 1 && $0.bounds?.count == 4 } == true, "\(index.events)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("door/clips").path))
        case "stream-srt":
            let live = try #require(report.output(named: "live"))
            let units = try #require(report.output(named: "units"))
            #expect(live.kind == "stream" && live.count >= 60 && live.droppedFrames == 0, "\(live.count) frames sent in 3 s")
            #expect(units.kind == "videoData" && units.count >= 60, "\(units.count) access units in 3 s")
            #expect(report.description.contains("stream 'live': \(live.count) frames sent, 0 dropped"), "\(report.description)")
            let line = built.session.pipelineDescription
            #expect(line.components(separatedBy: "x264enc").count == 2, "one encode for both outputs: \(line)")
        case "preview-portrait":
            let view = try #require(report.output(named: "view"))
            #expect(view.kind == "preview" && view.count >= 30, "\(view.count) frames shown in 2 s")
            #expect(report.description.contains("preview 'view': \(view.count) frames shown"), "\(report.description)")
            let line = built.session.pipelineDescription
            #expect(line.contains("videoflip name=output0_flip video-direction=90r"), "turned for portrait: \(line)")
            #expect(line.contains("videocrop name=output0_crop left=60 right=60 top=0 bottom=0"), "480x640 as shown, cropped to 9:16: \(line)")
        default:
            Issue.record("pipelines/\(name).yaml has no expectations in runExample; add a case")
        }
        #expect(report.description.contains("ran "), "\(report.description)")
    }

    @Test("the report's description lists every output and file")
    func reportDescription() async throws {
        let built = try Self.load("timelapse").makeSession(context: CaptureContext())
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await built.run(writingTo: directory)
        let text = report.description
        #expect(text.contains("still 'timelapse': 3 stills"), "\(text)")
        #expect(text.contains("videoData 'brightness' (stats):"), "\(text)")
        #expect(text.contains("mean luma"), "\(text)")
        #expect(text.contains(directory.appendingPathComponent("timelapse-2.jpg").path), "\(text)")
        #expect(text.hasSuffix("3 files written"), "\(text)")
    }

    // MARK: - Errors located in the file

    @Test("a device that does not exist is reported at its value")
    func missingDevice() throws {
        let yaml = """
            version: 1
            inputs:
              - name: usb
                device: "No Such Camera"
            outputs:
              - still:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "missing.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == PipelineFile.SourceLocation(file: "missing.yaml", line: 4, column: 13))
        guard case .capture(let captureError) = error.kind, captureError.code == .deviceNotFound else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(captureError.value == "No Such Camera")
        #expect(captureError.validValues.contains { $0.hasSuffix("virtual:back") })
        #expect(error.description.hasPrefix("missing.yaml:4:13: no device 'No Such Camera'"), "\(error)")
    }

    @Test("a device index beyond the devices is reported at its value")
    func missingDeviceIndex() throws {
        let yaml = """
            version: 1
            inputs:
              - device: 99
            outputs:
              - videoData:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "index.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == PipelineFile.SourceLocation(file: "index.yaml", line: 3, column: 13))
        #expect(error.kind == .capture(.deviceNotFound("99", available: CaptureDevice.devices().enumerated().map {
            "\($0.offset): \($0.element.uniqueID)"
        })))
    }

    @Test("a format the device lacks is reported at its value, listing the formats it has")
    func missingFormat() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
                format: 123x45
            outputs:
              - still:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "format.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == PipelineFile.SourceLocation(file: "format.yaml", line: 4, column: 13))
        guard case .capture(let captureError) = error.kind, captureError.code == .unsupportedFormat else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(captureError.value == "123x45")
        #expect(captureError.validValues.contains { $0.hasPrefix("640x480 bgra") }, "\(captureError.validValues)")
        #expect(error.description.hasPrefix("format.yaml:4:13: format '123x45' is not offered; available: 352x288"), "\(error)")
    }

    @Test("a frame rate the format does not offer is reported at the format")
    func unsupportedFrameRate() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
                format: 640x480@120
            outputs:
              - still:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "rate.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == PipelineFile.SourceLocation(file: "rate.yaml", line: 4, column: 13))
        guard case .capture(let captureError) = error.kind, captureError.code == .unsupportedFormat else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(captureError.value == "640x480@120")
    }

    @Test("a frame rate within the format is selected and compiled into the caps")
    func selectedFrameRate() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
                format: 640x480@15
            outputs:
              - still:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "rate.yaml")
        let built = try file.makeSession(context: CaptureContext())
        #expect(built.plannedFrameRate(ofInputAt: 0) == 15)
        #expect(built.session.pipelineDescription.contains("width=640,height=480,framerate=15/1"), "\(built.session.pipelineDescription)")
    }

    @Test("an input format with a preset other than inputPriority is a conflict at the format")
    func formatWithPreset() throws {
        let yaml = """
            version: 1
            preset: vga640x480
            inputs:
              - device: virtual
                format: 352x288
            outputs:
              - still:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "conflict.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == PipelineFile.SourceLocation(file: "conflict.yaml", line: 5, column: 13))
        guard case .conflictingKeys("format", with: "preset", _) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @Test("two inputs naming the same device are reported at the second device")
    func sameDeviceTwice() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual
              - device: virtual
            outputs:
              - still:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "twice.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == PipelineFile.SourceLocation(file: "twice.yaml", line: 4, column: 13))
        #expect(error.kind == .capture(.inputAlreadyAdded(device: "virtual:back")))
    }

    // MARK: - The session is the file, one to one

    @Test("inputs, outputs, settings and connections map one to one onto the session")
    func oneToOne() throws {
        let yaml = """
            version: 1
            inputs:
              - name: back
                device: virtual
                format: 352x288
              - name: front
                device: virtual-front
                format: 640x480@30
            outputs:
              - still:
                  name: photo
                  quality: 50
                  connection: { input: front, orientation: portraitUpsideDown }
              - videoData:
                  name: frames
                  pixelFormat: nv12
                  size: 176x144
                  discardLate: false
                  connection: { input: back, mirrored: true }
            run:
              frames: 1
            """
        let built = try PipelineFile.parse(yaml, fileName: "map.yaml").makeSession(context: CaptureContext())
        #expect(built.session.sessionPreset == .inputPriority)
        #expect(built.inputs.map(\.device.uniqueID) == ["virtual:back", "virtual:front"])
        #expect(built.input(named: "front")?.device.activeFormat.width == 640)
        #expect(built.input(named: "back")?.device.activeFormat.height == 288)
        let still = try #require(built.output(named: "photo") as? StillImageOutput)
        #expect(still.settings == .jpeg(quality: 0.5))
        let connection = try #require(still.connections.first)
        #expect(connection.inputPorts.first?.device.uniqueID == "virtual:front")
        #expect(connection.videoOrientation == .portraitUpsideDown)
        #expect(!connection.isVideoMirrored, "a front camera's stills are not mirrored unless the file says so, as in AVFoundation")
        let data = try #require(built.output(named: "frames") as? VideoDataOutput)
        #expect(data.settings == .init(pixelFormat: .nv12, width: 176, height: 144))
        #expect(!data.alwaysDiscardsLateVideoFrames)
        #expect(data.connections.first?.inputPorts.first?.device.uniqueID == "virtual:back")
        #expect(data.connections.first?.isVideoMirrored == true)
        #expect(built.session.connections.count == 2)
        let line = built.session.pipelineDescription
        #expect(line.contains("input0_caps caps=video/x-raw,format=BGRA,width=352,height=288"), "\(line)")
        #expect(line.contains("input1_caps caps=video/x-raw,format=BGRA,width=640,height=480,framerate=30/1"), "\(line)")
        #expect(line.contains("tee name=input1_tee allow-not-linked=true ! queue name=output0_queue"), "\(line)")
        #expect(line.contains("tee name=input0_tee allow-not-linked=true ! queue name=output1_queue"), "\(line)")
    }

    @Test("a dump path without {n} appends every frame to one file")
    func dumpAppends() async throws {
        let yaml = """
            version: 1
            preset: cif352x288
            inputs:
              - device: virtual
            outputs:
              - videoData: { name: all, pixelFormat: gray8, size: 64x48, discardLate: false, action: dump, path: all.gray }
            run:
              frames: 3
            """
        let built = try PipelineFile.parse(yaml, fileName: "append.yaml").makeSession(context: CaptureContext())
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await built.run(writingTo: directory)
        let path = directory.appendingPathComponent("all.gray").path
        #expect(report.filesWritten == [path])
        #expect(report.output(named: "all")?.count == 3)
        #expect(try Self.size(of: path) == 3 * 64 * 48)
    }

    // MARK: - Runs that cannot finish

    @Test("a run that cannot reach its frames times out with what it was waiting for")
    func timesOut() async throws {
        let yaml = """
            version: 1
            preset: cif352x288
            inputs:
              - device: virtual
            outputs:
              - videoData: { name: slow, pixelFormat: gray8, size: 64x48 }
            run:
              frames: 100000
            """
        let built = try PipelineFile.parse(yaml, fileName: "slow.yaml").makeSession(context: CaptureContext())
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: PipelineRunError.self) {
            try await built.run(writingTo: directory, timeout: .milliseconds(500))
        }
        #expect(clock.now - started < .seconds(3))
        #expect(!built.session.isRunning)
        guard case .timedOut(let limit, let waiting)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(limit == .milliseconds(500))
        #expect(waiting.count == 1)
        #expect(waiting.first?.hasPrefix("videoData output 'slow': ") == true, "\(waiting)")
        #expect(waiting.first?.hasSuffix(" of 100000 frames") == true, "\(waiting)")
        let message = try #require(error).description
        #expect(message.hasPrefix("run timed out after 0.50 s waiting for videoData output 'slow': "), "\(message)")
    }

    @Test("a still path that cannot be written fails the run, naming the path")
    func unwritablePath() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A regular file where the still's directory should be.
        try Data("x".utf8).write(to: directory.appendingPathComponent("blocked"))
        let yaml = """
            version: 1
            preset: cif352x288
            inputs:
              - device: virtual
            outputs:
              - still: { path: blocked/still.jpg }
            run:
              frames: 1
            """
        let built = try PipelineFile.parse(yaml, fileName: "blocked.yaml").makeSession(context: CaptureContext())
        let error = await #expect(throws: PipelineRunError.self) {
            try await built.run(writingTo: directory)
        }
        #expect(!built.session.isRunning)
        guard case .writeFailed(let path, _)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("blocked"), "\(path)")
    }

    // MARK: - Helpers

    /// Checks a WAV file as ffprobe reads it: its codec, rate, channels, and a duration within
    /// 10% of `seconds`.
    static func expectWAV(at path: String, codec: String, sampleRate: Int, channels: Int, seconds: Double,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fields = try ffprobe(path, stream: "a:0", entries: "stream=codec_name,sample_rate,channels,duration", sourceLocation: sourceLocation)
        #expect(fields["codec_name"] == codec, "\(fields)", sourceLocation: sourceLocation)
        #expect(fields["sample_rate"] == String(sampleRate), "\(fields)", sourceLocation: sourceLocation)
        #expect(fields["channels"] == String(channels), "\(fields)", sourceLocation: sourceLocation)
        let duration = try #require(fields["duration"].flatMap(Double.init), "\(fields)", sourceLocation: sourceLocation)
        #expect(abs(duration - seconds) <= seconds * 0.1, "duration \(duration) s for a \(seconds) s run", sourceLocation: sourceLocation)
    }

    /// What ffprobe reads of `path`'s `stream` (`v:0`, `a:0`): the `entries` asked for
    /// (`stream=codec_name,width`), frames counted when `nb_read_frames` is among them.
    static func ffprobe(_ path: String, stream: String, entries: String,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: String] {
        let counting = entries.contains("nb_read_frames") ? ["-count_frames"] : []
        let (status, output) = try run("/usr/bin/ffprobe", ["-v", "error"] + counting + [
            "-select_streams", stream, "-show_entries", entries, "-of", "default=noprint_wrappers=1", path,
        ])
        #expect(status == 0, "ffprobe \(path): \(output)", sourceLocation: sourceLocation)
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        return fields
    }

    /// How a movie's video frames are spaced, as ffprobe reads their times: the shortest, median
    /// and longest interval in ms, and how many exceed 1.5 frames at 30 fps (what a failure says,
    /// telling a slow source from frames left out).
    static func frameIntervals(_ path: String) throws -> String {
        let (_, output) = try run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time",
                                                      "-of", "csv=p=0", path])
        let times = output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }.sorted()
        guard let first = gaps.first, let last = gaps.last else { return "\(times.count) frame times" }
        return String(format: "intervals %.1f / %.1f / %.1f ms (min / median / max), %d over 50 ms", first, gaps[gaps.count / 2], last,
                      gaps.filter { $0 > 50 }.count)
    }

    /// Checks a movie as ffprobe reads it: H.264 at `width`x`height` holding the frames of the
    /// `seconds` recorded at 30 fps (within one), with an audio track of `audioCodec`.
    static func expectMovie(at path: String, width: Int, height: Int, seconds: Double, audioCodec: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let video = try ffprobe(path, stream: "v:0", entries: "stream=codec_name,width,height,nb_read_frames,duration",
                                sourceLocation: sourceLocation)
        #expect(video["codec_name"] == "h264", "\(video)", sourceLocation: sourceLocation)
        #expect(video["width"] == String(width) && video["height"] == String(height), "\(video)", sourceLocation: sourceLocation)
        let frames = try #require(video["nb_read_frames"].flatMap { Int($0) }, "\(video)", sourceLocation: sourceLocation)
        if abs(Double(frames) - seconds * 30) > 1 {
            Issue.record("\(frames) frames for \(seconds) s recorded; \(try frameIntervals(path))", sourceLocation: sourceLocation)
        }
        let duration = try #require(video["duration"].flatMap(Double.init), "\(video)", sourceLocation: sourceLocation)
        #expect(abs(duration - seconds) <= 1.0 / 30 + 1e-3, "video track of \(duration) s for \(seconds) s recorded",
                sourceLocation: sourceLocation)
        let audio = try ffprobe(path, stream: "a:0", entries: "stream=codec_name", sourceLocation: sourceLocation)
        #expect(audio["codec_name"] == audioCodec, "\(audio)", sourceLocation: sourceLocation)
    }

    /// The interleaved samples of a 16-bit PCM WAV file (its `data` chunk), with its rate and channels.
    static func wavSamples(at path: String) throws -> (samples: [Int16], sampleRate: Int, channels: Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        func u32(_ offset: Int) -> Int { Int(data[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }) }
        func u16(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 }
        #expect(data.prefix(4) == Data("RIFF".utf8) && data[8..<12] == Data("WAVE".utf8))
        #expect(u32(4) == data.count - 8, "the RIFF size is the file's length less 8")
        var offset = 12
        var format: (rate: Int, channels: Int, bits: Int)?
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self), size = u32(offset + 4)
            if id == "fmt " { format = (u32(offset + 12), u16(offset + 10), u16(offset + 22)) }
            if id == "data" {
                let format = try #require(format)
                #expect(format.bits == 16 && offset + 8 + size == data.count, "\(format), data \(size) of \(data.count)")
                let samples = stride(from: offset + 8, to: offset + 8 + size - 1, by: 2).map { Int16(bitPattern: UInt16(u16($0))) }
                return (samples, format.rate, format.channels)
            }
            offset += 8 + size + size % 2
        }
        Issue.record("\(path) has no data chunk")
        return ([], 0, 0)
    }

    /// The power of `frequency` in `samples` at `rate` (Goertzel).
    static func power(of frequency: Double, in samples: ArraySlice<Double>, rate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(rate))
        var (previous, beforePrevious) = (0.0, 0.0)
        for sample in samples {
            (previous, beforePrevious) = (sample + coefficient * previous - beforePrevious, previous)
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }

    /// Checks that a 16-bit WAV file of the virtual microphone holds its signal: a quarter of
    /// full scale on every channel alike, the first second's dominant frequency 440 Hz and the
    /// second's 494 Hz (among the eight of the scale), as `VirtualMicrophoneSignal` says.
    static func expectVirtualMicrophoneTone(inWAVAt path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (samples, rate, channels) = try wavSamples(at: path)
        let frames = samples.count / max(channels, 1)
        try #require(frames >= rate * 3 / 2, "\(frames) frames at \(rate) Hz", sourceLocation: sourceLocation)
        for channel in 1..<channels {
            #expect(stride(from: 0, to: frames, by: 97).allSatisfy { samples[$0 * channels] == samples[$0 * channels + channel] },
                    "channel \(channel) differs from channel 0", sourceLocation: sourceLocation)
        }
        let first = (0..<frames).map { Double(samples[$0 * channels]) / 32767 }
        let peak = first.map(abs).max() ?? 0
        #expect(abs(peak - VirtualMicrophoneSignal.amplitude) < 0.01, "peak \(peak)", sourceLocation: sourceLocation)
        // The run's audio starts within a few buffers of running time 0, so the file's first
        // second is (mostly) second 0 of the signal and its third quarter-second second 1.
        for (window, second) in [(0..<rate, 0), (rate * 5 / 4..<rate * 7 / 4, 1)] where window.upperBound <= frames {
            let powers = VirtualMicrophoneSignal.frequencies.map { power(of: Double($0), in: first[window], rate: rate) }
            let dominant = VirtualMicrophoneSignal.frequencies[powers.firstIndex(of: powers.max()!)!]
            #expect(dominant == VirtualMicrophoneSignal.frequency(second: Int64(second)),
                    "samples \(window) are dominated by \(dominant) Hz", sourceLocation: sourceLocation)
        }
    }

    /// Checks a JPEG's magic number, and its EXIF Orientation and size as exiftool reads them.
    /// Puts a device's controls back to their defaults (auto modes, no zoom, torch off).
    static func resetControls(of devices: [CaptureDevice]) {
        for device in devices {
            guard (try? device.lockForConfiguration()) != nil else { continue }
            try? device.setExposureMode(.continuousAutoExposure)
            try? device.setFocusMode(.continuousAutoFocus)
            try? device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
            try? device.setVideoZoomFactor(1)
            if device.hasTorch { try? device.setTorchMode(.off) }
            device.unlockForConfiguration()
        }
    }

    static func expectJPEG(at path: String, orientation: Int, width: Int, height: Int,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.prefix(2) == Data([0xFF, 0xD8]), "\(path) is not a JPEG", sourceLocation: sourceLocation)
        let tags = try exiftool(["-n", "-s", "-Orientation", "-ImageWidth", "-ImageHeight", path])
        #expect(tags["Orientation"] == String(orientation), "\(path): \(tags)", sourceLocation: sourceLocation)
        #expect(tags["ImageWidth"] == String(width), "\(path): \(tags)", sourceLocation: sourceLocation)
        #expect(tags["ImageHeight"] == String(height), "\(path): \(tags)", sourceLocation: sourceLocation)
    }

    /// exiftool's `-s` output as tag name → value.
    static func exiftool(_ arguments: [String]) throws -> [String: String] {
        let (_, output) = try run("/usr/bin/exiftool", arguments)
        var tags: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            tags[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return tags
    }

    static func size(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }

    static func shell(_ command: String) throws -> (Int32, String) {
        try run("/bin/sh", ["-c", command])
    }

    /// Runs a program; returns its exit status and its standard output and error together.
    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("capturefiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
