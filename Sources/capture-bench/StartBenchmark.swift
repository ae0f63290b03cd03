import CaptureKit
import Foundation
import GStreamerSwift
import Synchronization

/// startRunning() → first frame in Swift, against the same source built directly on the
/// GStreamer layer (PLAYING → first buffer); and a whole `capture snap` process against a cold
/// one-shot gst-launch still.
enum StartBenchmark {
    /// Records when the first frame (or audio buffer) reaches Swift.
    final class FirstFrame: VideoDataOutputSampleBufferDelegate, AudioDataOutputSampleBufferDelegate {
        let arrived = Atomic<UInt64>(0)
        let signal = DispatchSemaphore(value: 0)

        /// Frames and audio buffers alike: one method serves both delegates, as in AVFoundation.
        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) { note() }

        private func note() {
            if arrived.compareExchange(expected: 0, desired: DispatchTime.now().uptimeNanoseconds, ordering: .relaxed).exchanged {
                signal.signal()
            }
        }
    }

    /// Configures a session and starts it at once; `idle` first lets the process sit idle for
    /// 100 ms (as an app that configures early and starts later), which costs cold caches.
    static func ours(idle: Bool = false) async throws -> Double {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))
        let output = VideoDataOutput()
        let first = FirstFrame()
        output.setSampleBufferDelegate(first, queue: DispatchQueue(label: "bench.start"))
        try session.checked.addOutput(output)
        if idle { try await Task.sleep(for: .milliseconds(100)) }
        return try timeFirstFrame(session, first)
    }

    /// Blocking `startRunning()` to the first delegate call, in milliseconds.
    static func timeFirstFrame(_ session: CaptureSession, _ first: FirstFrame) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try session.checked.startRunning()
        let started = DispatchTime.now().uptimeNanoseconds
        first.signal.wait()
        if ProcessInfo.processInfo.environment["CAPTURE_BENCH_VERBOSE"] == "1" {
            let frame = first.arrived.load(ordering: .relaxed)
            FileHandle.standardError.write(Data(String(format: "start: startRunning %.3f ms, first frame %.3f ms after it\n",
                                                       Double(started - start) / 1e6, Double(Int64(frame) - Int64(started)) / 1e6).utf8))
        }
        let ms = Double(first.arrived.load(ordering: .relaxed) - start) / 1e6
        session.stopRunning()
        return ms
    }

    /// The direct pipeline; `painting` also copies a 640x480 BGRA image into every buffer, as
    /// the virtual camera's sensor does, to show what that costs.
    static func direct(painting: Bool = false) throws -> Double {
        let pipeline = Pipeline(name: "direct")
        let source = try Element(factory: "videotestsrc", name: "src")
        try source.set("is-live", true)
        let filter = try Element(factory: "capsfilter", name: "caps")
        try filter.set("caps", .caps("video/x-raw,format=BGRA,width=640,height=480,framerate=30/1"))
        let sink = try Element(factory: "appsink", name: "sink")
        try sink.set("sync", false)
        for element in [source, filter, sink] { pipeline.add(element) }
        try source.link(to: filter)
        try filter.link(to: sink)
        if painting {
            let scene = [UInt32](repeating: 0xFF80_8080, count: 640 * 480)
            try filter.staticPad("src").addBufferProbe { buffer in
                try? buffer.withWritableBytes { bytes in
                    scene.withUnsafeBytes { bytes.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: min($0.count, bytes.count)) }
                }
                return .pass
            }
        }
        return try timeFirstSample(pipeline, sink: sink)
    }

    /// PLAYING → the first sample at `sink`, in milliseconds; the pipeline is stopped after.
    static func timeFirstSample(_ pipeline: Pipeline, sink: Element) throws -> Double {
        let first = DispatchSemaphore(value: 0)
        let seen = Atomic<Bool>(false)
        AppSink.setHandlers(.init(newSample: { _ in
            if !seen.exchange(true, ordering: .relaxed) { first.signal() }
        }), on: sink)
        let start = DispatchTime.now()
        try pipeline.setState(.playing)
        first.wait()
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        try pipeline.setState(.null)
        return ms
    }

    static func run() async throws -> [String: Double] {
        _ = try await ours()
        _ = try direct()
        var oursRuns: [Double] = [], coldRuns: [Double] = [], gstRuns: [Double] = [], paintedRuns: [Double] = []
        for _ in 0..<20 {
            oursRuns.append(try await ours())
            coldRuns.append(try await ours(idle: true))
            gstRuns.append(try direct())
            paintedRuns.append(try direct(painting: true))
        }
        let capture = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("capture").path
        var snapRuns: [Double] = [], launchRuns: [Double] = []
        for _ in 0..<7 {
            snapRuns.append(try Processes.time(capture, ["snap", "-d", "virtual", "--preset", "vga640x480", "--force", "-o", "/tmp/capture-bench-snap.jpg"]).seconds * 1000)
            launchRuns.append(try Processes.time("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "jpegenc", "!",
                                                                           "filesink", "location=/tmp/capture-bench-cold.jpg"]).seconds * 1000)
        }
        let ours = Processes.median(oursRuns), gst = Processes.median(gstRuns)
        let snap = Processes.median(snapRuns), cold = Processes.median(launchRuns)
        return ["ours_ms": ours, "gst_ms": gst, "ratio": ours / gst, "ours_after_idle_ms": Processes.median(coldRuns),
                "gst_painted_ms": Processes.median(paintedRuns),
                "snap_process_ms": snap, "gst_process_ms": cold, "process_ratio": snap / cold]
    }
}
