import Foundation
import Testing
@testable import Detectors

/// Every symbology of seed 003, encoded at test time by Debian's zint, drawn, degraded the ways
/// a camera degrades them, and decoded with the right type and text.
@Suite("Barcode reader")
struct BarcodeReaderTests {
    /// A symbology with what zint is asked to encode and what the reader must return.
    struct Sample: Sendable, CustomStringConvertible {
        var symbology: Symbology
        var zint: String
        var data: String
        var options: [String] = []
        var expected: String
        var description: String { "\(symbology)" + (zint == "UPCA" ? " (UPC-A)" : "") }
    }

    static let samples: [Sample] = [
        Sample(symbology: .upce, zint: "UPCE", data: "0123456", expected: "01234565"),
        Sample(symbology: .code39, zint: "CODE39", data: "CAPTURE KIT", expected: "CAPTURE KIT"),
        Sample(symbology: .code39Mod43, zint: "CODE39", data: "ABC123", options: ["--vers=1"], expected: "ABC123"),
        Sample(symbology: .ean13, zint: "EANX", data: "400638133393", expected: "4006381333931"),
        Sample(symbology: .ean13, zint: "UPCA", data: "03600029145", expected: "0036000291452"),
        Sample(symbology: .ean8, zint: "EANX", data: "1234567", expected: "12345670"),
        Sample(symbology: .code93, zint: "CODE93", data: "CODE93 TEST", expected: "CODE93 TEST"),
        Sample(symbology: .code128, zint: "CODE128", data: "CaptureKit 128", expected: "CaptureKit 128"),
        Sample(symbology: .pdf417, zint: "PDF417", data: "PDF417 CaptureKit", expected: "PDF417 CaptureKit"),
        Sample(symbology: .qr, zint: "QRCODE", data: "https://capturekit.dev/qr", expected: "https://capturekit.dev/qr"),
        Sample(symbology: .aztec, zint: "AZTEC", data: "Aztec CaptureKit", expected: "Aztec CaptureKit"),
        Sample(symbology: .dataMatrix, zint: "DATAMATRIX", data: "DataMatrix CaptureKit", expected: "DataMatrix CaptureKit"),
        Sample(symbology: .interleaved2of5, zint: "C25INTER", data: "12345678", expected: "12345678"),
        Sample(symbology: .itf14, zint: "ITF14", data: "1234567890123", expected: "12345678901231"),
    ]

    /// How an image is degraded.
    enum Degradation: String, CaseIterable, Sendable {
        case none, half, double, rotated90, rotated180, rotated270, rotated15, blurred, noisy, lowContrast, inverted

        func apply(_ image: TestImage) -> TestImage {
            switch self {
            case .none: image
            case .half: image.scaled(0.5)
            case .double: image.scaled(2)
            case .rotated90: image.rotated(90)
            case .rotated180: image.rotated(180)
            case .rotated270: image.rotated(270)
            case .rotated15: image.rotated(15)
            case .blurred: image.blurred(1)
            case .noisy: image.noisy(24)
            case .lowContrast: image.contrast(low: 90, high: 160)
            case .inverted: image.inverted()
            }
        }
    }

    static func image(_ sample: Sample) throws -> TestImage {
        let rows = try TestImage.modules(sample.zint, sample.data, options: sample.options)
        return TestImage.symbol(rows, module: 4)
    }

    static func read(_ image: TestImage, _ reader: BarcodeReader) -> [BarcodeReader.Code] {
        image.pixels.withUnsafeBytes { reader.read($0, width: image.width, height: image.height, rowStride: image.width) }
    }

    @Test("each symbology decodes with its type and text, drawn plain and degraded", arguments: samples)
    func decodes(_ sample: Sample) throws {
        let image = try Self.image(sample)
        let reader = BarcodeReader(passes: BarcodeReader.thorough)
        var failed: [String] = []
        for degradation in Degradation.allCases {
            let codes = Self.read(degradation.apply(image), reader)
            if !codes.contains(where: { $0.symbology == sample.symbology && $0.text == sample.expected }) {
                failed.append("\(degradation): \(codes.map { "\($0.symbology) \($0.text)" })")
            }
            #expect(codes.allSatisfy { $0.text == sample.expected }, "no wrong reading (\(degradation)): \(codes)")
        }
        #expect(failed.isEmpty, "\(sample) missed: \(failed.joined(separator: "; "))")
    }

