import Foundation
import GStreamerSwift

/// The event side of a ``SegmentWriter``: a ring of the last units (fragments or clusters: the
/// pre-roll, held as references to the muxer's buffers, never copied), and the event being
/// recorded, whose clip is the stream's header followed by whole units from the key frame at or
/// before the pre-roll to the first unit at or past the post-roll after its last trigger. Overlapping
/// triggers extend it. Values only: the writer does the file calls, under its lock.
struct EventClips {
    /// One unit of the stream as the muxer wrote it (`moof`, then its `mdat`; or a cluster's
    /// start, then its blocks), in buffers.
    struct Fragment {
        /// Its video's first decode time on the capture clock (seconds), or the last video
        /// time seen for an audio fragment.
        var time: Double
        /// A video fragment starting with a key frame: where a clip can begin.
        var startsWithKeyFrame: Bool
        var buffers: [RetainedBuffer]
        var bytes: Int
    }

    /// Seconds before a trigger, and after the last one, that a clip holds.
    let preRoll: Double
    let postRoll: Double
    /// Whether clips are written to files (else events are only marked).
    let writesFiles: Bool
    private(set) var ring: [Fragment] = []
    /// The event being recorded, and its clip's descriptor.
    var current: (event: RecordingEvent, descriptor: Int32?)?

    init(preRoll: Double, postRoll: Double, writesFiles: Bool) {
        self.preRoll = preRoll
        self.postRoll = postRoll
        self.writesFiles = writesFiles
    }

    /// The bytes the ring holds now.
    var heldBytes: Int { ring.reduce(0) { $0 + $1.bytes } }

    /// A new unit begins (its first buffer in `buffer`). Older fragments than the pre-roll needs go.
    mutating func begin(_ buffer: RetainedBuffer?, time: Double, startsWithKeyFrame: Bool) {
        if startsWithKeyFrame, let keep = ring.lastIndex(where: { $0.startsWithKeyFrame && $0.time <= time - preRoll }) {
            ring.removeFirst(keep)
        }
        ring.append(Fragment(time: time, startsWithKeyFrame: startsWithKeyFrame, buffers: buffer.map { [$0] } ?? [], bytes: buffer?.size ?? 0))
    }

    /// More of the current unit.
    mutating func append(_ buffer: RetainedBuffer) {
        guard !ring.isEmpty else { return }
        ring[ring.count - 1].buffers.append(buffer)
        ring[ring.count - 1].bytes += buffer.size
    }

    /// Where a clip for a trigger at `time` starts: the index in the ring of the last key-frame
    /// fragment at or before the pre-roll, else the first key-frame fragment; nil when the ring
    /// holds none yet.
    func clipStart(for time: Double) -> Int? {
        ring.lastIndex { $0.startsWithKeyFrame && $0.time <= time - preRoll } ?? ring.firstIndex { $0.startsWithKeyFrame }
    }

    /// Whether a fragment starting at `time` (video) ends the current event: past its post-roll.
    func ends(at time: Double, video: Bool) -> Bool {
        guard let current, video else { return false }
        return time >= current.event.lastTrigger + postRoll
    }
}
