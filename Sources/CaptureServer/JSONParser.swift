import Foundation

/// A strict JSON parser (RFC 8259) for request bodies, so that every departure is refused with
/// what and where: invalid UTF-8 (and at which byte), a trailing comma, a number beyond a
/// double's range (`1e400`), a lone surrogate escape, a value nested deeper than
/// ``maximumDepth``, anything after the value. Foundation's decoder accepts some of these and
/// words others misleadingly.
struct JSONParser {
    /// Why a body is not JSON: the message names the offending thing and its line and column.
    struct Failure: Error, Equatable {
        let message: String
    }

    /// Objects and arrays nested deeper than this are refused (no body here needs more than 3).
    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Parses `data` as one JSON value.
    static func parse(_ data: Data) throws(Failure) -> JSONBody.Value {
        let bytes = Array(data)
        if String(validating: bytes, as: UTF8.self) == nil {
            let offset = Self.firstInvalidUTF8(bytes)
            throw Failure(message: "invalid UTF-8 at byte \(offset) (0x\(String(format: "%02X", bytes[offset])))")
        }
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected \(parser.shown) after the value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func value() throws(Failure) -> JSONBody.Value {
        guard index < bytes.count else { throw failure("the body ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected \(shown) where a value should be")
        }
    }

    private mutating func object() throws(Failure) -> JSONBody.Value {
        try enter()
        index += 1
        var fields: [String: JSONBody.Value] = [:]
        skipSpace()
        if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(fields) }
        while true {
            skipSpace()
            guard peek(UInt8(ascii: "\"")) else {
                throw failure(peek(UInt8(ascii: "}")) ? "a trailing comma before }" : "unexpected \(shown) where a key in quotes should be")
            }
            let key = try string()
            guard fields[key] == nil else { throw failure("the key \"\(Self.cut(key))\" comes twice") }
            skipSpace()
            guard peek(UInt8(ascii: ":")) else { throw failure("unexpected \(shown) where : should follow the key \"\(Self.cut(key))\"") }
            index += 1
            skipSpace()
            fields[key] = try value()
            skipSpace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(fields) }
            throw failure("unexpected \(shown) where , or } should be")
        }
    }

    private mutating func array() throws(Failure) -> JSONBody.Value {
        try enter()
        index += 1
        var values: [JSONBody.Value] = []
        skipSpace()
        if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(values) }
        while true {
            skipSpace()
            if peek(UInt8(ascii: "]")) { throw failure("a trailing comma before ]") }
            values.append(try value())
            skipSpace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(values) }
            throw failure("unexpected \(shown) where , or ] should be")
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("values nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func string() throws(Failure) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure("a control character (0x\(String(format: "%02X", byte))) in a string; escape it") }
            guard byte == UInt8(ascii: "\\") else { index += 1; continue }
            flush(index)
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
            default:
                index -= 1
                throw failure("an unknown escape \\\(shown) in a string")
            }
            run = index
        }
        index = start
        throw failure("a string that never ends")
    }

    /// The scalar of a `\u` escape and its four hex digits (a surrogate pair as two escapes),
    /// `index` after the `u`.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a lone surrogate \\u\(String(format: "%04X", high)) in a string")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("a lone surrogate \\u\(String(format: "%04X", high)) in a string") }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("a lone surrogate \\u\(String(format: "%04X", high)) in a string") }
        return scalar
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
              bytes[index..<index + 4].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
            throw failure("\\u not followed by four hex digits")
        }
        index += 4
        return value
    }

    private mutating func number() throws(Failure) -> Double {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if peek(UInt8(ascii: "-")) { index += 1 }
        let leadingZero = peek(UInt8(ascii: "0"))
        let whole = digits()
        guard whole > 0 else { throw failure("a number with no digits") }
        guard !(leadingZero && whole > 1) else { index = start; throw failure("a number with a leading zero") }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard digits() > 0 else { throw failure("a number with no digits after .") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw failure("a number with no digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw failure("the number \(Self.cut(text)) is beyond a double's range (±1.8e308)")
        }
        return value
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("unexpected \(shown) where a value should be")
        }
        index += expected.count
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    /// The text at `index`, for a message: a few characters, or "the end".
    private var shown: String {
        guard index < bytes.count else { return "the end of the body" }
        let text = String(decoding: bytes[index..<min(bytes.count, index + 12)], as: UTF8.self)
        return "'\(text.prefix(index + 12 < bytes.count ? 10 : 12))\(index + 12 < bytes.count ? "…" : "")'"
    }

    /// A failure at `index`, with its line and column (1-based, in characters).
    private func failure(_ what: String) -> Failure {
        let before = bytes[..<min(index, bytes.count)]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self).count + 1
        return Failure(message: "\(what) at line \(line), column \(column)")
    }

    static func cut(_ text: String) -> String { text.count > 40 ? text.prefix(37) + "…" : text }

    /// The offset of the first byte that is not part of valid UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) { offset += UTF8.width(scalar) }
        return min(offset, bytes.count - 1)
    }
}
