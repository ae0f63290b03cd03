import Foundation
import Testing

/// `capture record` in segments: files judged by ffprobe, the folder's index.json, kill -9 in
/// the middle of a segment, a restart into the same folder, a lost index, patterns, and the
/// usage errors.
@Suite("capture record in segments", .serialized)
struct SegmentedRecordCommandTests {
    /// The folder's index.json, as data.
    struct Index: Decodable {
        struct Entry: Decodable {
            var file: String
            var start: String
            var recording: Int
            var startTime: Double
            var duration: Double
            var frames: Int
            var bytes: Int
            var open: Bool
        }

        var segments: [Entry]

        init(_ folder: URL) throws {
            self = try JSONDecoder().decode(Index.self, from: Data(contentsOf: folder.appendingPathComponent("index.json")))
        }
    }

    /// The frames, the first video time, and the creation time ffprobe reads in `file`.
    static func probe(_ file: URL) throws -> (frames: Int, start: Double, created: String?, audio: Bool) {
        let probe = try Probe(file)
        let video = try #require(probe.stream("video"), "\(file.lastPathComponent): \(probe.fields)")
        return (Int(probe.field(video, "nb_read_frames") ?? "") ?? 0, Double(probe.field(video, "start_time") ?? "") ?? -1,
                probe.fields["format.tags.creation_time"], probe.stream("audio") != nil)
    }

    @Test("-o DIR/ --segment 1: each closed segment 30 frames, times running on from file to file, paths printed, creation times and index.json")
    func segments() throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["record", "-d", "virtual", "--audio", "virtual", "--preset", "vga640x480",
                                            "--segment", "1", "--duration", "3.5", "-o", "door/"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let printed = result.output.split(separator: "\n").map { URL(fileURLWithPath: String($0)) }
        #expect(printed.count == 4, "\(result.output)")
        let folder = directory.appendingPathComponent("door")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mp4") }.sorted()
        #expect(files == printed.map(\.lastPathComponent), "printed \(printed), found \(files)")
        var expectedStart = 0.0
        for (index, file) in files.enumerated() {
            let (frames, start, created, audio) = try Self.probe(folder.appendingPathComponent(file))
            if index < files.count - 1 { #expect(frames == 30, "\(file): \(frames) frames") }
            #expect(abs(start - expectedStart) < 0.002, "\(file) starts at \(start), expected \(expectedStart)")
            expectedStart += Double(frames) / 30
            #expect(audio, "\(file) has its audio")
            // The creation time is the name's, to the second.
            let name = file.replacingOccurrences(of: ".mp4", with: "")
            let nameSecond = String(name.prefix(19)).replacingOccurrences(of: "T", with: " ")
            let parts = nameSecond.split(separator: " ")
            let expected = "\(parts[0])T\(parts[1].replacingOccurrences(of: "-", with: ":"))"
            #expect(created?.hasPrefix(expected) == true, "\(file): creation_time \(created ?? "none")")
        }
        let index = try Index(folder)
        #expect(index.segments.map(\.file) == files)
        #expect(index.segments.allSatisfy { !$0.open && $0.recording == 1 })
        #expect(index.segments.dropLast().allSatisfy { $0.frames == 30 && abs($0.duration - 1) < 0.001 })
    }

    @Test("kill -9 in a segment: closed segments whole, the open one playable to its last fragment; a restart continues the folder and its index",
          arguments: ["mp4", "mkv"])
    func killedAndRestarted(fileType: String) throws {
        let directory = try scratchDirectory()
        let folder = directory.appendingPathComponent("bench")
        // A folder names MP4 segments by the time of their first frame; MKV ones by a pattern.
        let output = fileType == "mp4" ? folder.path + "/" : folder.path + "/%H-%M-%S.mkv"
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("capture")
        process.arguments = ["record", "-d", "virtual", "--audio", "virtual", "--preset", "vga640x480", "--segment", "2", "--fragment", "0.5",
                             "-o", output]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first segment's path is printed when it closes: then 1.2 s into the second.
        let first = out.fileHandleForReading.availableLine(within: 20)
        #expect(first != nil, "no segment closed")
        Thread.sleep(forTimeInterval: 1.2)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("." + fileType) }.sorted()
        #expect(files.count == 2, "\(files)")
        let closed = try Self.probe(folder.appendingPathComponent(files[0]))
        #expect(closed.frames == 60 && closed.audio, "\(closed)")
        let open = try Self.probe(folder.appendingPathComponent(files[1]))
        // At least 1.2 s into it (the first one's path is printed once the second's first
        // fragment is written), with 0.5 s fragments: at least 0.7 s of it survives, less than
        // a whole segment, and it follows the first.
        #expect(open.frames >= 21 && open.frames < 60 && abs(open.start - 2) < 0.002, "\(open)")
        let decoded = try runProcess(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-v", "error", "-i", folder.appendingPathComponent(files[1]).path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.error.isEmpty, "ffmpeg decodes the open segment: \(decoded.error)")
        let killed = try Index(folder)
        #expect(killed.segments.map(\.file) == files && killed.segments.map(\.open) == [false, true], "\(killed.segments.map(\.file))")

        // A restart continues: the old segments stay listed, the new ones are recording 2, sorted after.
        let again = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--segment", "1", "--duration", "1.5",
                                           "-o", output])
        #expect(again.status == 0, "\(again.error)")
        let index = try Index(folder)
        #expect(index.segments.count == 4, "\(index.segments.map(\.file))")
        #expect(index.segments.prefix(2).map(\.recording) == [1, 1] && index.segments.dropFirst(2).map(\.recording) == [2, 2])
        #expect(index.segments.map(\.file) == index.segments.map(\.file).sorted())
        #expect(index.segments[2].startTime < 0.002, "a new recording starts its own clock: \(index.segments[2].startTime)")

