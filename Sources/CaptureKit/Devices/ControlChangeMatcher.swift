import Foundation

/// Finds the first frame of a running V4L2 camera that carries a control change, from the
/// frames' presentation times and metering: UVC cameras apply a written control a few frames
/// late, and the driver does not say which frame has it, so counting frames would be a guess.
///
/// A change that alters the light gathered (exposure time, gain, bias) is matched by metering:
/// the first frame presented after the write whose mean luma has moved at least half way (in
/// stops) from the last frame metered before it towards what the change should give. Any other
/// change (lens, white balance), or one too small to see (under ¼ stop), is matched to the
/// first frame that began after the write: presented at least one frame interval after it. A
/// camera that never shows the change (clipped, or its own auto exposure undoing it) is taken
/// to carry it `maxLatencyFrames` frames after the write.
struct ControlChangeMatcher: Sendable, Equatable {
    /// Frames after the write by which any UVC camera has applied a control.
    static let maxLatencyFrames = 6

    /// The running time of the write (the frames' presentation times share its clock).
    let writtenAt: CaptureTime
    /// The time between frames when it was written.
    let frameDuration: Double
    /// The mean luma of the last frame metered before the write.
    let baseline: Double?
    /// Light after the change over light before it, when the change alters exposure.
    let lightRatio: Double?
    /// Frames presented after the write so far.
    private(set) var framesAfterWrite = 0

    init(writtenAt: CaptureTime, frameDuration: Double, baseline: Double?, lightRatio: Double?) {
        self.writtenAt = writtenAt
        self.frameDuration = frameDuration
        self.baseline = baseline
        self.lightRatio = lightRatio
    }

    /// Looks at the next frame, presented at `time` with mean luma `meanLuma`; true when it
    /// is the first that carries the change.
    mutating func carries(frameAt time: CaptureTime, meanLuma: Double?) -> Bool {
        guard time > writtenAt else { return false }
        framesAfterWrite += 1
        if framesAfterWrite >= Self.maxLatencyFrames { return true }
        guard let ratio = lightRatio, abs(log2(ratio)) >= 0.25, let baseline, let meanLuma else {
            return (time - writtenAt).seconds >= frameDuration * 0.999
        }
        let moved = log2(max(meanLuma, 0.25) / max(baseline, 0.25))
        return moved / log2(ratio) >= 0.5
    }
}
