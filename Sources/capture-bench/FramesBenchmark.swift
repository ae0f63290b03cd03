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

    /// 600 frames through a `VideoDataOutput` whose connection has `orientation` (portrait:
    /// the frames turned in pixels by the branch's videoflip).
    static func ours(orientation: VideoOrientation = .landscapeRight, mirrored: Bool = false) throws -> Double {
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
        output.connection(with: .video)?.videoOrientation = orientation
        output.connection(with: .video)?.isVideoMirrored = mirrored
        let start = DispatchTime.now()
        try session.checked.startRunning()
        counter.done.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        session.stopRunning()
        return seconds
    }

    static func gst(flip: String? = nil) throws -> Double {
        try Processes.gstLaunchExecution(
            "videotestsrc num-buffers=\(frames) ! video/x-raw,format=BGRA,width=1920,height=1080,framerate=30/1 ! "
                + (flip.map { "videoflip video-direction=\($0) ! " } ?? "") + "fakesink")
    }

    /// What turning frames costs (issue 25): portrait frames (and portrait mirrored) against
    /// landscape ones through the same output, and against gst-launch's own videoflip.
    static func runRotation() async throws -> [String: Double] {
        _ = try ours(orientation: .portrait)
        var landscape: [Double] = [], portrait: [Double] = [], mirrored: [Double] = [], gstFlip: [Double] = []
        for _ in 0..<5 {
            landscape.append(try ours())
            portrait.append(try ours(orientation: .portrait))
            mirrored.append(try ours(orientation: .portrait, mirrored: true))
            gstFlip.append(try gst(flip: "90r"))
        }
        let (l, p, m, g) = (Processes.median(landscape), Processes.median(portrait), Processes.median(mirrored), Processes.median(gstFlip))
        return ["landscape_s": l, "portrait_s": p, "portrait_mirrored_s": m, "gst_videoflip_s": g,
                "portrait_vs_landscape": p / l, "portrait_vs_gst_videoflip": p / g, "per_frame_ms": (p - l) / Double(frames) * 1000]
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
