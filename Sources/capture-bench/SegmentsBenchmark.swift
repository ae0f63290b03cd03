@_spi(Benchmark) import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// Recording 1280x720 at 30 fps in 2 s segments (issue 27): CPU seconds per recorded second for
/// a CaptureKit session with a `SegmentedMovieFileOutput` on a live test pattern, for
/// `gst-launch-1.0 -e` running the session's own source and encoder into `splitmuxsink
/// max-size-time=2 s`, and for `ffmpeg -re … -f segment -segment_time 2`; and, for each, the
/// segments' frames: closed segments not 60 frames, and frames lost or doubled at boundaries
/// (gaps and overlaps between one file's last frame and the next one's first, by their times).
/// `segments` writes MP4 (all three), `segments-mkv` Matroska (`fileType` mkv, splitmuxsink's
/// `matroskamux`, ffmpeg's `-segment_format matroska`).
enum SegmentsBenchmark {
    static let seconds = 8.0, segment = 2.0
    static let width = 1280, height = 720

    final class Events: SegmentedMovieFileOutputDelegate {
        let finished = DispatchSemaphore(value: 0)
        func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) { finished.signal() }
    }

    /// Ours: CPU per recorded second, and the session's pipeline while recording.
    static func ours(directory: URL, fileType: String) throws -> (cpu: Double, pipeline: String) {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.testPattern(width: width, height: height, isLive: true)))
        let output = SegmentedMovieFileOutput()
        output.fileType = fileType
        try output.setSegmentDuration(CaptureTime(seconds: segment, preferredTimescale: 1000))
        try session.checked.addOutput(output)
        try session.checked.startRunning()
        defer { session.stopRunning() }
        Thread.sleep(forTimeInterval: 0.5)
        let events = Events()
        let before = RecordBenchmark.cpuSeconds()
        try output.startRecording(to: directory, delegate: events)
        let pipeline = session.pipelineDescription
        Thread.sleep(forTimeInterval: seconds)
        output.stopRecording()
        let cpu = RecordBenchmark.cpuSeconds() - before
        guard events.finished.wait(timeout: .now() + 10) == .success else { throw BenchFailure(message: "the segments did not finish") }
        return (cpu / (try frames(in: directory, fileType: fileType).recorded), pipeline)
    }

    /// The pre-roll's memory with events on (5 s): the most bytes its ring held over `seconds`
    /// of recording, against the video's bit rate (the files' bytes per second).
    static func preRoll(directory: URL) throws -> (bytes: Int, bytesPerSecond: Double) {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.testPattern(width: width, height: height, isLive: true)))
        let output = SegmentedMovieFileOutput()
        try output.setSegmentDuration(CaptureTime(seconds: segment, preferredTimescale: 1000))
        try output.setEventRecording(EventRecording(preRoll: 5, postRoll: 1, writesClips: false))
        try session.checked.addOutput(output)
        try session.checked.startRunning()
        defer { session.stopRunning() }
        let events = Events()
        try output.startRecording(to: directory, delegate: events)
        var most = 0
        for _ in 0..<Int(seconds * 10) {
            Thread.sleep(forTimeInterval: 0.1)
            most = max(most, output.preRollBytes)
        }
        output.stopRecording()
        guard events.finished.wait(timeout: .now() + 10) == .success else { throw BenchFailure(message: "the segments did not finish") }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".mp4") }
        let bytes = try files.reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent($1).path)[.size] as? Int) ?? 0) }
        return (most, Double(bytes) / (try frames(in: directory).recorded))
    }

    /// gst-launch-1.0: the session's source and encoder (its encoded stage) into splitmuxsink.
    static func gstArguments(_ pipeline: String, directory: URL, fileType: String) throws -> [String] {
        guard let tee = pipeline.range(of: " ! tee name=input0_tee"), let stageStart = pipeline.range(of: "queue name=enc"),
              let stageCaps = pipeline.range(of: "caps=video/x-h264,stream-format=avc,alignment=au", range: stageStart.upperBound..<pipeline.endIndex) else {
            throw BenchFailure(message: "no source or encoded stage in \(pipeline)")
        }
        let source = pipeline[..<tee.lowerBound], stage = pipeline[stageStart.lowerBound..<stageCaps.upperBound]
        let line = "\(source) ! \(stage) ! splitmuxsink max-size-time=\(Int(segment * 1e9)) send-keyframe-requests=true "
            + "muxer-factory=\(fileType == "mkv" ? "matroskamux" : "mp4mux") location=\(directory.path)/gst%05d.\(fileType)"
        return ["-e"] + line.split(separator: " ").map(String.init)
    }

    /// The video frames of each segment file in `directory` (sorted by name), by packets, and
    /// their first times; the seconds recorded; closed segments not `segment` long; and frames
    /// missing or doubled between files (a gap or overlap of their times, in frames).
    static func frames(in directory: URL, fileType: String = "mp4") throws -> (recorded: Double, files: Int, offLength: Int, gapFrames: Int, overlapFrames: Int) {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix("." + fileType) }.sorted()
        var offLength = 0, gaps = 0, overlaps = 0
        var recorded = 0.0
        var end: Double?
        for (index, file) in files.enumerated() {
            let (_, output) = try Processes.time("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                                                                     "stream=nb_read_packets,start_time", "-of", "csv=p=0", directory.appendingPathComponent(file).path])
            let fields = output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
            guard fields.count == 2, let count = Int(fields[1]) else { throw BenchFailure(message: "ffprobe read \(output) in \(file)") }
            // ffprobe 5.1 gives no stream start time for a Matroska file of one or two frames (a
            // recording's last segment; gst-launch's own such files alike): the first packet's.
            guard let start = try Double(fields[0]) ?? firstPacketTime(directory.appendingPathComponent(file)) else {
                throw BenchFailure(message: "ffprobe read \(output) in \(file)")
            }
            recorded += Double(count) / 30
            if index < files.count - 1, count != Int(segment * 30) { offLength += 1 }
            // Files whose times start again at 0 (splitmuxsink's) are placed after the last one.
            let placed = start < 0.5 && index > 0 ? (end ?? 0) : start
            if let end {
                let difference = Int(((placed - end) * 30).rounded())
                if difference > 0 { gaps += difference } else if difference < 0 { overlaps -= difference }
            }
            end = placed + Double(count) / 30
        }
        return (recorded, files.count, offLength, gaps, overlaps)
    }

    /// The first video packet's time in `file`.
    static func firstPacketTime(_ file: URL) throws -> Double? {
        let (_, output) = try Processes.time("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1",
                                                                 "-show_entries", "packet=pts_time", "-of", "csv=p=0", file.path])
        return Double(output.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces) ?? "")
    }

    static func run() async throws -> [String: Double] { try run(fileType: "mp4") }

    static func runMatroska() async throws -> [String: Double] { try run(fileType: "mkv") }

    /// Three rounds of the three, in `fileType`; the pre-roll's memory with MP4.
    static func run(fileType: String) throws -> [String: Double] {
        let root = try RecordBenchmark.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        var ours: [Double] = [], gst: [Double] = [], ffmpeg: [Double] = []
        var quality: [String: Double] = [:]
        for round in 0..<3 {
            let mine = root.appendingPathComponent("ours\(round)"), theirs = root.appendingPathComponent("gst\(round)")
            let ff = root.appendingPathComponent("ffmpeg\(round)")
            for folder in [mine, theirs, ff] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            let (cpu, pipeline) = try Self.ours(directory: mine, fileType: fileType)
            ours.append(cpu)
            gst.append(try RecordBenchmark.child("/usr/bin/gst-launch-1.0", try gstArguments(pipeline, directory: theirs, fileType: fileType), for: seconds) {
                try frames(in: theirs, fileType: fileType).recorded
            })
            ffmpeg.append(try RecordBenchmark.child("/usr/bin/ffmpeg", [
                "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=\(width)x\(height):rate=30", "-t", String(seconds),
                "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p",
                "-force_key_frames", "expr:gte(t,n_forced*\(Int(segment)))", "-f", "segment", "-segment_time", String(Int(segment)),
                "-reset_timestamps", "0", "-segment_format", fileType == "mkv" ? "matroska" : "mp4", "\(ff.path)/ff%05d.\(fileType)",
            ], for: nil) { try frames(in: ff, fileType: fileType).recorded })
            if round == 0 {
                for (name, folder) in [("ours", mine), ("gst", theirs), ("ffmpeg", ff)] {
                    SegmentBoundariesBenchmark.add(name, try frames(in: folder, fileType: fileType), to: &quality)
                }
            }
        }
        var figures: [String: Double] = [:]
        if fileType == "mp4" {
            let held = root.appendingPathComponent("preroll")
            try FileManager.default.createDirectory(at: held, withIntermediateDirectories: true)
            let (preRollBytes, bytesPerSecond) = try preRoll(directory: held)
            figures = ["preroll_5s_max_bytes": Double(preRollBytes), "video_bytes_per_s": bytesPerSecond,
                       "preroll_seconds_held": Double(preRollBytes) / bytesPerSecond]
        }
        figures.merge([
            "ours_cpu_per_s": Processes.median(ours), "gst_splitmuxsink_cpu_per_s": Processes.median(gst),
            "ffmpeg_segment_cpu_per_s": Processes.median(ffmpeg),
            "ratio_gst": Processes.median(ours) / Processes.median(gst), "ratio_ffmpeg": Processes.median(ours) / Processes.median(ffmpeg),
        ]) { first, _ in first }
        figures.merge(quality) { first, _ in first }
        return figures
    }
}

