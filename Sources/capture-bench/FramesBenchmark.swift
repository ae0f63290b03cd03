@_spi(Benchmark) import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// 600 frames 1920x1080 BGRA from videotestsrc into a VideoDataOutput delegate, against
/// `gst-launch-1.0 videotestsrc num-buffers=600 ! video/x-raw,… ! fakesink`.
enum FramesBenchmark {
    static let frames = 600

    final class Counter: VideoDataOutputSampleBufferDelegate {
        let count = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)

        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            if count.add(1, ordering: .relaxed).newValue == FramesBenchmark.frames { done.signal() }
        }
    }

    static func ours() throws -> Double {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        let device = CaptureDevice.testPattern(width: 1920, height: 1080, isLive: false, frameCount: frames)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .bgra))
        output.alwaysDiscardsLateVideoFrames = false
        let counter = Counter()
        output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.frames"))
        try session.checked.addOutput(output)
        let start = DispatchTime.now()
        try session.checked.startRunning()
        counter.done.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        session.stopRunning()
        return seconds
    }

    static func gst() throws -> Double {
        try Processes.gstLaunchExecution(
            "videotestsrc num-buffers=\(frames) ! video/x-raw,format=BGRA,width=1920,height=1080,framerate=30/1 ! fakesink")
    }

    /// What turning frames costs (issue 25), in CPU per frame on a live 1920x1080@30 source (a
    /// non-live one outruns the branch's leaky queue): portrait (and portrait mirrored) frames
    /// through a `VideoDataOutput` against landscape ones, and against gst-launch's own
    /// `videoflip` on the same source.
    static func runRotation() async throws -> [String: Double] {
        var landscape: [Double] = [], portrait: [Double] = [], mirrored: [Double] = [], gstFlip: [Double] = [], gstPlain: [Double] = []
        for _ in 0..<3 {
            landscape.append(try liveCPUPerFrame(orientation: .landscapeRight, mirrored: false))
            portrait.append(try liveCPUPerFrame(orientation: .portrait, mirrored: false))
            mirrored.append(try liveCPUPerFrame(orientation: .portrait, mirrored: true))
            gstPlain.append(try gstCPUPerFrame(flip: nil))
            gstFlip.append(try gstCPUPerFrame(flip: "90r"))
        }
        let (l, p, m) = (Processes.median(landscape), Processes.median(portrait), Processes.median(mirrored))
        let (g, gf) = (Processes.median(gstPlain), Processes.median(gstFlip))
        return ["landscape_cpu_ms": l * 1000, "portrait_cpu_ms": p * 1000, "portrait_mirrored_cpu_ms": m * 1000,
                "gst_cpu_ms": g * 1000, "gst_videoflip_cpu_ms": gf * 1000,
                "turning_ms": (p - l) * 1000, "gst_turning_ms": (gf - g) * 1000, "portrait_vs_gst_videoflip": p / gf]
    }

    static let liveFrames = 120

    /// CPU seconds per frame of this process while a live session delivers `liveFrames` frames.
    static func liveCPUPerFrame(orientation: VideoOrientation, mirrored: Bool) throws -> Double {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        let device = CaptureDevice.testPattern(width: 1920, height: 1080, isLive: true)
        try session.checked.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .bgra))
        let counter = Counter()
        output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.rotate"))
        try session.checked.addOutput(output)
        output.connection(with: .video)?.videoOrientation = orientation
        output.connection(with: .video)?.isVideoMirrored = mirrored
        try session.checked.startRunning()
        defer { session.stopRunning() }
        while counter.count.load(ordering: .relaxed) < 10 { usleep(5_000) }
        let (startFrames, startCPU) = (counter.count.load(ordering: .relaxed), RecordBenchmark.cpuSeconds())
        while counter.count.load(ordering: .relaxed) < startFrames + liveFrames { usleep(5_000) }
        let frames = counter.count.load(ordering: .relaxed) - startFrames
        return (RecordBenchmark.cpuSeconds() - startCPU) / Double(frames)
    }

    /// CPU seconds per frame of `gst-launch-1.0` on the same live source, with `videoflip` or not.
    static func gstCPUPerFrame(flip: String?) throws -> Double {
        let before = RecordBenchmark.cpuSeconds(children: true)
        _ = try Processes.time("/usr/bin/gst-launch-1.0", ["-q"] + ("videotestsrc is-live=true num-buffers=\(liveFrames + 10) ! "
            + "video/x-raw,format=BGRA,width=1920,height=1080,framerate=30/1 ! "
            + (flip.map { "videoflip video-direction=\($0) ! " } ?? "") + "fakesink").split(separator: " ").map(String.init))
        return (RecordBenchmark.cpuSeconds(children: true) - before) / Double(liveFrames + 10)
    }

    static func run() async throws -> [String: Double] {
        _ = try ours()
        var oursRuns: [Double] = [], gstRuns: [Double] = []
        for _ in 0..<5 {
            oursRuns.append(try ours())
            gstRuns.append(try gst())
        }
        let ours = Processes.median(oursRuns), gst = Processes.median(gstRuns)
        return ["ours_s": ours, "gst_s": gst, "ratio": ours / gst]
    }
}
