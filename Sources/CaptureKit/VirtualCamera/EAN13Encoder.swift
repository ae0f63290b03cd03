// EAN-13 (GS1 / ISO/IEC 15420) encoder. Pure Swift, no dependencies, no Foundation.

/// Errors thrown by ``EAN13Encoder``; each case carries the rejected input.
enum EAN13EncoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input does not have 12 or 13 characters; `length` is its character count.
    case invalidLength(String, length: Int)
    /// The input contains `character` at zero-based `offset`, which is not an ASCII digit 0-9.
    case invalidCharacter(String, character: Character, offset: Int)
    /// The 13th digit is `found`, but the check digit computed from the first 12 digits is `expected`.
    case checkDigitMismatch(String, expected: Int, found: Int)

    var description: String {
        switch self {
        case let .invalidLength(input, length):
            "EAN-13 input \"\(input)\" has \(length) characters; expected 12 digits (check digit computed) or 13 digits (check digit verified)"
        case let .invalidCharacter(input, character, offset):
            "EAN-13 input \"\(input)\" contains \"\(character)\" at offset \(offset); only ASCII digits 0-9 are valid"
        case let .checkDigitMismatch(input, expected, found):
            "EAN-13 input \"\(input)\" ends in check digit \(found), but the first 12 digits require \(expected)"
        }
    }
}

/// Encodes 12 or 13 decimal digits into the 95 modules of an EAN-13 barcode (guards included, no quiet zone).
enum EAN13Encoder {
    /// Number of modules in an EAN-13 symbol, guards included.
    static let moduleCount = 95

    /// Left-hand odd-parity (set A / "L") patterns for digits 0–9, 7 modules each, MSB first.
    private static let lPatterns: [UInt8] = [
        0b0001101, 0b0011001, 0b0010011, 0b0111101, 0b0100011,
        0b0110001, 0b0101111, 0b0111011, 0b0110111, 0b0001011,
    ]

    /// Parity of the six left-hand digits (true = even parity "G") selected by the leading digit.
    private static let leadingDigitParity: [String] = [
        "LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG",
        "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL",
    ]

    /// Returns the 95 modules (`true` = bar) for `digits`: 12 digits get a computed check digit,
    /// 13 digits must end in the correct check digit.
    static func encode(_ digits: String) throws(EAN13EncoderError) -> [Bool] {
        var values: [Int] = []
        for (offset, character) in digits.enumerated() {
            guard character.isASCII, let value = character.wholeNumberValue else {
                throw .invalidCharacter(digits, character: character, offset: offset)
            }
            values.append(value)
        }
        guard values.count == 12 || values.count == 13 else {
            throw .invalidLength(digits, length: values.count)
        }
        let check = checkDigit(values.prefix(12))
        if values.count == 13 {
            guard values[12] == check else {
                throw .checkDigitMismatch(digits, expected: check, found: values[12])
            }
        } else {
            values.append(check)
        }

        var modules: [Bool] = []
        modules.reserveCapacity(moduleCount)
        func append(_ pattern: UInt8, width: Int) {
            for shift in stride(from: width - 1, through: 0, by: -1) {
                modules.append((pattern >> UInt8(shift)) & 1 == 1)
            }
        }

        append(0b101, width: 3) // start guard
        let parity = Array(leadingDigitParity[values[0]])
        for index in 1...6 {
            let l = lPatterns[values[index]]
            append(parity[index - 1] == "L" ? l : gPattern(fromL: l), width: 7)
        }
        append(0b01010, width: 5) // centre guard
        for index in 7...12 {
            append(~lPatterns[values[index]] & 0x7F, width: 7) // "R" = complement of "L"
        }
        append(0b101, width: 3) // end guard
        precondition(modules.count == moduleCount)
        return modules
    }

    /// The check digit for 12 data digits: weights 1,3,1,3,… from the left, then (10 − sum mod 10) mod 10.
    static func checkDigit<Digits: Collection<Int>>(_ digits: Digits) -> Int {
        precondition(digits.count == 12, "EAN-13 check digit needs exactly 12 digits")
        var sum = 0
        for (index, digit) in digits.enumerated() {
            sum += digit * (index % 2 == 0 ? 1 : 3)
        }
        return (10 - sum % 10) % 10
    }

    /// Even-parity "G" pattern: the bit-reversed "R" (complemented "L") pattern.
    private static func gPattern(fromL l: UInt8) -> UInt8 {
        let r = ~l & 0x7F
        var g: UInt8 = 0
        for bit in 0..<7 where (r >> UInt8(bit)) & 1 == 1 {
            g |= 1 << UInt8(6 - bit)
        }
        return g
    }
}
