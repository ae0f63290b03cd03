import CaptureKit
import Dispatch
import Foundation
import GStreamerSwift
import Synchronization

/// 120 frames of a live camera into a `VideoDataOutput` delegate (I420), against the same source
/// element built directly on the GStreamer layer into an appsink, in the same process and run:
/// wall time from the first frame to the last, and the process's CPU time per frame over that
/// span; and start to first frame (`startRunning()` to the delegate's first frame, against
/// PLAYING to the direct pipeline's first sample). The camera is named by
/// `CAPTUREKIT_BENCH_CAMERA` (`libcamera:…`, `pipewire:…`, a V4L2 node); the direct pipeline is
/// the kind's own source element with the format's caps.
///   in the vivid guest with vimc loaded: CAPTUREKIT_BENCH_CAMERA='libcamera:platform/vimc.0 Sensor B' capture-bench camera
///   scripts/pipewire-session.sh -- env CAPTUREKIT_BENCH_CAMERA=pipewire:capturekit-test-camera capture-bench camera
enum CameraBenchmark {
    static let frames = 120

    /// Counts frames; notes the uptime and process CPU time at the first and the last.
    final class Counter: VideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let count = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        var first: (wall: UInt64, cpu: Double) = (0, 0)
        var last: (wall: UInt64, cpu: Double) = (0, 0)

        func frame() {
            let n = count.add(1, ordering: .relaxed).newValue
            if n == 1 { first = (DispatchTime.now().uptimeNanoseconds, CameraBenchmark.cpuSeconds()) }
            if n == CameraBenchmark.frames {
                last = (DispatchTime.now().uptimeNanoseconds, CameraBenchmark.cpuSeconds())
                done.signal()
            }
        }

        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) { frame() }

        /// Seconds from the first frame to the last, and CPU milliseconds per frame between them.
        var figures: (seconds: Double, cpuPerFrameMs: Double) {
            (Double(last.wall - first.wall) / 1e9, (last.cpu - first.cpu) * 1000 / Double(CameraBenchmark.frames - 1))
        }
    }

    /// The process's user and system CPU time, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func ours(_ device: CaptureDevice) throws -> (seconds: Double, cpuPerFrameMs: Double) {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .i420))
        output.alwaysDiscardsLateVideoFrames = false
        let counter = Counter()
        output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.camera"))
        try session.checked.addOutput(output)
        try session.checked.startRunning()
        counter.done.wait()
        session.stopRunning()
        return counter.figures
    }

    /// The source element alone: `libcamerasrc camera-name=…`, `v4l2src device=…` or `pipewiresrc target-object=…`,
    /// a capsfilter with the format's size (libcamera: or its alignment) and pixel format, `videoconvert` to I420
    /// (what the data output is asked for; the cameras give RGB and YUY2), and an appsink.
    static func direct(_ device: CaptureDevice) throws -> (seconds: Double, cpuPerFrameMs: Double) {
        let (pipeline, sink) = try directPipeline(device)
        let counter = Counter()
        AppSink.setHandlers(.init(newSample: { _ in counter.frame() }), on: sink)
        try pipeline.setState(.playing)
        counter.done.wait()
        try pipeline.setState(.null)
        return counter.figures
    }

    /// The direct pipeline `direct(_:)` runs, not yet started; its appsink.
    static func directPipeline(_ device: CaptureDevice) throws -> (Pipeline, Element) {
        let id = device.uniqueID.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
        let source: DirectChain.Part
        var caps = ["video/x-raw,width=640,height=480"]
        switch device.route {
        case "libcamera":
            source = ("libcamerasrc", [("camera-name", .string(id))])
            caps.append("video/x-raw,width=[624,656],height=[464,496]")
        case "v4l2":
            source = ("v4l2src", [("device", .string(device.uniqueID))])
        default:
            source = ("pipewiresrc", [("target-object", .string(id))])
        }
        let filter = caps.map { $0 + pinned(device.activeFormat.pixelFormat) }.joined(separator: ";")
        return try DirectChain.make([source, ("capsfilter", [("caps", .caps(filter))]), ("videoconvert", [])],
                                    sinkCaps: "video/x-raw,format=I420", name: "direct-camera")
    }

    /// `,format=…`: the pixel format the session chose (the device's active format once a
    /// session ran), so that the direct pipeline reads the camera in the same layout and
    /// converts as much (vivid also offers I420, which needs no conversion to the appsink's
    /// I420 and was what the direct pipeline negotiated before it was pinned).
    static func pinned(_ format: PixelFormat) -> String {
        switch format {
        case .mjpeg, .h264: ""
        case .gray8: ",format=GRAY8"
        case .bgrx: ",format=BGRx"
        default: ",format=" + format.rawValue.uppercased()
        }
    }

    static func run() async throws -> [String: Double] {
        guard let reference = ProcessInfo.processInfo.environment["CAPTUREKIT_BENCH_CAMERA"] else {
            throw BenchFailure(message: "set CAPTUREKIT_BENCH_CAMERA to a libcamera: or pipewire: camera, or a V4L2 node")
        }
        let device = try CaptureDevice.find(reference)
        var oursRuns: [(Double, Double)] = [], directRuns: [(Double, Double)] = []
        _ = try ours(device)
        for _ in 0..<5 {
            oursRuns.append(try ours(device))
            directRuns.append(try direct(device))
        }
        // Start to first frame: startRunning() to the delegate's first frame, against PLAYING to
        // the direct pipeline's first sample (KindsBenchmark's measure for the other kinds).
        var starts: [Double] = [], gstStarts: [Double] = []
        for _ in 0..<5 {
            starts.append(try KindsBenchmark.ours(device))
            let (pipeline, sink) = try directPipeline(device)
            gstStarts.append(try StartBenchmark.timeFirstSample(pipeline, sink: sink))
        }
        let seconds = Processes.median(oursRuns.map(\.0)), gstSeconds = Processes.median(directRuns.map(\.0))
        let cpu = Processes.median(oursRuns.map(\.1)), gstCPU = Processes.median(directRuns.map(\.1))
        let start = Processes.median(starts), gstStart = Processes.median(gstStarts)
        return ["ours_s": seconds, "gst_s": gstSeconds, "ratio": seconds / gstSeconds,
                "ours_cpu_ms_per_frame": cpu, "gst_cpu_ms_per_frame": gstCPU, "cpu_ratio": cpu / gstCPU,
                "start_ms": start, "start_gst_ms": gstStart, "start_ratio": start / gstStart]
    }
}
