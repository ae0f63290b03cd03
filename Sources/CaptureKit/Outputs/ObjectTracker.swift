import Foundation

/// Gives objects an identity across frames: the same code (type and text), or a face whose box
/// overlaps its last one, seen again within `gap` is the same object, whose duration runs from
/// when it was first seen.
struct ObjectTracker {
    /// How long an object may go unseen (frames skipped, a missed decode) and stay the same one.
    static let gap = CaptureTime(value: 500, timescale: 1000)

    private var seen: [String: (first: CaptureTime, last: CaptureTime)] = [:]
    private var faces: [(id: Int, bounds: CGRect, first: CaptureTime, last: CaptureTime)] = []
    private var nextFaceID = 1

    /// Records `key` in the frame at `time`; returns how long it has been in view.
    mutating func seen(_ key: String, at time: CaptureTime) -> CaptureTime {
        let first = seen[key]?.first ?? time
        seen[key] = (first, time)
        return CaptureTime(nanoseconds: UInt64(max(0, time.nanoseconds - first.nanoseconds)))
    }

    /// The identity of a face at `bounds` in the frame at `time`: the tracked face whose last box
    /// overlaps it most (intersection over union at least 0.3), or a new one; with how long it
    /// has been in view.
    mutating func face(at bounds: CGRect, time: CaptureTime) -> (id: Int, duration: CaptureTime) {
        func overlap(_ a: CGRect, _ b: CGRect) -> Double {
            let common = a.intersection(b)
            guard !common.isNull else { return 0 }
            let shared = common.width * common.height
            return shared / (a.width * a.height + b.width * b.height - shared)
        }
        let best = faces.indices.filter { faces[$0].last != time }.max { overlap(faces[$0].bounds, bounds) < overlap(faces[$1].bounds, bounds) }
        if let best, overlap(faces[best].bounds, bounds) >= 0.3 {
            faces[best].bounds = bounds
            faces[best].last = time
            return (faces[best].id, CaptureTime(nanoseconds: UInt64(max(0, time.nanoseconds - faces[best].first.nanoseconds))))
        }
        faces.append((nextFaceID, bounds, time, time))
        nextFaceID += 1
        return (nextFaceID - 1, CaptureTime(nanoseconds: 0))
    }

    /// Forgets objects not seen within `gap` of `time`.
    mutating func forget(before time: CaptureTime) {
        // Rebuilt only when something went stale: no allocation on the frames in between.
        func isStale(_ last: CaptureTime) -> Bool { time.nanoseconds - last.nanoseconds > ObjectTracker.gap.nanoseconds }
        if seen.values.contains(where: { isStale($0.last) }) { seen = seen.filter { !isStale($0.value.last) } }
        if !faces.isEmpty { faces.removeAll { isStale($0.last) } }
    }
}
