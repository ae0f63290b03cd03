/// The frames between a leaky queue's two pads, by presentation time, so that the frames the
/// queue leaks are counted exactly while frames merely waiting in it are not.
///
/// A `leaky=downstream` queue drops its oldest frames and keeps the order of the rest, so the
/// frames leaving it are a subsequence of those entering: a frame that leaves passes over every
/// older one still recorded here, and those were dropped. A fixed ring, allocated once; it is
/// used under its owner's lock, from the queue's two streaming threads.
struct InFlightFrames {
    private var times: [UInt64]
    private var head = 0
    private(set) var count = 0
    /// Frames that entered and were passed over by a later frame leaving.
    private(set) var dropped = 0

    /// Room for `capacity` frames waiting at once (a one-second queue holds a second of frames).
    init(capacity: Int = 1024) {
        times = Array(repeating: 0, count: capacity)
    }

    /// A frame entered the queue. Past the ring's capacity the oldest entry is given up as
    /// dropped: a queue holding more frames than that has stopped moving.
    mutating func entered(_ time: UInt64) {
        if count == times.count {
            head = (head + 1) % times.count
            count -= 1
            dropped += 1
        }
        times[(head + count) % times.count] = time
        count += 1
    }

    /// A frame left the queue: the older frames still waiting ahead of it were dropped. A frame
    /// that never entered (none matches) changes nothing.
    mutating func left(_ time: UInt64) {
        var skipped = 0
        while skipped < count, times[(head + skipped) % times.count] != time { skipped += 1 }
        guard skipped < count else { return }
        head = (head + skipped + 1) % times.count
        count -= skipped + 1
        dropped += skipped
    }
}
