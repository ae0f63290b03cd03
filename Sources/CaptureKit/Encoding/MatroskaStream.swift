import Foundation

/// What CaptureKit reads of a Matroska stream as `matroskamux` writes it (EBML elements), fed a
/// buffer at a time or a whole file: the header's time scale, tracks and `DateUTC`, where each
/// `Cluster` begins and its time, and each block's track, time and key flag. Media payloads are
/// skipped, never copied; element headers split across buffers are put together. Pure: bytes
/// in, values out.
///
/// Master elements (`Segment`, `Cluster`, `Info`, `Tracks`, `TrackEntry`, `BlockGroup`) are
/// read through, known or unknown size alike (their children's IDs are unique in the format),
/// so a streamed file's unknown-size segment and clusters read like a finished one's.
struct MatroskaStream {
    /// A track of the header: its number, whether it is the video, and its frame duration in
    /// nanoseconds (`DefaultDuration`, 0 when the header gives none).
    struct Track: Equatable, Sendable {
        var number: UInt64
        var isVideo = false
        var defaultDuration: UInt64 = 0
    }

    /// What the stream holds, in the order it comes.
    enum Element: Equatable {
        /// A cluster whose ID begins at this offset of the stream.
        case cluster(at: Int)
        /// A block (simple, or in a group) whose element spans `bytes` of the stream: its track
        /// (as the header describes it; a number alone for a track it does not), its time in
        /// nanoseconds from the stream's start, and whether it is a key frame (a simple block's
        /// flag; a grouped block without a reference block before it).
        case block(bytes: Range<Int>, track: Track, time: Int64, key: Bool)
    }

    static let ebml: UInt32 = 0x1A45_DFA3, segment: UInt32 = 0x1853_8067, cluster: UInt32 = 0x1F43_B675, info: UInt32 = 0x1549_A966
    static let tracksID: UInt32 = 0x1654_AE6B, trackEntry: UInt32 = 0xAE, trackNumber: UInt32 = 0xD7, trackType: UInt32 = 0x83
    static let defaultDuration: UInt32 = 0x23_E383, timecodeScale: UInt32 = 0x2A_D7B1, dateUTC: UInt32 = 0x4461
    static let timecode: UInt32 = 0xE7, simpleBlock: UInt32 = 0xA3, blockGroup: UInt32 = 0xA0, block: UInt32 = 0xA1, referenceBlock: UInt32 = 0xFB
    static let masters: Set<UInt32> = [segment, cluster, info, tracksID, trackEntry, blockGroup]

    /// Nanoseconds from 1970 to 2001-01-01, Matroska's date epoch.
    static let dateEpoch: Int64 = 978_307_200_000_000_000

    /// Bytes read so far.
    private(set) var offset = 0
    private(set) var tracks: [Track] = []
    /// Nanoseconds per tick of cluster and block times.
    private(set) var timecodeScale: UInt64 = 1_000_000
    /// Where the header's `DateUTC` value (8 bytes) is, from the stream's start.
    private(set) var dateOffset: Int?
    /// Where the first cluster begins: the header is every byte before it.
    private(set) var headerEnd: Int?
    /// The current cluster's time, in ticks.
    private(set) var clusterTime: UInt64 = 0

    private enum Phase {
        /// Reading an element's ID and size (the bytes so far in `pending`).
        case head
        /// Skipping the rest of a payload.
        case skip(Int)
        /// Reading an unsigned integer payload.
        case value(id: UInt32, remaining: Int, sum: UInt64)
        /// Reading the start of a block (track, relative time, flags) into `pending`.
        case blockHead(bytes: Range<Int>, simple: Bool)
    }

    private var phase = Phase.head
    private var pending: [UInt8] = []
    private var elementStart = 0
    private var referenced = false

    init() {
        pending.reserveCapacity(16)
    }

    /// The video track, when the header has one.
    var video: Track? { tracks.first { $0.isVideo } }

