import Foundation

/// What a segment file holds, read from its structure (the header and each unit's header,
/// never the media): its video's first decode time, frames and duration, and its creation time.
struct SegmentFile: Sendable, Equatable {
    /// Seconds on its recording's capture clock where it starts (0 for a recording's first).
    var startTime: Double
    var duration: Double
    var frameCount: Int
    var byteCount: Int64
    /// The header's creation time (whole seconds), when it has one.
    var created: Date?

    /// Reads `url` (``SegmentLayout``); nil when it is not a segment with video (or cannot be read).
    init?(url: URL) {
        guard let read = try? SegmentLayout.read(url), let layout = read.layout, let start = layout.videoStart else { return nil }
        startTime = start
        duration = layout.videoDuration
        frameCount = layout.frames
        byteCount = Int64(read.data.count)
        created = layout.created
    }
}
