@_spi(Benchmark) import CaptureKit
import Dispatch
import Foundation

/// The preview window (issue 14) under Xvfb, 1280x720 at 30 fps: frames shown per second and
/// CPU per second of a CaptureKit session with a `.window` VideoPreview (its sink chosen at run
/// time) against `gst-launch-1.0 videotestsrc ! videoconvert ! ximagesink` (and glimagesink, the
/// sink CaptureKit chooses where GL works) counting what fpsdisplaysink rendered.
enum PreviewBenchmark {
    static let seconds = 5.0
    static let width = 1280, height = 720

    /// Ours: frames shown per second, CPU per second, and the sink chosen.
    static func ours() throws -> (fps: Double, cpu: Double, sink: String) {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.testPattern(width: width, height: height, isLive: true)))
        let preview = VideoPreview(session: session)
        try session.checked.startRunning()
        defer { session.stopRunning() }
        guard let sink = preview.sinkName else { throw BenchFailure(message: "the preview shows nothing: \(preview.failure.map { "\($0)" } ?? "")") }
        Thread.sleep(forTimeInterval: 1)
        let shownBefore = preview.framesShown, cpuBefore = RecordBenchmark.cpuSeconds()
        let start = DispatchTime.now()
        Thread.sleep(forTimeInterval: seconds)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return (Double(preview.framesShown - shownBefore) / wall, (RecordBenchmark.cpuSeconds() - cpuBefore) / wall, sink)
    }

    /// gst-launch-1.0 showing the same size and rate in `sink`: the frames per second
    /// fpsdisplaysink rendered over the run (its last average), and CPU per second.
    static func gst(_ sink: String) throws -> (fps: Double, cpu: Double) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("capture-bench-preview-\(getpid()).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let before = RecordBenchmark.cpuSeconds(children: true)
        let start = DispatchTime.now()
        let process = try ChildProcess("/usr/bin/gst-launch-1.0", [
            "-v", "videotestsrc", "is-live=true", "!", "video/x-raw,format=BGRA,width=\(width),height=\(height),framerate=30/1",
            "!", "videoconvert", "!", "fpsdisplaysink", "video-sink=\(sink)", "text-overlay=false", "sync=false",
        ], output: log.path)
        Thread.sleep(forTimeInterval: seconds + 1)
        process.interrupt()
        process.wait()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard let line = output.split(separator: "\n").last(where: { $0.contains("average: ") }),
              let average = line.components(separatedBy: "average: ").last.flatMap({ Double($0.prefix { $0.isNumber || $0 == "." }) }) else {
            throw BenchFailure(message: "fpsdisplaysink reported nothing for \(sink): \(output.suffix(400))")
        }
        return (average, (RecordBenchmark.cpuSeconds(children: true) - before) / wall)
    }

    static func run() async throws -> [String: Double] {
        let display = try VirtualDisplay(width: 1600, height: 900)
        setenv("DISPLAY", display.name, 1)
        var ours: [(fps: Double, cpu: Double)] = [], ximage: [(fps: Double, cpu: Double)] = [], gl: [(fps: Double, cpu: Double)] = []
        var sink = ""
        for _ in 0..<3 {
            let result = try Self.ours()
            sink = result.sink
            ours.append((result.fps, result.cpu))
            ximage.append(try gst("ximagesink"))
            gl.append(try gst("glimagesink"))
        }
        FileHandle.standardError.write(Data("preview sink chosen: \(sink)\n".utf8))
        let median = { (values: [(fps: Double, cpu: Double)], key: KeyPath<(fps: Double, cpu: Double), Double>) in Processes.median(values.map { $0[keyPath: key] }) }
        return [
            "ours_fps": median(ours, \.fps), "ours_cpu_per_s": median(ours, \.cpu),
            "gst_ximagesink_fps": median(ximage, \.fps), "gst_ximagesink_cpu_per_s": median(ximage, \.cpu),
            "gst_glimagesink_fps": median(gl, \.fps), "gst_glimagesink_cpu_per_s": median(gl, \.cpu),
            "fps_ratio_ximagesink": median(ours, \.fps) / median(ximage, \.fps),
            "cpu_ratio_glimagesink": median(ours, \.cpu) / median(gl, \.cpu),
        ]
    }
}