    /// Reads `bytes` (the stream's next), calling `visit` with each cluster and block begun.
    mutating func read(_ bytes: UnsafeRawBufferPointer, _ visit: (Element) -> Void) {
        var index = 0
        while index < bytes.count {
            switch phase {
            case .skip(let remaining):
                let step = min(remaining, bytes.count - index)
                index += step
                offset += step
                phase = remaining - step > 0 ? .skip(remaining - step) : .head
            case .value(let id, let remaining, let sum):
                let byte = bytes[index]
                index += 1
                offset += 1
                let value = sum << 8 | UInt64(byte)
                if remaining > 1 {
                    phase = .value(id: id, remaining: remaining - 1, sum: value)
                } else {
                    store(id, value)
                    phase = .head
                }
            case .blockHead(let element, let simple):
                pending.append(bytes[index])
                index += 1
                offset += 1
                let size = element.upperBound - offset
                if let (track, length) = Self.vint(pending, 0, marker: false), pending.count == length + 3 {
                    let relative = Int16(bitPattern: UInt16(pending[length]) << 8 | UInt16(pending[length + 1]))
                    let ticks = Int64(clusterTime) + Int64(relative)
                    let key = simple ? pending[length + 2] & 0x80 != 0 : !referenced
                    pending.removeAll(keepingCapacity: true)
                    phase = size > 0 ? .skip(size) : .head
                    let described = tracks.first { $0.number == track } ?? Track(number: track)
                    visit(.block(bytes: element, track: described, time: ticks * Int64(timecodeScale), key: key))
                } else if size <= 0 {
                    pending.removeAll(keepingCapacity: true)
                    phase = .head
                }
            case .head:
                if pending.isEmpty { elementStart = offset }
                pending.append(bytes[index])
                index += 1
                offset += 1
                guard let (id, idLength) = Self.id(pending), let (size, sizeLength) = Self.vint(pending, idLength, marker: false) else { continue }
                pending.removeAll(keepingCapacity: true)
                begin(id, size: size, unknown: size == Self.unknown(sizeLength), visit)
            }
        }
    }

    /// An element's header is read: what its payload is read as.
    private mutating func begin(_ id: UInt32, size: UInt64, unknown: Bool, _ visit: (Element) -> Void) {
        let length = unknown ? 0 : Int(clamping: size)
        switch id {
        case Self.cluster:
            if headerEnd == nil { headerEnd = elementStart }
            visit(.cluster(at: elementStart))
            phase = .head
        case Self.trackEntry:
            tracks.append(Track(number: 0))
            phase = .head
        case Self.blockGroup:
            referenced = false
            phase = .head
        case _ where Self.masters.contains(id) || unknown:
            phase = .head
        case Self.simpleBlock, Self.block:
            phase = length > 0 ? .blockHead(bytes: elementStart..<(offset + length), simple: id == Self.simpleBlock) : .head
        case Self.referenceBlock:
            referenced = true
            phase = length > 0 ? .skip(length) : .head
        case Self.dateUTC where length == 8:
            dateOffset = offset
            phase = .skip(length)
        case Self.timecode, Self.trackNumber, Self.trackType, Self.defaultDuration, Self.timecodeScale:
            phase = (1...8).contains(length) ? .value(id: id, remaining: length, sum: 0) : length > 0 ? .skip(length) : .head
        default:
            phase = length > 0 ? .skip(length) : .head
        }
    }

    private mutating func store(_ id: UInt32, _ value: UInt64) {
        switch id {
        case Self.timecode: clusterTime = value
        case Self.timecodeScale: timecodeScale = max(1, value)
        case Self.trackNumber where !tracks.isEmpty: tracks[tracks.count - 1].number = value
        case Self.trackType where !tracks.isEmpty: tracks[tracks.count - 1].isVideo = value == 1
        case Self.defaultDuration where !tracks.isEmpty: tracks[tracks.count - 1].defaultDuration = value
        default: break
        }
    }

    /// An element ID at the start of `bytes` (with its length marker, as the format writes IDs),
    /// and its length; nil until enough bytes are there.
    static func id(_ bytes: [UInt8]) -> (UInt32, Int)? {
        guard let first = bytes.first else { return nil }
        let length = min(4, first.leadingZeroBitCount + 1)
        guard bytes.count >= length else { return nil }
        return (bytes[0..<length].reduce(0) { $0 << 8 | UInt32($1) }, length)
    }

    /// A variable-length integer at `start` (its marker bit cleared unless `marker`), and its
    /// length; nil until enough bytes are there.
    static func vint(_ bytes: [UInt8], _ start: Int, marker: Bool) -> (UInt64, Int)? {
        guard start < bytes.count else { return nil }
        let length = min(8, bytes[start].leadingZeroBitCount + 1)
        guard bytes.count >= start + length else { return nil }
        var value = UInt64(marker ? bytes[start] : bytes[start] & (0xFF >> length))
        for byte in bytes[(start + 1)..<(start + length)] { value = value << 8 | UInt64(byte) }
        return (value, length)
    }

    /// The size value meaning "unknown" for a size `length` bytes long (all value bits set).
    static func unknown(_ length: Int) -> UInt64 {
        (UInt64(1) << (7 * UInt64(length))) - 1
    }
}
