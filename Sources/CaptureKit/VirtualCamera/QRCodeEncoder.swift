// QR Code (ISO/IEC 18004) encoder: byte mode, versions 1–40, EC levels L/M/Q/H.
// Non-ASCII text is prefixed with ECI 000026 (UTF-8): without it the byte-mode default
// is ISO-8859-1 and readers have to guess (zbar, for instance, tries Shift-JIS first).
// Pure Swift, no dependencies, no Foundation.

/// A QR Code symbol: a square grid of modules without the surrounding quiet zone.
struct QRCode: Sendable, Equatable {
    /// Error-correction level of a QR Code symbol (recovers roughly 7/15/25/30 % of codewords).
    enum ErrorCorrection: Sendable, Hashable, CaseIterable {
        /// Level L, about 7 % recovery.
        case low
        /// Level M, about 15 % recovery.
        case medium
        /// Level Q, about 25 % recovery.
        case quartile
        /// Level H, about 30 % recovery.
        case high

        /// Two-bit error-correction indicator used in the format information.
        var formatBits: Int {
            switch self {
            case .low: 1
            case .medium: 0
            case .quartile: 3
            case .high: 2
            }
        }

        /// Row index into the block tables (L, M, Q, H).
        var tableIndex: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }
    }

    /// Symbol version, 1...40; the symbol is `17 + 4 * version` modules wide.
    let version: Int
    /// Error-correction level the symbol was encoded with.
    let errorCorrection: ErrorCorrection
    /// Data mask pattern (0...7) applied to the symbol.
    let mask: Int
    /// Width and height of the symbol in modules.
    let size: Int
    /// Row-major module colours, `true` = dark; `size * size` entries.
    let modules: [Bool]

    /// The module at column `x`, row `y` (`true` = dark).
    subscript(x: Int, y: Int) -> Bool {
        precondition((0..<size).contains(x) && (0..<size).contains(y), "QRCode module (\(x), \(y)) out of range 0..<\(size)")
        return modules[y * size + x]
    }
}

/// Errors thrown by ``QRCodeEncoder``.
enum QRCodeEncoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The UTF-8 payload is `length` bytes, but at most `maximum` bytes fit at the requested error-correction level.
    case tooLong(length: Int, maximum: Int)
    /// A forced mask pattern outside the valid range 0...7.
    case invalidMask(Int)

    var description: String {
        switch self {
        case let .tooLong(length, maximum):
            "QR payload is \(length) UTF-8 bytes; at most \(maximum) bytes fit at this error-correction level (version 40)"
        case let .invalidMask(mask):
            "QR mask pattern \(mask) is invalid; valid masks are 0...7"
        }
    }
}

/// Encodes text into a QR Code symbol using byte mode (UTF-8, flagged with ECI 26 when non-ASCII), Reed–Solomon error correction
/// over GF(256) and the standard mask-penalty evaluation.
enum QRCodeEncoder {
    /// Supported symbol versions.
    static let versions: ClosedRange<Int> = 1...40

    /// Encodes `text` as UTF-8 bytes in the smallest version that fits, choosing the mask with the lowest penalty.
    static func encode(
        _ text: String,
        errorCorrection: QRCode.ErrorCorrection = .medium
    ) throws(QRCodeEncoderError) -> QRCode {
        try encode(text, errorCorrection: errorCorrection, mask: nil)
    }

    /// Encodes `text`; when `mask` is non-nil that mask pattern is forced instead of the best-scoring one.
    static func encode(
        _ text: String,
        errorCorrection: QRCode.ErrorCorrection,
        mask: Int?
    ) throws(QRCodeEncoderError) -> QRCode {
        if let mask, !(0..<8).contains(mask) {
            throw .invalidMask(mask)
        }
        let payload = Array(text.utf8)
        let utf8ECI = payload.contains { $0 >= 0x80 }
        guard let version = versions.first(where: {
            payload.count <= maximumByteCount(version: $0, errorCorrection: errorCorrection, utf8ECI: utf8ECI)
        }) else {
            throw .tooLong(
                length: payload.count,
                maximum: maximumByteCount(version: versions.upperBound, errorCorrection: errorCorrection, utf8ECI: utf8ECI)
            )
        }

        let dataCodewords = makeDataCodewords(payload, utf8ECI: utf8ECI, version: version, errorCorrection: errorCorrection)
        let allCodewords = addErrorCorrectionAndInterleave(dataCodewords, version: version, errorCorrection: errorCorrection)

        var matrix = Matrix(version: version)
        matrix.drawFunctionPatterns()
        matrix.drawCodewords(allCodewords)

        let chosenMask: Int
        if let mask {
            chosenMask = mask
        } else {
            var best = (mask: 0, penalty: Int.max)
            for candidate in 0..<8 {
                matrix.applyMask(candidate)
                matrix.drawFormatBits(errorCorrection: errorCorrection, mask: candidate)
                let penalty = penaltyScore(modules: matrix.modules, size: matrix.size)
                if penalty < best.penalty {
                    best = (candidate, penalty)
                }
                matrix.applyMask(candidate) // XOR again to undo
            }
            chosenMask = best.mask
        }
        matrix.applyMask(chosenMask)
        matrix.drawFormatBits(errorCorrection: errorCorrection, mask: chosenMask)

        return QRCode(
            version: version,
            errorCorrection: errorCorrection,
            mask: chosenMask,
            size: matrix.size,
            modules: matrix.modules
        )
    }

