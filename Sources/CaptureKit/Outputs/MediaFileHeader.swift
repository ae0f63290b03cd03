import Foundation

/// What a file's first bytes say it is, and for a still image the size its header claims,
/// read before anything decodes it: a few bytes can claim a picture of gigabytes.
struct MediaFileHeader: Equatable {
    /// What the file holds.
    enum Kind: Equatable {
        /// A still image: PNG, JPEG, GIF, BMP or PNM.
        case image
        /// A video container or stream GStreamer's decodebin reads.
        case video
        /// Anything else; `description` says what, when it is known (`an ELF executable`).
        case other(description: String)
    }

    /// What the file holds.
    var kind: Kind
    /// The format's name: `PNG`, `Matroska`…; empty for `.other`.
    var format: String
    /// The image's width and height as its header claims; nil for videos and other files, and
    /// for an image whose header is cut short.
    var size: (width: Int, height: Int)?

    static func == (lhs: MediaFileHeader, rhs: MediaFileHeader) -> Bool {
        lhs.kind == rhs.kind && lhs.format == rhs.format && lhs.size?.width == rhs.size?.width && lhs.size?.height == rhs.size?.height
    }

    /// The formats scan reads, for messages.
    static let readable = "PNG, JPEG, GIF, BMP and PNM images; MP4, MOV, Matroska, WebM, AVI, MPEG, Ogg, FLV and ASF videos"

    /// The header of the file at `url`, reading at most its first 64 KiB and, for a JPEG, the
    /// segment headers up to its frame header.
    static func read(_ url: URL) throws -> MediaFileHeader {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = [UInt8](try handle.read(upToCount: 64 * 1024) ?? Data())
        return identify(head, jpegSize: { try? jpegSize(handle) })
    }

    /// Identifies `head`, the file's first bytes; `jpegSize` finds a JPEG's size.
    static func identify(_ head: [UInt8], jpegSize: () -> (Int, Int)?) -> MediaFileHeader {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        func big32(_ offset: Int) -> Int? {
            guard head.count >= offset + 4 else { return nil }
            return head[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func little(_ offset: Int, _ count: Int) -> Int? {
            guard head.count >= offset + count else { return nil }
            return head[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        func image(_ format: String, _ width: Int?, _ height: Int?) -> MediaFileHeader {
            MediaFileHeader(kind: .image, format: format, size: width.flatMap { w in height.map { (w, $0) } })
        }
        func video(_ format: String) -> MediaFileHeader { MediaFileHeader(kind: .video, format: format, size: nil) }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return image("PNG", ascii("IHDR", at: 12) ? big32(16) : nil, ascii("IHDR", at: 12) ? big32(20) : nil)
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            let size = jpegSize()
            return image("JPEG", size?.0, size?.1)
        }
        if ascii("GIF87a") || ascii("GIF89a") { return image("GIF", little(6, 2), little(8, 2)) }
        if ascii("BM"), let header = little(14, 4) {
            if header == 12 { return image("BMP", little(18, 2), little(20, 2)) }
            // A negative height is a top-down bitmap.
            let signed = { (value: Int) in abs(Int(Int32(truncatingIfNeeded: value))) }
            return image("BMP", little(18, 4).map(signed), little(22, 4).map(signed))
        }
        if head.count >= 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(head[1]),
           [0x20, 0x09, 0x0A, 0x0D].contains(head[2]) {
            let numbers = pnmNumbers(head)
            return image("PNM", numbers.first, numbers.dropFirst().first)
        }
        if ["ftyp", "moov", "mdat", "free", "wide", "skip"].contains(where: { ascii($0, at: 4) }) { return video("MP4/MOV") }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return video("Matroska/WebM") }
        if ascii("RIFF"), ascii("AVI ", at: 8) { return video("AVI") }
        if ascii("OggS") { return video("Ogg") }
        if ascii("FLV") { return video("FLV") }
        if starts([0x30, 0x26, 0xB2, 0x75]) { return video("ASF") }
        if starts([0x00, 0x00, 0x01, 0xBA]) || starts([0x00, 0x00, 0x01, 0xB3]) { return video("MPEG") }
        if head.count >= 189, head[0] == 0x47, head[188] == 0x47 { return video("MPEG-TS") }
        return MediaFileHeader(kind: .other(description: describeOther(head)), format: "", size: nil)
    }

    /// The width and height of a PNM header: its first two numbers, comments skipped.
    private static func pnmNumbers(_ head: [UInt8]) -> [Int] {
        var numbers: [Int] = []
        var index = 2
        while index < head.count, numbers.count < 2 {
            let byte = head[index]
            if byte == UInt8(ascii: "#") {
                while index < head.count, head[index] != 0x0A { index += 1 }
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                var value = 0
                while index < head.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(head[index]) {
                    value = min(value * 10 + Int(head[index] - UInt8(ascii: "0")), Int(Int32.max))
                    index += 1
                }
                numbers.append(value)
                continue
            } else if ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
                break
            }
            index += 1
        }
        return numbers
    }

    /// Says what a file no reader is for is, where its first bytes tell.
    private static func describeOther(_ head: [UInt8]) -> String {
        if head.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return "an ELF executable" }
        if head.starts(with: Array("%PDF".utf8)) { return "a PDF document" }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        if head.isEmpty { return "empty" }
        if head.prefix(512).allSatisfy({ (0x20...0x7E).contains($0) || [0x09, 0x0A, 0x0D].contains($0) }) { return "text" }
        return "unknown data starting " + head.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
    }

    /// A JPEG's width and height from its frame header (SOF0-SOF15 but DHT, JPG and DAC),
    /// walking the segments from the start of the file.
    private static func jpegSize(_ handle: FileHandle) throws -> (Int, Int)? {
        var offset: UInt64 = 2
        for _ in 0..<10_000 {
            try handle.seek(toOffset: offset)
            guard let bytes = try handle.read(upToCount: 9).map([UInt8].init), bytes.count >= 4, bytes[0] == 0xFF else { return nil }
            let marker = bytes[1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }
            let length = Int(bytes[2]) << 8 | Int(bytes[3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard bytes.count >= 9 else { return nil }
                return (Int(bytes[7]) << 8 | Int(bytes[8]), Int(bytes[5]) << 8 | Int(bytes[6]))
            }
            guard length >= 2 else { return nil }
            offset += 2 + UInt64(length)
        }
        return nil
    }
}
