import Foundation
import Testing
@testable import CaptureKit

/// The Matroska reader on a stream built element by element, as `matroskamux` streams one
/// (unknown-size segment and clusters): the header's tracks, scale and date; clusters and
/// blocks with their times and key flags; the same read whole or a byte at a time.
@Suite("Matroska stream")
struct MatroskaStreamTests {
    static func element(_ id: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 0x4000)
        return id + [0x40 | UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }

    static func unsigned(_ id: [UInt8], _ value: UInt64, bytes: Int) -> [UInt8] {
        element(id, (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(bytes - 1 - $0))) })
    }

    /// An unknown-size master's header (eight-byte size, all ones).
    static func open(_ id: [UInt8]) -> [UInt8] { id + [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] }

    static func block(_ id: [UInt8], track: UInt8, relative: Int16, flags: UInt8, payload: Int) -> [UInt8] {
        element(id, [0x80 | track, UInt8(truncatingIfNeeded: relative >> 8), UInt8(truncatingIfNeeded: relative), flags] + [UInt8](repeating: 0x5A, count: payload))
    }

    static let date = Date(timeIntervalSince1970: 1_800_000_000.25)

    /// Video track 1 at 30 fps, audio track 2; two clusters at 0 and 1 s (ticks of 1 ms).
    static var stream: (bytes: [UInt8], header: Int, clusters: [Int]) {
        let nanoseconds = Int64(date.timeIntervalSince1970 * 1e9) - MatroskaStream.dateEpoch
        var bytes = element([0x1A, 0x45, 0xDF, 0xA3], unsigned([0x42, 0x82], 0x6D6B76, bytes: 3)) + open([0x18, 0x53, 0x80, 0x67])
        bytes += element([0x15, 0x49, 0xA9, 0x66], unsigned([0x2A, 0xD7, 0xB1], 1_000_000, bytes: 3) + unsigned([0x44, 0x61], UInt64(bitPattern: nanoseconds), bytes: 8))
        let video = unsigned([0xD7], 1, bytes: 1) + unsigned([0x83], 1, bytes: 1) + unsigned([0x23, 0xE3, 0x83], 33_333_333, bytes: 4)
        let audio = unsigned([0xD7], 2, bytes: 1) + unsigned([0x83], 2, bytes: 1)
        bytes += element([0x16, 0x54, 0xAE, 0x6B], element([0xAE], video) + element([0xAE], audio))
        bytes += element([0x12, 0x54, 0xC3, 0x67], [UInt8](repeating: 0, count: 20))
        let header = bytes.count
        var clusters: [Int] = []
        for (index, time) in [UInt64(0), 1000].enumerated() {
            clusters.append(bytes.count)
            bytes += open([0x1F, 0x43, 0xB6, 0x75]) + unsigned([0xE7], time, bytes: 2)
            bytes += block([0xA3], track: 1, relative: 0, flags: 0x80, payload: 300 + index)
            bytes += block([0xA3], track: 2, relative: 5, flags: 0x80, payload: 40)
            // A grouped delta frame: its reference block comes first.
            bytes += element([0xA0], unsigned([0xFB], 0xFF, bytes: 1) + block([0xA1], track: 1, relative: 33, flags: 0, payload: 200))
        }
        return (bytes, header, clusters)
    }

    static func read(_ bytes: [UInt8], step: Int) -> (MatroskaStream, [MatroskaStream.Element]) {
        var reader = MatroskaStream()
        var elements: [MatroskaStream.Element] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            bytes[offset..<end].withUnsafeBytes { reader.read($0) { elements.append($0) } }
            offset = end
        }
        return (reader, elements)
    }

    @Test("whole, or a byte at a time: the header's tracks, scale and date; each cluster and block with its time and key flag")
    func readsElements() throws {
        let (bytes, header, clusters) = Self.stream
        let (whole, elements) = Self.read(bytes, step: bytes.count)
        let (split, bytewise) = Self.read(bytes, step: 1)
        #expect(elements == bytewise)
        #expect(whole.tracks == split.tracks && whole.headerEnd == header && split.headerEnd == header)
        #expect(whole.tracks == [MatroskaStream.Track(number: 1, isVideo: true, defaultDuration: 33_333_333), MatroskaStream.Track(number: 2)])
        #expect(whole.timecodeScale == 1_000_000 && whole.offset == bytes.count)
        let dateOffset = try #require(whole.dateOffset)
        let stored = Int64(bitPattern: bytes[dateOffset..<(dateOffset + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        #expect(abs(Double(stored + MatroskaStream.dateEpoch) / 1e9 - Self.date.timeIntervalSince1970) < 1e-6)
        let summary = elements.map { element -> String in
            switch element {
            case .cluster(let at): "cluster \(clusters.firstIndex(of: at).map(String.init) ?? "at \(at)")"
            case .block(let range, let track, let time, let key): "\(track.number)@\(time / 1_000_000)\(key ? "k" : "") \(range.count)"
            }
        }
        #expect(summary == ["cluster 0", "1@0k 307", "2@5k 47", "1@33 207", "cluster 1", "1@1000k 308", "2@1005k 47", "1@1033 207"], "\(summary)")
    }

    @Test("a stream cut mid-block: the blocks before it are read, and the cut one ends past the bytes")
    func cutShort() {
        let (bytes, _, clusters) = Self.stream
        let cut = Array(bytes[..<(clusters[1] + 40)])
        let (_, elements) = Self.read(cut, step: 7)
        guard case .block(let range, _, let time, _) = elements.last else {
            Issue.record("no block read: \(elements)")
            return
        }
        #expect(time == 1_000_000_000 && range.upperBound > cut.count)
        #expect(elements.count == 6)
    }
}