        // A damaged index is rebuilt from the files: the same segments, recordings told apart by their clocks.
        try Data("{ not json".utf8).write(to: folder.appendingPathComponent("index.json"))
        let third = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--segment", "1", "--duration", "1",
                                           "-o", output])
        #expect(third.status == 0, "\(third.error)")
        let rebuilt = try Index(folder)
        #expect(rebuilt.segments.prefix(4).map(\.file) == index.segments.map(\.file))
        #expect(rebuilt.segments.prefix(4).map(\.recording) == [1, 1, 2, 2] && rebuilt.segments.last?.recording == 3,
                "\(rebuilt.segments.map(\.recording))")
        #expect(rebuilt.segments[0].frames == 60 && rebuilt.segments[1].frames == open.frames)
    }

    @Test("a strftime pattern: folders made as named, in UTC, the index in the pattern's fixed folder")
    func pattern() throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--segment", "1", "--duration", "1.5",
                                            "-o", "cams/%Y/%m-%d/front-%H%M%S.mov"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let paths = result.output.split(separator: "\n").map(String.init)
        #expect(paths.count == 2, "\(result.output)")
        let today = Date()
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: today).year!
        for path in paths {
            #expect(path.contains("/cams/\(year)/") && path.hasSuffix(".mov") && path.contains("/front-"), "\(path)")
            let probe = try Probe(URL(fileURLWithPath: path))
            #expect(probe.fields["format.format_name"]?.contains("mov") == true)
        }
        let index = try Index(directory.appendingPathComponent("cams"))
        #expect(index.segments.count == 2 && index.segments[0].file.hasPrefix("\(year)/"), "\(index.segments.map(\.file))")
    }

    @Test("usage errors name the value and what is valid; a folder that takes no file is refused before the camera starts",
          arguments: [
              (["--segment", "0.5", "-o", "d/"], "--segment 0.5 is out of range: a number of seconds from 1 to 86400"),
              (["--segment", "2", "-o", "clip.mp4"], "--segment and --on need -o to be a folder (-o recordings/) or a strftime pattern"),
              (["--segment", "x", "-o", "d/"], "'x' is not a number of seconds"),
              (["--max-size", "5M", "-o", "d/"], "--max-size limits one file; segments are limited by --segment"),
              (["-o", "d/%H.avi"], "the extension 'avi' is not one of .mp4, .mov, .mkv"),
              (["--pre", "2", "-o", "d/"], "--pre applies to events: give --on with what triggers them (signal, code, face, motion)"),
              (["--on", "smoke", "-o", "d/"], "--on 'smoke' is not a trigger: give one or more of signal, code, face, motion, comma-separated"),
              (["--on", "signal", "--motion-ignore", "0,0.85,1,0.15", "-o", "d/"], "--motion-ignore applies to motion: give --on motion"),
              (["--on", "motion", "--motion-ignore", "0,0.85,1,0.5", "-o", "d/"], "--motion-ignore '0,0.85,1,0.5' is not a part of the frame"),
              (["--on", "motion", "--motion-sensitivity", "2", "-o", "d/"], "--motion-sensitivity 2 is out of range: from 0 to 1"),
              (["--on", "signal", "--clips", "-o", "d/"], "--clips writes clips beside segments: give --segment too"),
              (["--on", "signal", "--pre", "61", "-o", "d/"], "--pre 61 is out of range: from 0 to 60 seconds"),
              (["--pre", "2", "-o", "clip.mp4"], "--pre applies to segments and events: give -o a folder (-o recordings/) with --segment or --on"),
              (["--keep", "2d", "-o", "clip.mp4"], "--keep applies to segments and events"),
          ])
    func usage(arguments: [String], message: String) throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["record", "-d", "virtual", "--duration", "1"] + arguments, in: directory)
        #expect(result.status == 2 || (result.status == 1 && message.hasPrefix("the extension")), "\(result.status): \(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test("an unwritable folder is an error naming it before anything is recorded")
    func unwritable() throws {
        let directory = try scratchDirectory()
        let locked = directory.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let file = locked.appendingPathComponent("taken")
        try Data().write(to: file)
        let result = try launch("capture", ["record", "-d", "virtual", "--duration", "1", "--segment", "1", "-o", file.path + "/"])
        #expect(result.status == 1 && result.error.contains(file.path) && result.error.contains("a folder (this is a file)"), "\(result.error)")
    }
}

