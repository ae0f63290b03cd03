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

        func captureOutput(_ output: VideoDataOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            if count.add(1, ordering: .relaxed).newValue == FramesBenchmark.frames { done.signal() }
        }
    }

    static func ours() throws -> Double {
        let session = CaptureSession()
        try session.setSessionPreset(.inputPriority)
        let device = CaptureDevice.testPattern(width: 1920, height: 1080, isLive: false, frameCount: frames)
        try session.addInput(CaptureDeviceInput(device: device))
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .bgra))
        output.alwaysDiscardsLateVideoFrames = false
        let counter = Counter()
        output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "bench.frames"))
        try session.addOutput(output)
        let start = DispatchTime.now()
        try session.startRunning()
        counter.done.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        session.stopRunning()
        return seconds
    }

    static func gst() throws -> Double {
        try Processes.gstLaunchExecution(
            "videotestsrc num-buffers=\(frames) ! video/x-raw,format=BGRA,width=1920,height=1080,framerate=30/1 ! fakesink")
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