    @Test("2-D codes drawn 8 pixels a module on the 8-pixel grid in video's levels (16 to 235) are read in one live pass",
          arguments: samples.filter { [.qr, .aztec, .dataMatrix, .pdf417].contains($0.symbology) })
    func gridAlignedVideoLevels(_ sample: Sample) throws {
        // Every 8x8 block is one module: zxing-cpp 2.3's local-average binarizer finds no block
        // with contrast and, left alone, thresholds the whole image at 0 (blank unless dark is 0).
        // A generated image or screen capture made into limited-range video is exactly this.
        let image = TestImage.symbol(try TestImage.modules(sample.zint, sample.data, options: sample.options), module: 8)
            .contrast(low: 16, high: 235)
        let codes = Self.read(image, BarcodeReader(passes: BarcodeReader.live))
        #expect(codes.map(\.text) == [sample.expected], "\(codes)")
    }
}

/// What must not happen: a process abort, a code where there is none, a code outside the region.
@Suite("Barcode reader safety")
struct BarcodeReaderSafetyTests {
    /// A 1280x720 frame with two copies of one EAN-13, a Code 128 and a QR code.
    static func busyFrame() throws -> TestImage {
        var frame = TestImage(width: 1280, height: 720, fill: 200)
        let ean = TestImage.symbol(try TestImage.modules("EANX", "400638133393"), module: 3)
        let code128 = TestImage.symbol(try TestImage.modules("CODE128", "CaptureKit 128"), module: 3)
        let qr = TestImage.symbol(try TestImage.modules("QRCODE", "https://capturekit.dev/qr"), module: 5)
        for (image, x, y) in [(ean, 20, 20), (ean, 20, 380), (code128, 640, 20), (qr, 700, 330)] {
            for row in 0..<image.height where row + y < 720 {
                for column in 0..<image.width where column + x < 1280 { frame[column + x, row + y] = image[column, row] }
            }
        }
        return frame
    }

    @Test("frames that abort zxing-cpp 1.4's default multi-symbol read (Result.cpp:140) decode without taking the process down")
    func noAbort() throws {
        // Debian's zxing-cpp 1.4 asserts when one ReadBarcodes call finds the same linear code
        // twice: a single EAN-13 in a frame over 500 pixels (its downscaled layer finds it again),
        // or two copies of one label. Reaching the expectations at all is the proof.
        let single = TestImage.symbol(try TestImage.modules("EANX", "400638133393"), module: 3).placed(in: 1280, 720, x: 300, y: 200)
        let reader = BarcodeReader(maxCodes: 8)
        let one = BarcodeReaderTests.read(single, reader)
        #expect(one.map(\.text) == ["4006381333931"])
        let found = BarcodeReaderTests.read(try Self.busyFrame(), reader)
        let texts = found.map { "\($0.symbology) \($0.text)" }.sorted()
        #expect(texts == ["code128 CaptureKit 128", "ean13 4006381333931", "ean13 4006381333931", "qr https://capturekit.dev/qr"], "\(texts)")
    }

