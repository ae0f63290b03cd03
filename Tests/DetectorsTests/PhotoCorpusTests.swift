import Detectors
import Foundation
import Testing

/// The photo-like corpus's test subset (scripts/photo_corpus.py --subset: perspective, curved
/// labels, glare over one end, blur, noise, JPEG at quality 15-50, and images without a code),
/// generated at test time from its seeds (29 images): no wrong reading at all, and at least as
/// many right ones as measured when the test was written (BENCHMARKS.md, "Photo-like images").
@Suite("Barcode reader on photo-like images", .serialized)
struct PhotoCorpusTests {
    struct Entry: Decodable {
        var file: String
        var family: String
        var type: String?
        var text: String?
    }

    /// The subset, generated once per test run.
    static let corpus: Result<(URL, [Entry]), Error> = Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photo-corpus-\(UUID().uuidString)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/photo_corpus.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, directory.path, "--subset", "--pgm"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
        return (directory, entries)
    }

    /// An 8-bit binary PGM.
    static func image(_ url: URL) throws -> TestImage {
        let data = try Data(contentsOf: url)
        var fields: [String] = [], index = data.startIndex, current = ""
        while fields.count < 4, index < data.endIndex {
            let byte = data[index]
            index += 1
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, fields[0] == "P5", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
              data.endIndex - index >= width * height else { throw CocoaError(.fileReadCorruptFile) }
        var image = TestImage(width: width, height: height)
        image.pixels = [UInt8](data[index..<(index + width * height)])
        return image
    }

    /// Reads the images of `families` (all when nil); returns (right, wrong descriptions) per family.
    static func readAll(_ reader: BarcodeReader, families: Set<String>? = nil) throws -> [String: (right: Int, wrong: [String])] {
        let (directory, entries) = try corpus.get()
        var tally: [String: (right: Int, wrong: [String])] = [:]
        for entry in entries where families?.contains(entry.family) ?? true {
            let image = try Self.image(directory.appendingPathComponent(entry.file))
            let codes = BarcodeReaderTests.read(image, reader).map { "\(MetadataName.of($0.symbology)) \($0.text)" }
            let expected = entry.type.map { ["\($0) \(entry.text ?? "")"] } ?? []
            var counts = tally[entry.family] ?? (0, [])
            if !codes.isEmpty && codes == expected { counts.right += 1 } else if !codes.isEmpty { counts.wrong.append("\(entry.file): \(codes)") }
            tally[entry.family] = counts
        }
        return tally
    }

    /// Measured on this subset when the test was written (the same counts on every run: the
    /// images come from fixed seeds). The thorough passes run on the EAN/UPC families and the
    /// code-free images only: an image without a code costs all 16 passes (seconds in a debug
    /// build).
    static let thoroughMinimum = ["EAN-13": 2, "UPC-A": 2, "EAN-8": 0, "UPC-E": 2, "none": 0]
    static let liveMinimum = 7

    @Test("the thorough reader (capture scan's): no wrong reading on EAN/UPC photos and code-free ones, at least the measured right ones")
    func thorough() throws {
        let tally = try Self.readAll(BarcodeReader(passes: BarcodeReader.thorough), families: Set(Self.thoroughMinimum.keys))
        for (family, least) in Self.thoroughMinimum {
            let counts = tally[family] ?? (0, [])
            #expect(counts.wrong.isEmpty, "\(family): \(counts.wrong)")
            #expect(counts.right >= least, "\(family): \(counts.right) right, measured \(least)")
        }
    }

    @Test("the live reader (one pass a frame): no wrong reading on any image, at least the measured right ones in all")
    func live() throws {
        let tally = try Self.readAll(BarcodeReader())
        #expect(tally.values.flatMap(\.wrong).isEmpty, "\(tally.values.flatMap(\.wrong))")
        let right = tally.values.map(\.right).reduce(0, +)
        #expect(right >= Self.liveMinimum, "\(right) right, measured \(Self.liveMinimum)")
    }
}

/// `capture scan`'s short type names, which the corpus's manifest uses.
enum MetadataName {
    static func of(_ symbology: Symbology) -> String {
        symbology.rawValue.lowercased()
    }
}