/// Events: `--on signal` with SIGUSR1, `--on code` with the virtual scene's codes, and clips
/// beside segments.
@Suite("capture record: events", .serialized)
struct EventRecordCommandTests {
    @Test("--on signal --events: SIGUSR1 starts an event, printed as JSON lines; its clip holds the pre-roll from a key frame and the post-roll; no segments",
          arguments: ["mp4", "mkv"])
    func signal(fileType: String) throws {
        let directory = try scratchDirectory()
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("capture")
        process.arguments = ["record", "-d", "virtual", "--preset", "vga640x480", "--on", "signal", "--pre", "1", "--post", "1",
                             "--duration", "5", "--events",
                             "-o", directory.appendingPathComponent("porch").path + (fileType == "mp4" ? "/" : "/%H-%M-%S.mkv")]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The recording has its first frames within a second or so; then the signal.
        Thread.sleep(forTimeInterval: 2.5)
        kill(process.processIdentifier, SIGUSR1)
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.count == 2 && events.map { $0["event"] as? String } == ["start", "end"], "\(lines)")
        let end = try #require(events.last)
        #expect(end["kinds"] as? [String] == ["signal"], "\(end)")
        let first = try #require(end["firstTrigger"] as? Double), last = try #require(end["lastTrigger"] as? Double)
        let start = try #require(end["start"] as? Double), stop = try #require(end["end"] as? Double)
        #expect(start <= first - 1 + 0.05 && stop >= last + 1 - 0.05, "\(end)")
        let clip = URL(fileURLWithPath: try #require(end["clip"] as? String))
        #expect(clip.pathExtension == fileType)
        let (frames, firstTime, _, audio) = try SegmentedRecordCommandTests.probe(clip)
        #expect(abs(firstTime - start) < 0.002 && abs(Double(frames) / 30 - (stop - start)) <= 1.0 / 30 + 1e-6 && !audio, "\(frames) frames from \(firstTime)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("porch").path)
        #expect(Set(names) == ["clips", "index.json"], "\(names)")
    }

    @Test("--on motion --events: the virtual camera's mover entering and leaving on cue makes one event where it is; the square's band is ignored")
    func motion() throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["record", "-d", "virtual", "--preset", "hd1280x720", "--on", "motion", "--pre", "1", "--post", "1",
                                            "--motion-ignore", "0,0.85,1,0.15", "--duration", "6", "--events", "-o", "door/"], in: directory,
                                environment: ["CAPTUREKIT_VIRTUAL_MOVERS": "2.5-3.5@0.33,0.12,0.15,0.3"])
        #expect(result.status == 0, "\(result.error)")
        let events = result.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0["event"] as? String } == ["start", "end"], "\(result.output)")
        let end = try #require(events.last)
        #expect(end["kinds"] as? [String] == ["motion"], "\(end)")
        // Triggered on entering and on leaving (the recording's clock starts near the stream's).
        let first = try #require(end["firstTrigger"] as? Double), last = try #require(end["lastTrigger"] as? Double)
        #expect(last - first > 0.6 && last - first < 1.6, "triggers at \(first) and \(last)")
        let bounds = try #require(end["bounds"] as? [Double])
        #expect(bounds.count == 4 && abs(bounds[0] - 0.33) < 0.03 && abs(bounds[1] - 0.12) < 0.04
                && abs(bounds[2] - 0.15) < 0.04 && abs(bounds[3] - 0.3) < 0.06, "\(bounds)")
        let clip = URL(fileURLWithPath: try #require(end["clip"] as? String))
        let (frames, _, _, _) = try SegmentedRecordCommandTests.probe(clip)
        #expect(frames >= 60, "\(frames) frames")
    }

    @Test("--on code --segment 1 --clips: the scene's codes make one event from the start, clipped and marked, beside the segments")
    func codes() throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--on", "code", "--pre", "0", "--post", "1",
                                            "--segment", "1", "--clips", "--duration", "3", "-o", "yard/"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let folder = directory.appendingPathComponent("yard")
        let index = try SegmentedRecordCommandTests.Index(folder)
        #expect(index.segments.count >= 3, "\(index.segments.map(\.file))")
        let data = try Data(contentsOf: folder.appendingPathComponent("index.json"))
        let events = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["events"] as? [[String: Any]])
        #expect(events.count == 1 && events[0]["kinds"] as? [String] == ["code"], "\(events)")
        let clip = folder.appendingPathComponent(try #require(events[0]["clip"] as? String))
        let (frames, _, _, _) = try SegmentedRecordCommandTests.probe(clip)
        #expect(frames >= 60, "the code is in view all along: \(frames) frames")
        // Printed: each segment's path and the clip's.
        #expect(result.output.contains(clip.path) && result.output.split(separator: "\n").count == index.segments.count + 1, "\(result.output)")
    }
}

