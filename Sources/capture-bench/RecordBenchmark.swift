@_spi(Benchmark) import CaptureKit
import Dispatch
import Foundation

/// Recording 1280x720 at 30 fps with x264 (issue 11): CPU seconds per recorded second for a
/// CaptureKit session recording a live test pattern, for `gst-launch-1.0 -e` running the
/// session's own compiled pipeline, for `ffmpeg -re -f lavfi testsrc … -c:v libx264 -preset
/// ultrafast -tune zerolatency`, and for `capture record -d virtual` (the virtual camera paints
/// each frame, so it is reported beside, not in the ratio); start → first frame in the file,
/// stop → out of the pipeline and stop → did-finish (the index written; p50/p99 over 20
/// recordings); what flushing each fragment (fsync) costs.
enum RecordBenchmark {
    static let seconds = 4.0
    static let width = 1280, height = 720

    final class Events: FileOutputRecordingDelegate {
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var error: CaptureError?
        func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) { started.signal() }
        func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection], error: Error?) {
            self.error = error as? CaptureError
            finished.signal()
        }
    }

    /// A running test-pattern session with a movie output.
    static func session() throws -> (CaptureSession, MovieFileOutput) {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.testPattern(width: width, height: height, isLive: true)))
        let movie = MovieFileOutput()
        try session.checked.addOutput(movie)
        try session.checked.startRunning()
        return (session, movie)
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("capture-bench-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Process CPU seconds (user + system) of this process, or of its reaped children.
    static func cpuSeconds(children: Bool = false) -> Double {
        var usage = rusage()
        getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The recorded seconds of a file, as ffprobe reads them.
    static func mediaSeconds(_ path: String) throws -> Double {
        let (_, output) = try Processes.time("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        guard let value = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchFailure(message: "ffprobe read no duration from \(path): \(output)")
        }
        return value
    }

    /// Ours: CPU per recorded second, the pipeline line, and the fsync cost per fragment.
    static func ours(directory: URL, round: Int) throws -> (cpu: Double, pipeline: String, fsync: (Int, Double, Double)) {
        let (session, movie) = try session()
        defer { session.stopRunning() }
        movie.movieFragmentInterval = CaptureTime(value: 1, timescale: 1)
        Thread.sleep(forTimeInterval: 0.5)
        let url = directory.appendingPathComponent("ours\(round).mp4")
        let events = Events()
        let before = cpuSeconds()
        movie.startRecording(to: url, recordingDelegate: events)
        let pipeline = session.pipelineDescription
        guard movie.isRecording, pipeline.contains("filesink") else { throw BenchFailure(message: "the recording did not start: \(pipeline)") }
        Thread.sleep(forTimeInterval: seconds)
        let fsync = movie.fragmentSyncCost ?? (0, 0, 0)
        movie.stopRecording()
        let cpu = cpuSeconds() - before
        guard events.finished.wait(timeout: .now() + 10) == .success else {
            throw BenchFailure(message: "the recording to \(url.path) did not finish within 10 s of its stop")
        }
        return (cpu / (try mediaSeconds(url.path)), pipeline, fsync)
    }

    /// A child process run for `seconds`, then SIGINT: its CPU per second of `file`.
    static func child(_ executable: String, _ arguments: [String], file: String, interrupt: Bool = true) throws -> Double {
        try child(executable, arguments, for: interrupt ? seconds : nil) { try mediaSeconds(file) }
    }

    /// A child process run for `duration` seconds, then SIGINT (or to its end when nil): its CPU
    /// per second of what it wrote (`media`, read once it ended).
    static func child(_ executable: String, _ arguments: [String], for duration: Double?, media: () throws -> Double) throws -> Double {
        let before = cpuSeconds(children: true)
        let process = try ChildProcess(executable, arguments)
        if let duration {
            Thread.sleep(forTimeInterval: duration + 0.3)
            process.interrupt()
        }
        process.wait()
        return (cpuSeconds(children: true) - before) / (try media())
    }

    /// The session's pipeline for `gst-launch-1.0 -e`, writing to `file`.
    static func gstArguments(_ pipeline: String, file: String) -> [String] {
        var words = ["-e"] + pipeline.split(separator: " ").map(String.init)
        if let location = words.firstIndex(where: { $0.hasPrefix("location=") }) { words[location] = "location=\(file)" }
        return words
    }

    /// Start → did-start and stop → closed, in milliseconds, over `count` short recordings.
    static func latencies(directory: URL, count: Int) throws -> (start: [Double], stop: [Double], finished: [Double]) {
        let (session, movie) = try session()
        defer { session.stopRunning() }
        var starts: [Double] = [], stops: [Double] = [], finishes: [Double] = []
        for index in 0..<count {
            let events = Events()
            let begin = DispatchTime.now()
            movie.startRecording(to: directory.appendingPathComponent("cycle\(index).mp4"), recordingDelegate: events)
            guard events.started.wait(timeout: .now() + 5) == .success else {
                // Its did-finish, when it came within a second, says why; else the error is nil.
                let finished = events.finished.wait(timeout: .now() + 1) == .success
                throw BenchFailure(message: "recording \(index) did not start within 5 s: "
                    + (finished ? events.error.map(String.init(describing:)) ?? "finished without an error" : "and did not finish either"))
            }
            starts.append(Double(DispatchTime.now().uptimeNanoseconds - begin.uptimeNanoseconds) / 1e6)
            Thread.sleep(forTimeInterval: 0.3)
            let end = DispatchTime.now()
            movie.stopRecording()
            stops.append(Double(DispatchTime.now().uptimeNanoseconds - end.uptimeNanoseconds) / 1e6)
            guard events.finished.wait(timeout: .now() + 5) == .success else {
                throw BenchFailure(message: "recording \(index) did not finish within 5 s of its stop")
            }
            finishes.append(Double(DispatchTime.now().uptimeNanoseconds - end.uptimeNanoseconds) / 1e6)
        }
        return (starts, stops, finishes)
    }

    static func run() async throws -> [String: Double] {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var ours: [Double] = [], gst: [Double] = [], ffmpeg: [Double] = [], command: [Double] = []
        var fsyncs: [(Int, Double, Double)] = []
        let capture = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("capture").path
        for round in 0..<3 {
            let result = try Self.ours(directory: directory, round: round)
            ours.append(result.cpu)
            fsyncs.append(result.fsync)
            let gstFile = directory.appendingPathComponent("gst\(round).mp4").path
            gst.append(try child("/usr/bin/gst-launch-1.0", gstArguments(result.pipeline, file: gstFile), file: gstFile))
            let ffmpegFile = directory.appendingPathComponent("ffmpeg\(round).mp4").path
            ffmpeg.append(try child("/usr/bin/ffmpeg", [
                "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=\(width)x\(height):rate=30", "-t", String(seconds),
                "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p", "-y", ffmpegFile,
            ], file: ffmpegFile, interrupt: false))
            if FileManager.default.isExecutableFile(atPath: capture) {
                let commandFile = directory.appendingPathComponent("command\(round).mp4").path
                // Skipped when this capture has no `record` (an older build beside the bench).
                if let cpu = try? child(capture, ["record", "-d", "virtual", "--preset", "hd1280x720", "--duration", String(Int(seconds)),
                                                  "-o", commandFile], file: commandFile, interrupt: false) {
                    command.append(cpu)
                }
            }
        }
        let (starts, stops, finishes) = try latencies(directory: directory, count: 20)
        let fragments = fsyncs.map(\.0).reduce(0, +)
        var figures: [String: Double] = [
            "ours_cpu_per_s": Processes.median(ours), "gst_cpu_per_s": Processes.median(gst), "ffmpeg_cpu_per_s": Processes.median(ffmpeg),
            "ratio_gst": Processes.median(ours) / Processes.median(gst), "ratio_ffmpeg": Processes.median(ours) / Processes.median(ffmpeg),
            "start_p50_ms": Processes.median(starts), "start_p99_ms": Processes.percentile(starts, 0.99),
            "stop_p50_ms": Processes.median(stops), "stop_p99_ms": Processes.percentile(stops, 0.99),
            "finished_p50_ms": Processes.median(finishes), "finished_p99_ms": Processes.percentile(finishes, 0.99),
            "fsync_fragments": Double(fragments),
            "fsync_mean_ms": fragments > 0 ? fsyncs.map(\.1).reduce(0, +) / Double(fragments) * 1000 : 0,
            "fsync_max_ms": (fsyncs.map(\.2).max() ?? 0) * 1000,
        ]
        if !command.isEmpty { figures["capture_record_virtual_cpu_per_s"] = Processes.median(command) }
        return figures
    }
}