    // MARK: - Capacity tables (ISO/IEC 18004:2015 table 9)

    /// Error-correction codewords per block, indexed `[level][version]` (index 0 unused).
    private static let eccCodewordsPerBlock: [[Int]] = [
        [-1, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30], // L
        [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28], // M
        [-1, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30], // Q
        [-1, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30], // H
    ]

    /// Number of error-correction blocks, indexed `[level][version]` (index 0 unused).
    private static let errorCorrectionBlockCount: [[Int]] = [
        [-1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25], // L
        [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49], // M
        [-1, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68], // Q
        [-1, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81], // H
    ]

    /// Number of modules available for codewords (data + EC + remainder bits) in `version`.
    static func rawDataModuleCount(version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignmentCount = version / 7 + 2
            result -= (25 * alignmentCount - 10) * alignmentCount - 55
            if version >= 7 {
                result -= 36 // two 6×3 version-information blocks
            }
        }
        return result
    }

    /// Number of data codewords (excluding error correction) for `version` at `errorCorrection`.
    static func dataCodewordCount(version: Int, errorCorrection: QRCode.ErrorCorrection) -> Int {
        let level = errorCorrection.tableIndex
        return rawDataModuleCount(version: version) / 8
            - eccCodewordsPerBlock[level][version] * errorCorrectionBlockCount[level][version]
    }

    /// Bits of the byte-mode character-count indicator.
    private static func characterCountBits(version: Int) -> Int {
        version <= 9 ? 8 : 16
    }

    /// Bits of the ECI 000026 (UTF-8) header: 4-bit ECI mode indicator plus 8-bit designator.
    private static let utf8ECIHeaderBits = 12

    /// Largest byte-mode payload (in bytes) that fits in `version` at `errorCorrection`;
    /// `utf8ECI` accounts for the ECI header that non-ASCII payloads carry.
    static func maximumByteCount(version: Int, errorCorrection: QRCode.ErrorCorrection, utf8ECI: Bool = false) -> Int {
        let capacityBits = dataCodewordCount(version: version, errorCorrection: errorCorrection) * 8
        let headerBits = (utf8ECI ? utf8ECIHeaderBits : 0) + 4 + characterCountBits(version: version)
        return min((capacityBits - headerBits) / 8, (1 << characterCountBits(version: version)) - 1)
    }

    // MARK: - Data encoding

    /// Builds the data codewords: optional ECI header, mode indicator, count, payload, terminator and pad bytes.
    private static func makeDataCodewords(_ payload: [UInt8], utf8ECI: Bool, version: Int, errorCorrection: QRCode.ErrorCorrection) -> [UInt8] {
        let capacityBits = dataCodewordCount(version: version, errorCorrection: errorCorrection) * 8
        var bits = BitBuffer()
        if utf8ECI {
            bits.append(0b0111, count: 4) // ECI mode
            bits.append(26, count: 8) // designator 000026 = UTF-8 (single-byte form 0xxxxxxx)
        }
        bits.append(0b0100, count: 4) // byte mode
        bits.append(payload.count, count: characterCountBits(version: version))
        for byte in payload {
            bits.append(Int(byte), count: 8)
        }
        precondition(bits.count <= capacityBits)
        bits.append(0, count: min(4, capacityBits - bits.count)) // terminator
        bits.append(0, count: (8 - bits.count % 8) % 8) // byte alignment
        var padByte = 0xEC
        while bits.count < capacityBits {
            bits.append(padByte, count: 8)
            padByte ^= 0xEC ^ 0x11
        }
        return bits.bytes
    }

    /// Splits the data into blocks, appends Reed–Solomon codewords and interleaves the result.
    private static func addErrorCorrectionAndInterleave(_ data: [UInt8], version: Int, errorCorrection: QRCode.ErrorCorrection) -> [UInt8] {
        let level = errorCorrection.tableIndex
        let blockCount = errorCorrectionBlockCount[level][version]
        let eccLength = eccCodewordsPerBlock[level][version]
        let rawCodewords = rawDataModuleCount(version: version) / 8
        let shortBlockCount = blockCount - rawCodewords % blockCount
        let shortBlockLength = rawCodewords / blockCount
        precondition(data.count == rawCodewords - eccLength * blockCount)

        let divisor = ReedSolomon.generator(degree: eccLength)
        var dataBlocks: [[UInt8]] = []
        var eccBlocks: [[UInt8]] = []
        var offset = 0
        for block in 0..<blockCount {
            let dataLength = shortBlockLength - eccLength + (block < shortBlockCount ? 0 : 1)
            let blockData = Array(data[offset..<(offset + dataLength)])
            offset += dataLength
            dataBlocks.append(blockData)
            eccBlocks.append(ReedSolomon.remainder(of: blockData, divisor: divisor))
        }

        var result: [UInt8] = []
        result.reserveCapacity(rawCodewords)
        let longestData = shortBlockLength - eccLength + 1
        for index in 0..<longestData {
            for block in dataBlocks where index < block.count {
                result.append(block[index])
            }
        }
        for index in 0..<eccLength {
            for block in eccBlocks {
                result.append(block[index])
            }
        }
        precondition(result.count == rawCodewords)
        return result
    }

    // MARK: - Mask penalty (ISO/IEC 18004 §7.8.3)

    /// Penalty score of a finished symbol using the four standard rules (N1 = 3, N2 = 3, N3 = 40, N4 = 10).
    static func penaltyScore(modules: [Bool], size: Int) -> Int {
        var score = 0
        // Finder-like pattern 1:1:3:1:1 with four light modules on either side; outside the symbol counts as light.
        let finderBefore = 0b0000_1011101
        let finderAfter = 0b1011101_0000
        for line in 0..<size {
            for horizontal in [true, false] {
                @inline(__always) func module(_ i: Int) -> Bool {
                    horizontal ? modules[line * size + i] : modules[i * size + line]
                }
                // Rule 1: runs of five or more same-coloured modules.
                var runColor = module(0)
                var runLength = 1
                for i in 1..<size {
                    let color = module(i)
                    if color == runColor {
                        runLength += 1
                    } else {
                        if runLength >= 5 { score += runLength - 2 }
                        runColor = color
                        runLength = 1
                    }
                }
                if runLength >= 5 { score += runLength - 2 }

                // Rule 3: sliding 11-module window over the line padded by 4 light modules each side.
                var window = 0
                for i in -4..<(size + 4) {
                    let dark = (0..<size).contains(i) && module(i)
                    window = ((window << 1) | (dark ? 1 : 0)) & 0x7FF
                    if i >= 6 { // window is full (11 modules)
                        if window == finderBefore { score += 40 }
                        if window == finderAfter { score += 40 }
                    }
                }
            }
        }
        // Rule 2: 2×2 blocks of the same colour.
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = modules[y * size + x]
                if color == modules[y * size + x + 1],
                   color == modules[(y + 1) * size + x],
                   color == modules[(y + 1) * size + x + 1] {
                    score += 3
                }
            }
        }
        // Rule 4: deviation of the dark proportion from 50 %, in 5 % steps.
        let total = size * size
        let dark = modules.reduce(0) { $0 + ($1 ? 1 : 0) }
        score += abs(dark * 20 - total * 10) / total * 10
        return score
    }
}

