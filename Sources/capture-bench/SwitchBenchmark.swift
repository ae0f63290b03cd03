import CaptureKit
import Foundation
import Synchronization

/// Switching cameras on a running session (remove + add input inside begin/commit): the time
/// from `commitConfiguration()` to the first frame from the new camera, and the gap in frames
/// the delegate sees (medians of 10, each switch at another phase of the frame interval), and
/// how long `commitConfiguration()` blocks.
enum SwitchBenchmark {
    final class Watcher: VideoDataOutputSampleBufferDelegate {
        let lastBack = Atomic<UInt64>(0)
        let firstFront = Atomic<UInt64>(0)
        let signal = DispatchSemaphore(value: 0)

        func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
            let now = DispatchTime.now().uptimeNanoseconds
            if sampleBuffer.attachments.deviceUniqueID == "virtual:back" {
                lastBack.store(now, ordering: .relaxed)
            } else if firstFront.compareExchange(expected: 0, desired: now, ordering: .relaxed).exchanged {
                signal.signal()
            }
        }
    }

    /// `index` moves the switch to another phase of the frame interval (0–33 ms later).
    static func once(index: Int) throws -> (commitToFrame: Double, gap: Double, commit: Double) {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        let back = try CaptureDeviceInput(device: CaptureDevice.find("virtual"))
        try session.checked.addInput(back)
        let output = VideoDataOutput()
        let watcher = Watcher()
        output.setSampleBufferDelegate(watcher, queue: DispatchQueue(label: "bench.switch"))
        try session.checked.addOutput(output)
        try session.checked.startRunning()
        Thread.sleep(forTimeInterval: 0.2 + Double((index * 7) % 34) / 1000)
        let start = DispatchTime.now().uptimeNanoseconds
        session.beginConfiguration()
        try session.checked.removeInput(back)
        try session.checked.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual-front")))
        try session.checked.commitConfiguration()
        let committed = DispatchTime.now().uptimeNanoseconds
        watcher.signal.wait()
        let first = watcher.firstFront.load(ordering: .relaxed)
        session.stopRunning()
        return (Double(first - start) / 1e6, Double(first - watcher.lastBack.load(ordering: .relaxed)) / 1e6, Double(committed - start) / 1e6)
    }

    static func run() async throws -> [String: Double] {
        var toFrame: [Double] = [], gaps: [Double] = [], commits: [Double] = []
        for index in 0..<10 {
            let (frame, gap, commit) = try once(index: index)
            toFrame.append(frame)
            gaps.append(gap)
            commits.append(commit)
        }
        return ["commit_to_frame_ms": Processes.median(toFrame), "commit_to_frame_max_ms": toFrame.max()!, "frame_gap_ms": Processes.median(gaps),
                "frame_gap_max_ms": gaps.max()!, "commit_ms": Processes.median(commits), "frame_ms": 1000.0 / 30]
    }
}
