/// Gives objects an identity across frames: the same key (a code's type and text, a face's
/// track) seen again within `gap` is the same object, whose duration runs from when it was
/// first seen.
struct ObjectTracker {
    /// How long an object may go unseen (frames skipped, a missed decode) and stay the same one.
    static let gap = CaptureTime(value: 500, timescale: 1000)

    private var seen: [String: (first: CaptureTime, last: CaptureTime)] = [:]

    /// Records `key` in the frame at `time`; returns how long it has been in view.
    mutating func seen(_ key: String, at time: CaptureTime) -> CaptureTime {
        let first = seen[key]?.first ?? time
        seen[key] = (first, time)
        return CaptureTime(nanoseconds: UInt64(max(0, time.nanoseconds - first.nanoseconds)))
    }

    /// Forgets objects not seen within `gap` of `time`.
    mutating func forget(before time: CaptureTime) {
        guard !seen.isEmpty else { return }
        seen = seen.filter { time.nanoseconds - $0.value.last.nanoseconds <= ObjectTracker.gap.nanoseconds }
    }
}
