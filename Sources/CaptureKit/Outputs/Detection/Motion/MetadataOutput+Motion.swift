import Foundation
import Synchronization

extension MetadataOutput {
    /// How motion is looked for when ``MetadataObjectType/motion`` is among the types.
    public var motionDetection: MotionDetectionSettings {
        get { state.withLock { $0.motion } }
        set { reportingFailure(of: "motionDetection", newValue) { () throws(CaptureError) in try setMotionDetection(newValue) } }
    }

    /// Sets how motion is looked for; applies from the next analysed frame.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` naming the first value out of range.
    public func setMotionDetection(_ settings: MotionDetectionSettings) throws(CaptureError) {
        try settings.validate()
        state.withLock { $0.motion = settings }
        updateGate()
    }

    /// Tells the branches' gate which frames the detectors want: every frame for codes and
    /// faces, the analysis rate's for motion alone, none without types.
    func updateGate() {
        let (types, rate) = state.withLock { ($0.types, $0.motion.analysisFrameRate) }
        let interval: UInt64 = types.isEmpty ? MetadataFrameGate.none : types.contains { $0 != .motion } ? 0 : UInt64(0.9e9 / rate)
        gate.interval.store(interval, ordering: .relaxed)
    }
}

/// Which frames a metadata branch converts: the detectors' wish, read by each branch's probe
/// ahead of the conversion to gray, so that motion alone costs its analysis rate, not the
/// camera's.
///
/// Threading: written by the output's setters, read on the branches' streaming threads; atomics
/// only.
final class MetadataFrameGate: Sendable {
    /// Nanoseconds between the frames wanted; 0 for every frame, ``none`` for none.
    let interval = Atomic<UInt64>(MetadataFrameGate.none)
    static let none = UInt64.max

    /// The last frame one branch let through.
    final class Passed: Sendable {
        let time = Atomic<UInt64>(0)
    }

    /// A probe's decision for a frame at `time` (nanoseconds), `passed` being its branch's.
    func admits(_ time: UInt64?, passed: Passed) -> Bool {
        let interval = interval.load(ordering: .relaxed)
        guard interval != Self.none else { return false }
        guard interval > 0, let time else { return true }
        let previous = passed.time.load(ordering: .relaxed)
        // Time going back is a new stream: let it through.
        guard previous == 0 || time < previous || time >= previous &+ interval else { return false }
        passed.time.store(max(time, 1), ordering: .relaxed)
        return true
    }
}