// MARK: - Bit buffer

/// Append-only MSB-first bit buffer used to assemble the data segment.
private struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count: Int) {
        precondition(count >= 0 && (count == 0 || value >> count == 0), "value \(value) does not fit in \(count) bits")
        for shift in stride(from: count - 1, through: 0, by: -1) {
            bits.append((value >> shift) & 1 == 1)
        }
    }

    /// The buffer packed into bytes; its length must be a multiple of eight.
    var bytes: [UInt8] {
        precondition(bits.count % 8 == 0)
        var result = [UInt8](repeating: 0, count: bits.count / 8)
        for (index, bit) in bits.enumerated() where bit {
            result[index >> 3] |= 0x80 >> UInt8(index & 7)
        }
        return result
    }
}

// MARK: - Reed–Solomon over GF(256)

/// Reed–Solomon arithmetic over GF(2^8) with the QR primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
private enum ReedSolomon {
    /// Multiplies two field elements (Russian-peasant multiplication with reduction by 0x11D).
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> UInt8(shift)) & 1) * Int(x)
        }
        return UInt8(z)
    }

    /// Coefficients (highest power first, leading 1 omitted) of ∏_{i<degree} (x − α^i), α = 2.
    static func generator(degree: Int) -> [UInt8] {
        precondition((1...255).contains(degree))
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                result[j] = multiply(result[j], root)
                if j + 1 < degree {
                    result[j] ^= result[j + 1]
                }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// Remainder of `data(x) · x^degree` divided by the generator polynomial: the EC codewords.
    static func remainder(of data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices {
                result[index] ^= multiply(divisor[index], factor)
            }
        }
        return result
    }
}

