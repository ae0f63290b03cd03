import Foundation
import Testing
@testable import CaptureKit

// Round-trip tests for the QR Code and EAN-13 encoders: every symbol is rasterised to a PGM
// image and decoded by an independent reader, `zbarimg` (Debian/Ubuntu package `zbar-tools`).

// MARK: - Test-only rasterisation and decoding helpers

/// Test-only helpers that rasterise encoded symbols to 8-bit grayscale PGM and decode them with zbarimg.
private enum CodeRaster {
    /// Binary PGM (P5) file with 8-bit samples; `pixels` is row-major, 0 = black, 255 = white.
    static func pgm(width: Int, height: Int, pixels: [UInt8]) -> Data {
        precondition(pixels.count == width * height)
        var data = Data("P5\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: pixels)
        return data
    }

    /// Renders a QR Code with a `quietZone`-module light border, each module `scale`×`scale` pixels.
    static func pgm(_ code: QRCode, scale: Int = 4, quietZone: Int = 4) -> Data {
        let side = (code.size + 2 * quietZone) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<code.size {
            for x in 0..<code.size where code[x, y] {
                for py in 0..<scale {
                    let row = ((y + quietZone) * scale + py) * side
                    for px in 0..<scale {
                        pixels[row + (x + quietZone) * scale + px] = 0
                    }
                }
            }
        }
        return pgm(width: side, height: side, pixels: pixels)
    }

    /// Renders a 1-D barcode (`true` = bar) with `quietZone` light modules left and right,
    /// `verticalMargin` light modules above and below, and bars `barHeight` modules tall.
    static func pgm(bars modules: [Bool], scale: Int = 3, quietZone: Int = 11, barHeight: Int = 50, verticalMargin: Int = 5) -> Data {
        let width = (modules.count + 2 * quietZone) * scale
        let height = (barHeight + 2 * verticalMargin) * scale
        var pixels = [UInt8](repeating: 255, count: width * height)
        for row in (verticalMargin * scale)..<((verticalMargin + barHeight) * scale) {
            for (index, bar) in modules.enumerated() where bar {
                for px in 0..<scale {
                    pixels[row * width + (index + quietZone) * scale + px] = 0
                }
            }
        }
        return pgm(width: width, height: height, pixels: pixels)
    }

    /// Location of the `zbarimg` executable, if installed.
    static let zbarimg: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        return candidates
            .map { URL(fileURLWithPath: $0).appendingPathComponent("zbarimg") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Writes `image` to a fresh temporary file and returns what `zbarimg --raw -q` prints
    /// (one trailing newline removed), or `nil` if it found no symbol.
    static func decode(_ image: Data, extraArguments: [String] = []) throws -> String? {
        let executable = try #require(zbarimg, "zbarimg not found; install it with `apt-get install -y zbar-tools`")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CaptureKitCodeEncoderTests", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("\(UUID().uuidString).pgm")
        try image.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let process = Process()
        process.executableURL = executable
        process.arguments = extraArguments + ["--raw", "-q", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

/// Deterministic printable-ASCII text of `length` characters.
private func sampleText(length: Int, seed: Int = 0) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -_.:/?=&%+")
    var state = UInt64(truncatingIfNeeded: seed &+ 0x9E37_79B9)
    var result = ""
    for _ in 0..<length {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        result.append(alphabet[Int(state >> 33) % alphabet.count])
    }
    return result
}

/// A 150-character ASCII string; it needs version 7 or higher at every error-correction level.
private let longText = String(String(repeating: "CaptureKit virtual camera frame 0123456789; ", count: 4).prefix(150))

// MARK: - QR Code

/// zbarimg round trips, capacities, masks and function-pattern checks for ``QRCodeEncoder``.
@Suite("QR Code encoder")
struct QRCodeEncoderTests {
    static let texts = [
        "CaptureKit",
        "https://example.com/capturekit/virtual-camera?frame=12345",
        longText,
        "Grüße",
        "A",
        "Kamera 📷 → «Bild» ✓ 日本語",
    ]

    @Test("Round-trips through zbarimg", arguments: texts, QRCode.ErrorCorrection.allCases)
    func roundTrip(text: String, level: QRCode.ErrorCorrection) throws {
        let code = try QRCodeEncoder.encode(text, errorCorrection: level)
        #expect(code.errorCorrection == level)
        #expect(code.size == 17 + 4 * code.version)
        #expect(code.modules.count == code.size * code.size)
        #expect(try CodeRaster.decode(CodeRaster.pgm(code)) == text)
    }

    @Test("Default error-correction level is M")
    func defaultLevel() throws {
        let code = try QRCodeEncoder.encode("CaptureKit")
        #expect(code.errorCorrection == .medium)
        #expect(code == (try QRCodeEncoder.encode("CaptureKit", errorCorrection: .medium)))
    }

    @Test("150-character text needs version ≥ 7 (version information)", arguments: QRCode.ErrorCorrection.allCases)
    func longTextUsesVersionInformation(level: QRCode.ErrorCorrection) throws {
        #expect(longText.utf8.count == 150)
        let code = try QRCodeEncoder.encode(longText, errorCorrection: level)
        #expect(code.version >= 7)
        #expect(try CodeRaster.decode(CodeRaster.pgm(code)) == longText)
    }

    @Test("Known byte-mode capacities (ISO/IEC 18004 table 7)")
    func capacities() {
        // version: [L, M, Q, H]
        let table: [Int: [Int]] = [
            1: [17, 14, 11, 7], 2: [32, 26, 20, 14], 3: [53, 42, 32, 24], 4: [78, 62, 46, 34],
            5: [106, 84, 60, 44], 6: [134, 106, 74, 58], 7: [154, 122, 86, 64], 8: [192, 152, 108, 84],
            9: [230, 180, 130, 98], 10: [271, 213, 151, 119], 40: [2953, 2331, 1663, 1273],
        ]
        for (version, expected) in table {
            for (level, capacity) in zip(QRCode.ErrorCorrection.allCases, expected) {
                #expect(QRCodeEncoder.maximumByteCount(version: version, errorCorrection: level) == capacity,
                        "version \(version) \(level)")
            }
        }
    }

    @Test("Smallest fitting version is chosen and decodes, versions 1–40", arguments: QRCodeEncoder.versions)
    func everyVersion(version: Int) throws {
        for level in QRCode.ErrorCorrection.allCases {
            let capacity = QRCodeEncoder.maximumByteCount(version: version, errorCorrection: level)
            let text = sampleText(length: capacity, seed: version * 4 + level.tableIndex)
            let code = try QRCodeEncoder.encode(text, errorCorrection: level)
            #expect(code.version == version, "\(level), \(capacity) bytes")
            let scale = version <= 20 ? 4 : 3
            #expect(try CodeRaster.decode(CodeRaster.pgm(code, scale: scale)) == text, "version \(version) \(level)")
            if version < QRCodeEncoder.versions.upperBound {
                let bigger = try QRCodeEncoder.encode(text + "x", errorCorrection: level)
                #expect(bigger.version == version + 1, "\(level), \(capacity + 1) bytes")
            }
        }
    }

    @Test("Every mask pattern decodes", arguments: 0..<8)
    func forcedMask(mask: Int) throws {
        for text in ["CaptureKit", longText] {
            let code = try QRCodeEncoder.encode(text, errorCorrection: .quartile, mask: mask)
            #expect(code.mask == mask)
            #expect(try CodeRaster.decode(CodeRaster.pgm(code)) == text, "mask \(mask)")
        }
    }

    @Test("Automatic mask has the lowest penalty of all eight", arguments: texts)
    func bestMask(text: String) throws {
        let chosen = try QRCodeEncoder.encode(text, errorCorrection: .low)
        let chosenPenalty = QRCodeEncoder.penaltyScore(modules: chosen.modules, size: chosen.size)
        for mask in 0..<8 {
            let forced = try QRCodeEncoder.encode(text, errorCorrection: .low, mask: mask)
            #expect(chosenPenalty <= QRCodeEncoder.penaltyScore(modules: forced.modules, size: forced.size))
            if mask == chosen.mask {
                #expect(forced == chosen)
            }
        }
    }

    @Test("Function patterns are in place")
    func functionPatterns() throws {
        let code = try QRCodeEncoder.encode(longText, errorCorrection: .high)
        let n = code.size
        // Finder patterns: dark 7×7 ring, light ring, dark 3×3 centre, light separator.
        for (cx, cy) in [(3, 3), (n - 4, 3), (3, n - 4)] {
            for dy in -3...3 {
                for dx in -3...3 {
                    let distance = max(abs(dx), abs(dy))
                    #expect(code[cx + dx, cy + dy] == (distance != 2))
                }
            }
        }
        #expect(!code[7, 0] && !code[0, 7] && !code[n - 8, 0] && !code[7, n - 1])
        // Timing patterns alternate between the finders.
        for i in 8..<(n - 8) {
            #expect(code[i, 6] == (i % 2 == 0))
            #expect(code[6, i] == (i % 2 == 0))
        }
        // Always-dark module.
        #expect(code[8, n - 8])
    }

    @Test("Non-ASCII text at full capacity (UTF-8 ECI header accounted for)", arguments: [1, 2, 7, 10, 27, 40])
    func nonASCIICapacity(version: Int) throws {
        for level in QRCode.ErrorCorrection.allCases {
            let capacity = QRCodeEncoder.maximumByteCount(version: version, errorCorrection: level, utf8ECI: true)
            #expect(capacity < QRCodeEncoder.maximumByteCount(version: version, errorCorrection: level))
            let text = String(repeating: "ü", count: capacity / 2) + String(repeating: "a", count: capacity % 2)
            #expect(text.utf8.count == capacity)
            let code = try QRCodeEncoder.encode(text, errorCorrection: level)
            #expect(code.version == version, "\(level), \(capacity) bytes")
            #expect(try CodeRaster.decode(CodeRaster.pgm(code, scale: 3)) == text, "version \(version) \(level)")
        }
    }

    @Test("Format information matches ISO/IEC 18004 table C.1, both copies", arguments: QRCode.ErrorCorrection.allCases)
    func formatInformation(level: QRCode.ErrorCorrection) throws {
        // Masked 15-bit format words for mask 0 (Annex C, table C.1).
        let expected = [QRCode.ErrorCorrection.low: 0x77C4, .medium: 0x5412, .quartile: 0x355F, .high: 0x1689][level]!
        let code = try QRCodeEncoder.encode("CaptureKit", errorCorrection: level, mask: 0)
        let n = code.size
        var first = 0, second = 0
        for i in 0..<15 {
            let a: (Int, Int) = switch i {
            case 0...5: (8, i)
            case 6: (8, 7)
            case 7: (8, 8)
            case 8: (7, 8)
            default: (14 - i, 8)
            }
            let b: (Int, Int) = i < 8 ? (n - 1 - i, 8) : (8, n - 15 + i)
            if code[a.0, a.1] { first |= 1 << i }
            if code[b.0, b.1] { second |= 1 << i }
        }
        #expect(first == expected)
        #expect(second == expected)
    }

    @Test("Version information matches ISO/IEC 18004 table D.1, both copies")
    func versionInformation() throws {
        let expected = [7: 0x07C94, 8: 0x085BC, 9: 0x09A99, 10: 0x0A4D3]
        for (version, word) in expected {
            let text = sampleText(length: QRCodeEncoder.maximumByteCount(version: version, errorCorrection: .medium))
            let code = try QRCodeEncoder.encode(text)
            #expect(code.version == version)
            var topRight = 0, bottomLeft = 0
            for i in 0..<18 {
                if code[code.size - 11 + i % 3, i / 3] { topRight |= 1 << i }
                if code[i / 3, code.size - 11 + i % 3] { bottomLeft |= 1 << i }
            }
            #expect(topRight == word, "version \(version)")
            #expect(bottomLeft == word, "version \(version)")
        }
    }

    @Test("Payload longer than version 40 capacity is rejected")
    func tooLong() {
        #expect(throws: QRCodeEncoderError.tooLong(length: 2332, maximum: 2331)) {
            try QRCodeEncoder.encode(sampleText(length: 2332))
        }
        #expect(throws: QRCodeEncoderError.tooLong(length: 2954, maximum: 2953)) {
            try QRCodeEncoder.encode(sampleText(length: 2954), errorCorrection: .low)
        }
        #expect(throws: QRCodeEncoderError.tooLong(length: 1274, maximum: 1273)) {
            try QRCodeEncoder.encode(sampleText(length: 1274), errorCorrection: .high)
        }
        // Length is measured in UTF-8 bytes (700 × "ü" = 1400 bytes); the UTF-8 ECI header costs one byte here.
        #expect(throws: QRCodeEncoderError.tooLong(length: 1400, maximum: 1272)) {
            try QRCodeEncoder.encode(String(repeating: "ü", count: 700), errorCorrection: .high)
        }
        #expect(QRCodeEncoderError.tooLong(length: 2332, maximum: 2331).description.contains("2331"))
    }

    @Test("Exactly the version 40 capacity still encodes")
    func maximumFits() throws {
        let code = try QRCodeEncoder.encode(sampleText(length: 2331), errorCorrection: .medium)
        #expect(code.version == 40)
        #expect(code.size == 177)
    }

    @Test("Forced mask outside 0...7 is rejected")
    func invalidMask() {
        #expect(throws: QRCodeEncoderError.invalidMask(8)) {
            try QRCodeEncoder.encode("CaptureKit", errorCorrection: .medium, mask: 8)
        }
        #expect(throws: QRCodeEncoderError.invalidMask(-1)) {
            try QRCodeEncoder.encode("CaptureKit", errorCorrection: .medium, mask: -1)
        }
    }
}

