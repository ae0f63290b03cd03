import Foundation
import Testing
@testable import CaptureKit

/// Files whose headers claim huge pictures are refused by MetadataFileScanner before anything
/// decodes them, each error naming the file; the sizes come from the headers themselves.
@Suite struct MediaFileHeaderTests {
    /// A JPEG's start: SOI, an APP0 segment, then a baseline frame header of `width` x `height`.
    static func jpeg(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xC0, 0x00, 0x11, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
            + Array(repeating: 0, count: 9) + [0xFF, 0xD9]
    }

    @Test("PNG, JPEG, GIF, BMP and PNM sizes are read from their headers; an ELF and text are named")
    func sizes() {
        func size(_ bytes: [UInt8], jpeg: (Int, Int)? = nil) -> String {
            let header = MediaFileHeader.identify(bytes, jpegSize: { jpeg })
            return header.size.map { "\(header.format) \($0.width)x\($0.height)" } ?? "\(header.format) \(header.kind)"
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20]
        #expect(size(png) == "PNG 20000x20000")
        #expect(size(Self.jpeg(width: 60000, height: 50000), jpeg: (60000, 50000)) == "JPEG 60000x50000")
        #expect(size(Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF]) == "GIF 65535x65535")
        #expect(size(Array("BM".utf8) + Array(repeating: 0, count: 12) + [40, 0, 0, 0, 0x10, 0x27, 0, 0, 0xF0, 0xD8, 0xFF, 0xFF]) == "BMP 10000x10000")
        #expect(size(Array("P5\n# a comment\n30000 40000\n255\n".utf8)) == "PNM 30000x40000")
        #expect(size([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1]) == " other(description: \"an ELF executable\")")
        #expect(size(Array("hello\n".utf8)) == " other(description: \"text\")")
    }

    @Test("a JPEG claiming 60000x50000 is refused before decoding, naming the file, its size and the limit; a lower limit refuses less")
    func jpegBomb() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(Self.jpeg(width: 60000, height: 50000)).write(to: file)
        let error = await #expect(throws: CaptureError.self) {
            for try await _ in MetadataFileScanner().scan(file) {}
        }
        #expect(error?.code == .outOfRange)
        #expect(error?.message.hasPrefix("'\(file.path)' is a 60000x50000 JPEG (3000 megapixels), over the limit of 100 megapixels") == true,
                "\(String(describing: error))")
        try Data(Self.jpeg(width: 200, height: 100)).write(to: file)
        let small = await #expect(throws: CaptureError.self) {
            for try await _ in MetadataFileScanner(maxPixels: 10_000).scan(file) {}
        }
        #expect(small?.message.contains("is a 200x100 JPEG (0.02 megapixels), over the limit of 0.01 megapixels (10000 pixels)") == true,
                "\(String(describing: small))")
    }
}
