import Foundation

/// What a segment file holds, read from its boxes (the header and each fragment's header,
/// never the media): its video's first decode time, frames and duration, and its creation time.
struct SegmentFile: Sendable, Equatable {
    /// Seconds on its recording's capture clock where it starts (0 for a recording's first).
    var startTime: Double
    var duration: Double
    var frameCount: Int
    var byteCount: Int64
    /// The header's creation time (whole seconds), when it has one.
    var created: Date?

    /// Reads `url`; nil when it is not a fragmented movie with video (or cannot be read).
    init?(url: URL) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map { Int64($0) } ?? 0
        var offset: Int64 = 0
        var tracks: [FragmentedMovie.Track] = []
        var first: UInt64?
        var ticks: UInt64 = 0
        var frames = 0
        var created: Date?
        while offset + 8 <= size {
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let head = try? handle.read(upToCount: 16), head.count >= 8 else { break }
            var boxSize = head.withUnsafeBytes { Int64(FragmentedMovie.u32($0, 0)) }
            let type = head.withUnsafeBytes { FragmentedMovie.u32($0, 4) }
            if boxSize == 1, head.count == 16 { boxSize = head.withUnsafeBytes { Int64(clamping: FragmentedMovie.u64($0, 8)) } }
            if boxSize == 0 { boxSize = size - offset }
            guard boxSize >= 8, offset + boxSize <= size else { break }
            if type == FragmentedMovie.moov || type == FragmentedMovie.moof, boxSize < 64 << 20 {
                try? handle.seek(toOffset: UInt64(offset))
                guard let box = try? handle.read(upToCount: Int(boxSize)), box.count == Int(boxSize) else { break }
                box.withUnsafeBytes { bytes in
                    if type == FragmentedMovie.moov {
                        tracks = FragmentedMovie.tracks(in: bytes)
                        if let field = FragmentedMovie.creationTimeField(in: bytes) {
                            let seconds = field.wide ? FragmentedMovie.u64(bytes, field.offset) : UInt64(FragmentedMovie.u32(bytes, field.offset))
                            if seconds > FragmentedMovie.epochOffset { created = Date(timeIntervalSince1970: Double(seconds - FragmentedMovie.epochOffset)) }
                        }
                    } else if let video = tracks.first(where: \.isVideo) {
                        for run in FragmentedMovie.runs(inFragment: bytes, tracks: tracks) where run.track == video.id {
                            if first == nil { first = run.decodeTime }
                            ticks += run.duration
                            frames += run.samples
                        }
                    }
                }
            }
            offset += boxSize
        }
        guard let video = tracks.first(where: \.isVideo), let first else { return nil }
        let scale = Double(max(1, video.timescale))
        self.startTime = Double(first) / scale
        self.duration = Double(ticks) / scale
        self.frameCount = frames
        self.byteCount = size
        self.created = created
    }
}