// MARK: - EAN-13

/// zbarimg round trips, check digits, guards and error cases for ``EAN13Encoder``.
@Suite("EAN-13 encoder")
struct EAN13EncoderTests {
    @Test("Round-trips through zbarimg", arguments: [
        ("4006381333931", "4006381333931"),
        ("590123412345", "5901234123457"),
        ("5901234123457", "5901234123457"),
        // Leading digits 1–9 exercise every left-hand parity pattern.
        ("100000000007", "1000000000078"),
        ("212345678901", "2123456789010"),
        ("312345678901", "3123456789019"),
        ("412345678901", "4123456789018"),
        ("512345678901", "5123456789017"),
        ("612345678901", "6123456789016"),
        ("712345678901", "7123456789015"),
        ("812345678901", "8123456789014"),
        ("912345678901", "9123456789013"),
    ])
    func roundTrip(input: String, expected: String) throws {
        let modules = try EAN13Encoder.encode(input)
        #expect(modules.count == 95)
        #expect(try CodeRaster.decode(CodeRaster.pgm(bars: modules)) == expected)
    }

    @Test("Leading digit 0 (UPC-A compatible) round-trips as EAN-13")
    func leadingZero() throws {
        let modules = try EAN13Encoder.encode("003600029145")
        #expect(try CodeRaster.decode(CodeRaster.pgm(bars: modules), extraArguments: ["-Supca.disable"]) == "0036000291452")
    }