// MARK: - Module matrix

/// Mutable module grid that tracks which modules belong to function patterns.
private struct Matrix {
    let version: Int
    let size: Int
    var modules: [Bool]
    var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
    }

    mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    /// Centre coordinates of alignment patterns along one axis.
    var alignmentPositions: [Int] {
        if version == 1 { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        var result = [6]
        var position = size - 7
        for _ in 0..<(count - 1) {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }

    /// Draws timing, finder, separator and alignment patterns and reserves format/version areas.
    mutating func drawFunctionPatterns() {
        for i in 0..<size {
            setFunction(x: 6, y: i, dark: i % 2 == 0)
            setFunction(x: i, y: 6, dark: i % 2 == 0)
        }
        drawFinder(centerX: 3, centerY: 3)
        drawFinder(centerX: size - 4, centerY: 3)
        drawFinder(centerX: 3, centerY: size - 4)

        let positions = alignmentPositions
        let last = positions.count - 1
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                // Skip the three corners occupied by finder patterns.
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                drawAlignment(centerX: x, centerY: y)
            }
        }
        drawFormatBits(errorCorrection: .medium, mask: 0) // placeholder, overwritten after masking
        drawVersionInformation()
    }

    /// Finder pattern (7×7) plus its one-module light separator.
    private mutating func drawFinder(centerX: Int, centerY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centerX + dx, y = centerY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let distance = max(abs(dx), abs(dy))
                setFunction(x: x, y: y, dark: distance != 2 && distance != 4)
            }
        }
    }

    /// Alignment pattern (5×5).
    private mutating func drawAlignment(centerX: Int, centerY: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                setFunction(x: centerX + dx, y: centerY + dy, dark: max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// Draws both copies of the 15-bit BCH(15,5) format information and the dark module.
    mutating func drawFormatBits(errorCorrection: QRCode.ErrorCorrection, mask: Int) {
        let data = errorCorrection.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 {
            remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
        }
        let bits = (data << 10 | remainder) ^ 0x5412
        precondition(bits >> 15 == 0)
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }

        // First copy, around the top-left finder.
        for i in 0...5 {
            setFunction(x: 8, y: i, dark: bit(i))
        }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for i in 9..<15 {
            setFunction(x: 14 - i, y: 8, dark: bit(i))
        }
        // Second copy, split between the top-right and bottom-left finders.
        for i in 0..<8 {
            setFunction(x: size - 1 - i, y: 8, dark: bit(i))
        }
        for i in 8..<15 {
            setFunction(x: 8, y: size - 15 + i, dark: bit(i))
        }
        setFunction(x: 8, y: size - 8, dark: true) // always-dark module
    }

    /// Draws both copies of the 18-bit BCH(18,6) version information (versions 7 and up).
    private mutating func drawVersionInformation() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 {
            remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
        }
        let bits = version << 12 | remainder
        precondition(bits >> 18 == 0)
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1
            let a = size - 11 + i % 3
            let b = i / 3
            setFunction(x: a, y: b, dark: dark) // top-right block
            setFunction(x: b, y: a, dark: dark) // bottom-left block
        }
    }

    /// Places codewords in the two-column zig-zag order, skipping function modules.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        let totalBits = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 } // skip the vertical timing column
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                let y = upward ? size - 1 - vertical : vertical
                for column in 0..<2 {
                    let x = right - column
                    let index = y * size + x
                    guard !isFunction[index], bitIndex < totalBits else { continue }
                    modules[index] = (codewords[bitIndex >> 3] >> UInt8(7 - (bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                    // Remainder bits (if any) stay light before masking.
                }
            }
            right -= 2
        }
        precondition(bitIndex == totalBits)
    }

    /// XORs data-area modules with mask pattern `mask` (self-inverse).
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let invert: Bool
                switch mask {
                case 0: invert = (x + y) % 2 == 0
                case 1: invert = y % 2 == 0
                case 2: invert = x % 3 == 0
                case 3: invert = (x + y) % 3 == 0
                case 4: invert = (x / 3 + y / 2) % 2 == 0
                case 5: invert = x * y % 2 + x * y % 3 == 0
                case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
                case 7: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
                default: preconditionFailure("mask \(mask) out of range")
                }
                if invert {
                    modules[y * size + x].toggle()
                }
            }
        }
    }
}
