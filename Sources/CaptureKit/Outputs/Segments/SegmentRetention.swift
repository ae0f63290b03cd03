import Foundation

/// What a segmented recording keeps in its folder: segments no older than ``maxAge`` and
/// together no larger than ``maxBytes`` (either or both). The oldest go first; the segment being
/// written is never deleted. A full disk deletes the oldest segments before a write fails,
/// whatever the retention. Segments that hold an event (marked in the index) are kept as its
/// clip would be.
public struct SegmentRetention: Sendable, Hashable {
    /// Seconds a segment is kept after its end; nil keeps them.
    public var maxAge: Double?
    /// Bytes all the folder's segments may take together; nil for no limit.
    public var maxBytes: Int64?

    public init(maxAge: Double? = nil, maxBytes: Int64? = nil) {
        self.maxAge = maxAge
        self.maxBytes = maxBytes
    }

    /// Keeps everything (the default).
    public static let everything = SegmentRetention()

    /// Throws for an age or size that is not above 0.
    func validate() throws(CaptureError) {
        if let maxAge, !(maxAge > 0 && maxAge.isFinite) {
            throw .invalidSetting(name: "retention.maxAge", value: "\(maxAge)", valid: "a number of seconds above 0, or nil to keep every segment")
        }
        if let maxBytes, maxBytes <= 0 {
            throw .invalidSetting(name: "retention.maxBytes", value: "\(maxBytes)", valid: "a number of bytes above 0, or nil for no limit")
        }
    }

    /// The closed segments of `index` to delete at `now`, oldest first: those past the age, then
    /// the oldest until the rest fit in the size.
    func expired(in index: SegmentIndex, now: Date) -> [SegmentIndex.Entry] {
        guard maxAge != nil || maxBytes != nil else { return [] }
        // Segments holding an event are locked: never deleted by retention. Only the oldest are
        // looked at (and their dates read) until one is kept.
        var candidates = index.closedOldestFirst.filter { !index.holdsEvent($0) }[...]
        var gone: [SegmentIndex.Entry] = []
        if let maxAge {
            let limit = now.addingTimeInterval(-maxAge)
            while let entry = candidates.first, let start = SegmentIndex.date(entry.start), start.addingTimeInterval(entry.duration) < limit {
                gone.append(entry)
                candidates = candidates.dropFirst()
            }
        }
        if let maxBytes {
            var total = index.segments.reduce(Int64(0)) { $0 + $1.bytes } - gone.reduce(Int64(0)) { $0 + $1.bytes }
            while total > maxBytes, let entry = candidates.first {
                gone.append(entry)
                total -= entry.bytes
                candidates = candidates.dropFirst()
            }
        }
        return gone
    }
}