    @Test("images without codes give none, however hard the reader tries")
    func noFalsePositives() throws {
        let reader = BarcodeReader(passes: BarcodeReader.thorough)
        var images: [(String, TestImage)] = [("noise", TestImage(width: 640, height: 480, fill: 128).noisy(60))]
        var gradient = TestImage(width: 640, height: 480)
        for y in 0..<480 { for x in 0..<640 { gradient[x, y] = UInt8((x + y) * 255 / 1118) } }
        images.append(("gradient", gradient))
        var stripes = TestImage(width: 640, height: 480)
        for y in 0..<480 { for x in 0..<640 { stripes[x, y] = (x / 7) % 2 == 0 ? 30 : 220 } }
        images.append(("regular stripes", stripes))
        var checkers = TestImage(width: 640, height: 480)
        for y in 0..<480 { for x in 0..<640 { checkers[x, y] = (x / 6 + y / 6) % 2 == 0 ? 0 : 255 } }
        images.append(("checkerboard", checkers))
        var bars = TestImage(width: 640, height: 480), state: UInt64 = 11
        var x = 40
        while x < 600 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let width = Int(state >> 60) % 4 + 1
            if state >> 32 & 1 == 1 { for column in x..<(x + width * 2) { for y in 100..<380 { bars[column, y] = 0 } } }
            x += width * 2
        }
        images.append(("random bars", bars))
        for (name, image) in images {
            let codes = BarcodeReaderTests.read(image, reader)
            #expect(codes.isEmpty, "\(name): \(codes.map { "\($0.symbology) \($0.text)" })")
        }
    }

    @Test("Aztec and Data Matrix codes away from the frame's centre are found (zxing 1.4 alone looks near the centre)",
          arguments: [(x: 40, y: 30), (x: 1000, y: 480), (x: 560, y: 40)])
    func offCentreMatrixCodes(x: Int, y: Int) throws {
        let aztec = TestImage.symbol(try TestImage.modules("AZTEC", "Aztec CaptureKit"), module: 4)
        let dataMatrix = TestImage.symbol(try TestImage.modules("DATAMATRIX", "DataMatrix CaptureKit"), module: 3)
        for (symbol, expected) in [(aztec, "aztec Aztec CaptureKit"), (dataMatrix, "dataMatrix DataMatrix CaptureKit")] {
            let frame = symbol.placed(in: 1280, 720, x: x, y: y, background: 170)
            let codes = BarcodeReaderTests.read(frame, BarcodeReader())
            #expect(codes.map { "\($0.symbology) \($0.text)" } == [expected], "at \(x),\(y)")
            // Its corners are on the symbol.
            #expect(codes.first?.corners.allSatisfy { $0.x >= Double(x) && $0.x <= Double(x + symbol.width) && $0.y >= Double(y) && $0.y <= Double(y + symbol.height) } == true)
        }
    }

    /// EAN-13s whose left halves (start guard, six digits, the centre guard and the next bar)
    /// spell a valid UPC-E (number system 1, check digit = the EAN-13's first digit), and that UPC-E.
    static let halves = [("139825979190", "13982591"), ("774833788762", "17483377"), ("732860129040", "13286017")]

    @Test("the left half of an EAN-13 under glare is not read as the UPC-E its bars spell; those bars alone on a label are",
          arguments: halves)
    func fragmentUnderGlare(_ ean: String, _ upce: String) throws {
        let bars = try TestImage.modules("EANX", ean)[0]
        // Paper 200, ink 40; from the 52nd module on, saturated glare (brighter than the paper).
        func label(glare: Bool) -> TestImage {
            var image = TestImage.symbol([bars], module: 2).placed(in: 640, 360, x: 60, y: 60, background: 120)
            for y in 60..<(60 + 60 * 2) {
                for x in 60..<(60 + (bars.count + 20) * 2) {
                    let glared = glare && x >= 60 + (10 + 51) * 2
                    image[x, y] = glared ? 255 : (image[x, y] < 128 ? 40 : 200)
                    if !glare && x >= 60 + (10 + 51) * 2 { image[x, y] = 200 }
                }
            }
            return image
        }
        let reader = BarcodeReader(passes: BarcodeReader.thorough)
        #expect(BarcodeReaderTests.read(label(glare: true), reader).isEmpty, "no wrong UPC-E")
        #expect(BarcodeReaderTests.read(label(glare: false), reader).map { "\($0.symbology) \($0.text)" } == ["upce \(upce)"])
    }

    @Test("a region of interest is the only place searched; corners stay in whole-image pixels")
    func regionOfInterest() throws {
        let frame = try Self.busyFrame()
        let reader = BarcodeReader(maxCodes: 8)
        let region = BarcodeReader.Region(x: 640, y: 300, width: 640, height: 420)
        let codes = frame.pixels.withUnsafeBytes { reader.read($0, width: 1280, height: 720, rowStride: 1280, region: region) }
        #expect(codes.map(\.text) == ["https://capturekit.dev/qr"])
        let corners = try #require(codes.first?.corners)
        #expect(corners.allSatisfy { $0.x > 700 && $0.x < 1000 && $0.y > 330 && $0.y < 640 }, "\(corners)")
        #expect([UInt8]().withUnsafeBytes { reader.read($0, width: 10, height: 10, rowStride: 10) }.isEmpty, "a buffer too small")
    }
}