    @Test("Check digit")
    func checkDigit() {
        #expect(EAN13Encoder.checkDigit("590123412345".compactMap(\.wholeNumberValue)) == 7)
        #expect(EAN13Encoder.checkDigit("400638133393".compactMap(\.wholeNumberValue)) == 1)
        #expect(EAN13Encoder.checkDigit([Int](repeating: 0, count: 12)) == 0)
    }

    @Test("12 digits and the matching 13 digits give identical modules")
    func twelveAndThirteen() throws {
        #expect(try EAN13Encoder.encode("590123412345") == (try EAN13Encoder.encode("5901234123457")))
    }

    @Test("Guard patterns")
    func guards() throws {
        let modules = try EAN13Encoder.encode("4006381333931")
        #expect(Array(modules[0..<3]) == [true, false, true])
        #expect(Array(modules[45..<50]) == [false, true, false, true, false])
        #expect(Array(modules[92..<95]) == [true, false, true])
        // Every left digit starts light and ends dark; every right digit starts dark and ends light.
        for digit in 0..<6 {
            #expect(!modules[3 + 7 * digit] && modules[9 + 7 * digit])
            #expect(modules[50 + 7 * digit] && !modules[56 + 7 * digit])
        }
    }

    @Test("Invalid input is rejected with the offending string")
    func errors() {
        #expect(throws: EAN13EncoderError.invalidLength("12345", length: 5)) {
            try EAN13Encoder.encode("12345")
        }
        #expect(throws: EAN13EncoderError.invalidLength("", length: 0)) {
            try EAN13Encoder.encode("")
        }
        #expect(throws: EAN13EncoderError.invalidLength("40063813339310", length: 14)) {
            try EAN13Encoder.encode("40063813339310")
        }
        #expect(throws: EAN13EncoderError.invalidCharacter("40063813339A1", character: "A", offset: 11)) {
            try EAN13Encoder.encode("40063813339A1")
        }
        #expect(throws: EAN13EncoderError.invalidCharacter(" 590123412345", character: " ", offset: 0)) {
            try EAN13Encoder.encode(" 590123412345")
        }
        // Non-ASCII digits (Arabic-Indic) are not accepted.
        #expect(throws: EAN13EncoderError.invalidCharacter("٥٩٠١٢٣٤١٢٣٤٥", character: "٥", offset: 0)) {
            try EAN13Encoder.encode("٥٩٠١٢٣٤١٢٣٤٥")
        }
        #expect(throws: EAN13EncoderError.checkDigitMismatch("4006381333932", expected: 1, found: 2)) {
            try EAN13Encoder.encode("4006381333932")
        }
        let description = EAN13EncoderError.invalidLength("12345", length: 5).description
        #expect(description.contains("12345") && description.contains("12 digits") && description.contains("13 digits"))
        #expect(EAN13EncoderError.invalidCharacter("40063813339A1", character: "A", offset: 11).description.contains("0-9"))
        #expect(EAN13EncoderError.checkDigitMismatch("4006381333932", expected: 1, found: 2).description.contains("4006381333932"))
    }
}
