import Dispatch
import Synchronization
@testable import CaptureKit

/// Counts the frames a `VideoDataOutput` delivers.
final class FrameCounter: VideoDataOutputSampleBufferDelegate, Sendable {
    private let frames = Atomic<Int>(0)

    var count: Int { frames.load(ordering: .relaxed) }

    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        frames.add(1, ordering: .relaxed)
    }

    /// Waits up to `seconds` for `count` frames; true when they came.
    func waitFor(_ count: Int, seconds: Double) async -> Bool {
        for _ in 0..<Int(seconds * 20) where self.count < count { try? await Task.sleep(for: .milliseconds(50)) }
        return self.count >= count
    }
}
