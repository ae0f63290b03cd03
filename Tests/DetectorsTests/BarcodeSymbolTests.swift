import Detectors
import Testing

/// zxing-cpp's writer through the shim: every symbology encodes, draws and reads back with its
/// type and text; EAN/UPC bars equal zint's; text a symbology cannot carry is refused.
@Suite("Barcode writer")
struct BarcodeSymbolTests {
    /// What is encoded, and what a reader must report (check digits computed by the writer).
    struct Sample: Sendable, CustomStringConvertible {
        var symbology: Symbology
        var input: String
        var expected: String
        var description: String { "\(symbology) \(input)" }
    }

    static let samples: [Sample] = [
        Sample(symbology: .upce, input: "0123456", expected: "01234565"),
        Sample(symbology: .upce, input: "123457", expected: "01234572"),
        Sample(symbology: .upce, input: "11234562", expected: "11234562"),
        Sample(symbology: .code39, input: "CAPTURE KIT", expected: "CAPTURE KIT"),
        Sample(symbology: .code39Mod43, input: "ABC123", expected: "ABC123"),
        Sample(symbology: .ean13, input: "400638133393", expected: "4006381333931"),
        Sample(symbology: .ean13, input: "0036000291452", expected: "0036000291452"),
        Sample(symbology: .ean8, input: "1234567", expected: "12345670"),
        Sample(symbology: .code93, input: "CODE93 TEST", expected: "CODE93 TEST"),
        Sample(symbology: .code128, input: "CaptureKit 128", expected: "CaptureKit 128"),
        Sample(symbology: .pdf417, input: "PDF417 CaptureKit", expected: "PDF417 CaptureKit"),
        Sample(symbology: .qr, input: "https://capturekit.dev/qr", expected: "https://capturekit.dev/qr"),
        Sample(symbology: .qr, input: "Grüße, 東京", expected: "Grüße, 東京"),
        Sample(symbology: .aztec, input: "Aztec CaptureKit", expected: "Aztec CaptureKit"),
        Sample(symbology: .dataMatrix, input: "DataMatrix CaptureKit", expected: "DataMatrix CaptureKit"),
        Sample(symbology: .interleaved2of5, input: "12345678", expected: "12345678"),
        Sample(symbology: .itf14, input: "1234567890123", expected: "12345678901231"),
        Sample(symbology: .itf14, input: "00012345678905", expected: "00012345678905"),
    ]

    /// The symbol's rows as drawn by the test images (a linear code's one row, PDF417's rows).
    static func rows(_ symbol: BarcodeSymbol) -> [[Bool]] {
        (0..<symbol.height).map { y in (0..<symbol.width).map { symbol[x: $0, y: y] } }
    }

    @Test("encode, draw, read back: the reader asked for every symbology reports exactly this type and text", arguments: samples)
    func roundTrip(_ sample: Sample) throws {
        let symbol = try BarcodeSymbol(encoding: sample.input, as: sample.symbology)
        #expect(symbol.text == sample.expected)
        #expect(symbol.modules.count == symbol.width * symbol.height && symbol.modules.contains(1) && symbol.modules.contains(0))
        #expect(symbol.isLinear == (symbol.height == 1))
        let reader = BarcodeReader(maxCodes: 4)
        for module in [2, 3] {
            let image = TestImage.symbol(Self.rows(symbol), module: module)
            let codes = BarcodeReaderTests.read(image, reader)
            #expect(codes.map { "\($0.symbology) \($0.text)" } == ["\(sample.symbology) \(sample.expected)"], "module \(module)")
        }
    }

    @Test("EAN-13, EAN-8 and UPC-E bars (check digits included) are zint's, module for module",
          arguments: [(Symbology.ean13, "EANX", "400638133393"), (.ean8, "EANX", "1234567"), (.upce, "UPCE", "0123456"),
                      (.ean13, "EANX", "978020137962")])
    func sameBarsAsZint(_ symbology: Symbology, _ zint: String, _ digits: String) throws {
        let symbol = try BarcodeSymbol(encoding: digits, as: symbology)
        let reference = try TestImage.modules(zint, digits)
        #expect(reference.count == 1)
        let bars = Self.rows(symbol)[0]
        // zint's dump pads its last hex group with light modules.
        #expect(Array(reference[0].prefix(bars.count)) == bars)
        #expect(reference[0].dropFirst(bars.count).allSatisfy { !$0 })
    }

    @Test("text a symbology cannot carry is an error naming the reason", arguments: [
        (Symbology.ean13, "4006381333932"), (.ean13, "40063813339"), (.ean8, "12345671"), (.upce, "21234565"), (.upce, "01234564"),
        (.itf14, "12345678901230"), (.interleaved2of5, "12345"), (.code39, "lower"), (.code39Mod43, "A*B"), (.ean13, "40063813339X"),
        (.qr, ""),
    ])
    func refuses(_ symbology: Symbology, _ text: String) {
        #expect(throws: BarcodeSymbol.EncodingError.self) { try BarcodeSymbol(encoding: text, as: symbology) }
        do {
            _ = try BarcodeSymbol(encoding: text, as: symbology)
        } catch {
            #expect(error.symbology == symbology && error.text == text && !error.reason.isEmpty, "\(error)")
        }
    }
}