/// Frames lost or doubled across 1,000 boundaries of 2 s segments (issue 27). Ours is a real-time
/// recording, made beforehand with `capture record -d virtual --preset cif352x288 --segment 2
/// --duration 2002 -o DIR/` (33 minutes) and read from CAPTURE_BENCH_SEGMENTS_DIR; the peers'
/// are made here as fast as they go from a bounded test pattern of 60,030 frames:
/// `gst-launch-1.0 videotestsrc num-buffers=60030 ! x264enc ! h264parse ! splitmuxsink
/// max-size-time=2 s` and `ffmpeg -f lavfi testsrc -frames:v 60030 -f segment -segment_time 2`.
enum SegmentBoundariesBenchmark {
    static let frames = 60_030

    static func run() async throws -> [String: Double] {
        var figures: [String: Double] = [:]
        if let ours = ProcessInfo.processInfo.environment["CAPTURE_BENCH_SEGMENTS_DIR"] {
            add("ours", try SegmentsBenchmark.frames(in: URL(fileURLWithPath: ours)), to: &figures)
        }
        let root = try RecordBenchmark.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let gst = root.appendingPathComponent("gst"), ffmpeg = root.appendingPathComponent("ffmpeg")
        for folder in [gst, ffmpeg] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // gst-launch-1.0 wrote every file within a minute here but did not exit at the end of
        // the stream (splitmuxsink, GStreamer 1.22): it is given three minutes, then stopped.
        try Processes.time("/bin/sh", ["-c", "timeout 180 gst-launch-1.0 -q videotestsrc num-buffers=\(frames) ! "
            + "video/x-raw,width=352,height=288,framerate=30/1 ! x264enc speed-preset=ultrafast tune=zerolatency key-int-max=60 ! h264parse ! "
            + "splitmuxsink max-size-time=2000000000 send-keyframe-requests=true muxer-factory=mp4mux location=\(gst.path)/gst%05d.mp4; true"])
        add("gst", try SegmentsBenchmark.frames(in: gst), to: &figures)
        try Processes.time("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=352x288:rate=30", "-frames:v", String(frames),
                                               "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p",
                                               "-force_key_frames", "expr:gte(t,n_forced*2)", "-f", "segment", "-segment_time", "2",
                                               "-reset_timestamps", "0", "-segment_format", "mp4", "\(ffmpeg.path)/ff%05d.mp4"])
        add("ffmpeg", try SegmentsBenchmark.frames(in: ffmpeg), to: &figures)
        return figures
    }

    static func add(_ name: String, _ check: (recorded: Double, files: Int, offLength: Int, gapFrames: Int, overlapFrames: Int),
                    to figures: inout [String: Double]) {
        figures["\(name)_files"] = Double(check.files)
        figures["\(name)_boundaries"] = Double(max(0, check.files - 1))
        figures["\(name)_segments_not_60_frames"] = Double(check.offLength)
        figures["\(name)_frames_missing_at_boundaries"] = Double(check.gapFrames)
        figures["\(name)_frames_doubled_at_boundaries"] = Double(check.overlapFrames)
    }
}
