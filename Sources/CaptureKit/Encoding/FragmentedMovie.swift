import Foundation

/// What CaptureKit reads of a fragmented MP4/MOV stream as the muxer writes it (ISO BMFF boxes,
/// big-endian): the tracks in its header (`moov`), and per fragment (`moof`) each track's
/// decode time, samples and whether the first is a key frame. Pure: bytes in, values out.
enum FragmentedMovie {
    /// A box type as its four bytes.
    typealias FourCC = UInt32

    static func fourCC(_ text: StaticString) -> FourCC {
        text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | FourCC($1) } }
    }

    static let moov = fourCC("moov"), moof = fourCC("moof"), mdat = fourCC("mdat"), mvhd = fourCC("mvhd"), trak = fourCC("trak")
    static let tkhd = fourCC("tkhd"), mdia = fourCC("mdia"), mdhd = fourCC("mdhd"), hdlr = fourCC("hdlr"), mvex = fourCC("mvex")
    static let trex = fourCC("trex"), traf = fourCC("traf"), tfhd = fourCC("tfhd"), tfdt = fourCC("tfdt"), trun = fourCC("trun")
    static let vide = fourCC("vide")

    /// A track of the header: its id, time scale, whether it is the video, and its default
    /// sample duration and flags (`trex`).
    struct Track: Equatable, Sendable {
        var id: UInt32
        var timescale: UInt32 = 1
        var isVideo = false
        var defaultDuration: UInt32 = 0
        var defaultFlags: UInt32 = 0
    }

    /// A track's run in one fragment.
    struct Run: Equatable, Sendable {
        var track: UInt32
        /// In the track's time scale, from the track's first sample.
        var decodeTime: UInt64
        var samples: Int
        var duration: UInt64
        var startsWithKeyFrame: Bool
    }

    /// Sample flags' "is a non-sync sample" bit.
    static let nonSync: UInt32 = 0x0001_0000

    /// The type of the box at the start of `bytes`, nil when shorter than a box header.
    static func boxType(_ bytes: UnsafeRawBufferPointer) -> FourCC? {
        bytes.count >= 8 ? u32(bytes, 4) : nil
    }

    /// The header's tracks (from a `moov` anywhere in `bytes` at top level).
    static func tracks(in bytes: UnsafeRawBufferPointer) -> [Track] {
        var tracks: [Track] = []
        var defaults: [UInt32: (UInt32, UInt32)] = [:]
        forEachBox(bytes, 0..<bytes.count) { type, body in
            guard type == moov else { return }
            forEachBox(bytes, body) { type, body in
                if type == trak, let track = track(bytes, body) { tracks.append(track) }
                if type == mvex {
                    forEachBox(bytes, body) { type, body in
                        guard type == trex, body.count >= 24 else { return }
                        defaults[u32(bytes, body.lowerBound + 4)] = (u32(bytes, body.lowerBound + 12), u32(bytes, body.lowerBound + 20))
                    }
                }
            }
        }
        return tracks.map { track in
            var track = track
            if let (duration, flags) = defaults[track.id] { (track.defaultDuration, track.defaultFlags) = (duration, flags) }
            return track
        }
    }

    private static func track(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Track? {
        var track: Track?
        forEachBox(bytes, range) { type, body in
            if type == tkhd, body.count >= 24 {
                track = Track(id: u32(bytes, body.lowerBound + (bytes[body.lowerBound] == 1 ? 20 : 12)))
            }
            guard type == mdia else { return }
            forEachBox(bytes, body) { type, body in
                if type == mdhd, body.count >= 24 { track?.timescale = u32(bytes, body.lowerBound + (bytes[body.lowerBound] == 1 ? 20 : 12)) }
                if type == hdlr, body.count >= 12 { track?.isVideo = u32(bytes, body.lowerBound + 8) == vide }
            }
        }
        return track
    }

    /// The runs of a `moof` at the start of `bytes`, given the header's `tracks`.
    static func runs(inFragment bytes: UnsafeRawBufferPointer, tracks: [Track]) -> [Run] {
        guard boxType(bytes) == moof else { return [] }
        var runs: [Run] = []
        let size = min(bytes.count, Int(u32(bytes, 0)))
        forEachBox(bytes, 8..<size) { type, body in
            guard type == traf else { return }
            var run = Run(track: 0, decodeTime: 0, samples: 0, duration: 0, startsWithKeyFrame: false)
            var defaultDuration: UInt32 = 0, defaultFlags: UInt32 = 0
            forEachBox(bytes, body) { type, body in
                let start = body.lowerBound
                switch type {
                case tfhd where body.count >= 8:
                    let flags = u32(bytes, start) & 0xFF_FFFF
                    run.track = u32(bytes, start + 4)
                    let track = tracks.first { $0.id == run.track }
                    defaultDuration = track?.defaultDuration ?? 0
                    defaultFlags = track?.defaultFlags ?? 0
                    var offset = start + 8
                    if flags & 0x01 != 0 { offset += 8 }
                    if flags & 0x02 != 0 { offset += 4 }
                    if flags & 0x08 != 0, offset + 4 <= body.upperBound { defaultDuration = u32(bytes, offset); offset += 4 }
                    if flags & 0x10 != 0 { offset += 4 }
                    if flags & 0x20 != 0, offset + 4 <= body.upperBound { defaultFlags = u32(bytes, offset) }
                case tfdt where body.count >= 8:
                    run.decodeTime = bytes[start] == 1 && body.count >= 12 ? u64(bytes, start + 4) : UInt64(u32(bytes, start + 4))
                case trun where body.count >= 8:
                    let flags = u32(bytes, start) & 0xFF_FFFF
                    let count = Int(u32(bytes, start + 4))
                    var offset = start + 8
                    if flags & 0x001 != 0 { offset += 4 }
                    var firstFlags: UInt32?
                    if flags & 0x004 != 0, offset + 4 <= body.upperBound { firstFlags = u32(bytes, offset); offset += 4 }
                    let entry = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count * 4
                    for index in 0..<count where offset + entry <= body.upperBound {
                        var field = offset
                        var duration = defaultDuration
                        if flags & 0x100 != 0 { duration = u32(bytes, field); field += 4 }
                        if flags & 0x200 != 0 { field += 4 }
                        if index == 0 {
                            let sampleFlags = flags & 0x400 != 0 ? u32(bytes, field) : (firstFlags ?? defaultFlags)
                            if run.samples == 0 { run.startsWithKeyFrame = sampleFlags & nonSync == 0 }
                        }
                        run.duration += UInt64(duration)
                        offset += entry
                    }
                    run.samples += count
                default:
                    break
                }
            }
            runs.append(run)
        }
        return runs
    }

    /// The byte offset, within `bytes`, of the movie header's creation time (`mvhd`), and
    /// whether it is 64-bit; nil when there is no `mvhd` in a top-level `moov`.
    static func creationTimeField(in bytes: UnsafeRawBufferPointer) -> (offset: Int, wide: Bool)? {
        var field: (Int, Bool)?
        forEachBox(bytes, 0..<bytes.count) { type, body in
            guard type == moov else { return }
            forEachBox(bytes, body) { type, body in
                guard type == mvhd, body.count >= 12 else { return }
                field = (body.lowerBound + 4, bytes[body.lowerBound] == 1)
            }
        }
        return field
    }

    /// Seconds from 1904 (the ISO formats' epoch) to 1970.
    static let epochOffset: UInt64 = 2_082_844_800

    /// Calls `body` with each box's type and the range of its contents, in `range`; stops at a
    /// box that does not fit.
    static func forEachBox(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ body: (FourCC, Range<Int>) -> Void) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(u32(bytes, offset)), header = 8
            if size == 1, offset + 16 <= range.upperBound {
                size = Int(clamping: u64(bytes, offset + 8))
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else { return }
            body(u32(bytes, offset + 4), (offset + header)..<(offset + size))
            offset += size
        }
    }

    static func u32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    static func u64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
}
