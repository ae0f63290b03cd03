import Foundation

/// How a segment file is laid out, read from its structure (box and element headers, never the
/// media): its header's bytes, its whole units (an MP4/MOV fragment, `moof` + `mdat`; a
/// Matroska cluster, up to its last whole block) with their times on the recording's capture
/// clock, and its video's start, frames and length. A unit cut short (the open segment after
/// kill -9) is left out.
struct SegmentLayout: Sendable, Equatable {
    struct Unit: Sendable, Equatable {
        var bytes: Range<Int>
        /// Seconds on the capture clock: its first sample's time and its last's end.
        var start: Double
        var end: Double
        /// It begins with a video key frame: a file or a range can begin with it.
        var startsWithKeyFrame: Bool
    }

    /// The bytes before the first unit: `ftyp` and `moov`, or Matroska's EBML header,
    /// `Info`, `Tracks` and `Tags`.
    var header: Range<Int>
    var units: [Unit] = []
    /// The header's creation time (MP4/MOV whole seconds; Matroska's `DateUTC`).
    var created: Date?
    /// The video's first time, its frames and their length (seconds); nil without video.
    var videoStart: Double?
    var frames = 0
    var videoDuration = 0.0

    /// Reads a segment's bytes in `container`; nil when they hold no unit.
    init?(_ bytes: UnsafeRawBufferPointer, container: MovieContainer) {
        header = 0..<0
        if container == .mkv { readMatroska(bytes) } else { readMovie(bytes) }
        guard let first = units.first else { return nil }
        header = 0..<first.bytes.lowerBound
    }

    /// The segment file at `url`, mapped, and its layout (nil when it holds no unit, or its
    /// extension names no container).
    ///
    /// - Throws: ``CaptureError/Code/fileUnreadable`` for a file that cannot be read.
    static func read(_ url: URL) throws(CaptureError) -> (data: Data, layout: SegmentLayout?, container: MovieContainer?) {
        let data: Data
        do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw .fileUnreadable(url.path, reason: error.localizedDescription)
        }
        let container = MovieContainer(rawValue: url.pathExtension.lowercased())
        return (data, container.flatMap { container in data.withUnsafeBytes { SegmentLayout($0, container: container) } }, container)
    }

    private mutating func readMovie(_ bytes: UnsafeRawBufferPointer) {
        var tracks: [FragmentedMovie.Track] = []
        var moof: Range<Int>?
        var ticks: UInt64 = 0
        FragmentedMovie.forEachBox(bytes, 0..<bytes.count) { type, body in
            let box = (body.lowerBound - 8)..<body.upperBound
            if type == FragmentedMovie.moov {
                let header = UnsafeRawBufferPointer(rebasing: bytes[box])
                tracks = FragmentedMovie.tracks(in: header)
                if let field = FragmentedMovie.creationTimeField(in: header) {
                    let seconds = field.wide ? FragmentedMovie.u64(header, field.offset) : UInt64(FragmentedMovie.u32(header, field.offset))
                    if seconds > FragmentedMovie.epochOffset { created = Date(timeIntervalSince1970: Double(seconds - FragmentedMovie.epochOffset)) }
                }
            } else if type == FragmentedMovie.moof {
                moof = box
            } else if type == FragmentedMovie.mdat, let start = moof {
                moof = nil
                var unit = Unit(bytes: start.lowerBound..<box.upperBound, start: .infinity, end: 0, startsWithKeyFrame: false)
                for run in FragmentedMovie.runs(inFragment: UnsafeRawBufferPointer(rebasing: bytes[start]), tracks: tracks) {
                    guard let track = tracks.first(where: { $0.id == run.track }), track.timescale > 0 else { continue }
                    let scale = Double(track.timescale)
                    unit.start = min(unit.start, Double(run.decodeTime) / scale)
                    unit.end = max(unit.end, Double(run.decodeTime + run.duration) / scale)
                    guard track.isVideo else { continue }
                    unit.startsWithKeyFrame = run.startsWithKeyFrame
                    if videoStart == nil { videoStart = Double(run.decodeTime) / scale }
                    ticks += run.duration
                    frames += run.samples
                    videoDuration = Double(ticks) / scale
                }
                if unit.start.isFinite { units.append(unit) }
            }
        }
    }

    private mutating func readMatroska(_ bytes: UnsafeRawBufferPointer) {
        var stream = MatroskaStream()
        var unit: Unit?
        var units: [Unit] = []
        var first: Int64?, frames = 0
        stream.read(bytes) { element in
            switch element {
            case .cluster(let at):
                if let unit, unit.bytes.count > 0 { units.append(unit) }
                unit = Unit(bytes: at..<at, start: .infinity, end: 0, startsWithKeyFrame: false)
            case .block(let range, let track, let time, let key):
                guard range.upperBound <= bytes.count, let current = unit else { return }
                let seconds = Double(time) / 1e9
                if current.bytes.isEmpty { unit?.startsWithKeyFrame = track.isVideo && key }
                unit?.bytes = current.bytes.lowerBound..<range.upperBound
                unit?.start = min(current.start, seconds)
                unit?.end = max(current.end, seconds + Double(track.defaultDuration) / 1e9)
                guard track.isVideo else { return }
                if first == nil { first = time }
                frames += 1
            }
        }
        if let unit, unit.bytes.count > 0 { units.append(unit) }
        self.units = units
        self.frames = frames
        videoStart = first.map { Double($0) / 1e9 }
        videoDuration = Double(UInt64(frames) * (stream.video?.defaultDuration ?? 0)) / 1e9
        if let offset = stream.dateOffset, offset + 8 <= bytes.count {
            let value = Int64(bitPattern: (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) })
            created = Date(timeIntervalSince1970: Double(value + MatroskaStream.dateEpoch) / 1e9)
        }
    }
}