extension FileHandle {
    /// The first line written to the handle within `seconds`, or nil (read on a thread of its own).
    func availableLine(within seconds: Double) -> String? {
        let found = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var line: String?
        let reader = Thread { [self] in
            var data = Data()
            while let byte = try? read(upToCount: 1), !byte.isEmpty {
                if byte == Data([0x0A]) { break }
                data.append(byte)
            }
            line = String(decoding: data, as: UTF8.self)
            found.signal()
        }
        reader.start()
        return found.wait(timeout: .now() + seconds) == .success ? line : nil
    }
}

/// Retention: --max-disk and a full disk delete the oldest segments, never the open one, and the
/// recording goes on.
@Suite("capture record in segments: retention", .serialized)
struct SegmentRetentionCommandTests {
    /// The segment files in `folder` (recursively), with their sizes.
    static func segments(in folder: URL) -> [String: Int] {
        var found: [String: Int] = [:]
        let files = FileManager.default.enumerator(atPath: folder.path)
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".mp4") else { continue }
            found[file] = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[.size] as? Int) ?? 0
        }
        return found
    }

    @Test("--max-disk 300K: the oldest segments are deleted as new ones close, the rest fit, and the index lists what is left")
    func maxDisk() throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--bitrate", "1000", "--segment", "1",
                                            "--duration", "5.5", "--max-disk", "300K", "-o", "yard/"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let folder = directory.appendingPathComponent("yard")
        let left = Self.segments(in: folder)
        let printed = result.output.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent }
        let deleted = result.error.split(separator: "\n").filter { $0.hasPrefix("deleted ") && $0.hasSuffix(" (retention)") }
        #expect(!deleted.isEmpty && left.count + deleted.count == printed.count, "left \(left.keys.sorted()), printed \(printed), \(result.error)")
        #expect(left.values.reduce(0, +) <= 300_000, "\(left)")
        // The newest are kept.
        #expect(Set(left.keys) == Set(printed.suffix(left.count)), "\(left.keys.sorted()) of \(printed)")
        let index = try SegmentedRecordCommandTests.Index(folder)
        #expect(Set(index.segments.map(\.file)) == Set(left.keys))
    }

    @Test("a full disk deletes the oldest segments before a write fails: the recording goes on to its end, every file left plays",
          .enabled(if: RecordCommandTests.canMountTmpfs))
    func diskFull() throws {
        let directory = try scratchDirectory()
        let capture = binaries.appendingPathComponent("capture").path
        // A 200 kB tmpfs over the folder (the virtual scene takes about 55 kB a second), in a mount namespace that ends with the shell: ffprobe
        // reads the files there.
        let script = """
            mount -t tmpfs -o size=200k tmpfs '\(directory.path)' || exit 99
            '\(capture)' record -d virtual --preset vga640x480 --bitrate 1500 --segment 1 --duration 6.5 -o '\(directory.path)/'
            status=$?
            for f in '\(directory.path)'/*.mp4; do
              echo "file=$(basename "$f") frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,start_time -of csv=p=0 "$f")"
            done
            echo "index=$(tr -d ' \\n' < '\(directory.path)/index.json')"
            exit $status
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["-rm", "sh", "-c", script])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("(the disk was full)"), "\(result.error)")
        let files = result.output.split(separator: "\n").filter { $0.hasPrefix("file=") }
        #expect(files.count >= 2, "\(result.output)")
        // Each file left plays, and the last one reaches the end of the recording.
        var lastStart = 0.0
        for line in files {
            let fields = line.split(separator: " ")
            let values = fields.last?.dropFirst("frames=".count).split(separator: ",") ?? []
            #expect(values.count == 2 && (Int(values[1]) ?? 0) > 0, "\(line)")
            lastStart = max(lastStart, Double(values.first ?? "") ?? 0)
        }
        #expect(lastStart >= 5, "the recording went on to the end: last segment starts at \(lastStart) s; \(result.output)")
        let index = result.output.split(separator: "\n").first { $0.hasPrefix("index=") } ?? ""
        for line in files { #expect(index.contains(String(line.split(separator: " ")[0].dropFirst(5))), "\(index)") }
    }
}
