import CZXing

/// A code encoded by zxing-cpp's writer (through the `CZXing` shim): its module matrix and the
/// text a reader reports for it. Made once and drawn as often as needed.
///
/// What the text needs per symbology (the shim prepares the rest):
/// - EAN-13, EAN-8, ITF-14: 12, 7, 13 digits get their GS1 check digit; 13, 8, 14 digits must
///   carry the right one.
/// - UPC-E: 6 digits (number system 0), 7 (number system 0 or 1 first) or 8 (check digit of the
///   expanded UPC-A, verified); reported as 8 digits.
/// - Code 39: 0-9, A-Z, `-. $/+%` (the reader does not use full-ASCII mode). A text whose last
///   character happens to be the mod-43 check of the rest reads as Code 39 mod 43 when both are
///   asked for.
/// - Code 39 mod 43: the same characters; the check character is appended, and not reported.
/// - Interleaved 2 of 5: an even number of digits (14 with a valid GS1 check digit read as ITF-14
///   when both are asked for).
/// - Code 93, Code 128, PDF417, QR, Aztec, Data Matrix: the text as given (UTF-8).
public struct BarcodeSymbol: Sendable, Hashable {
    /// Text a symbology cannot carry, with zxing's or the shim's reason.
    public struct EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
        public var symbology: Symbology
        public var text: String
        public var reason: String
        public var description: String { "cannot encode \"\(text)\" as \(symbology): \(reason)" }
    }

    public let symbology: Symbology
    /// What a reader reports: the text with any check digit the shim added.
    public let text: String
    /// Modules across and down, without a quiet zone. Linear codes are one row high; PDF417's
    /// rows are four matrix rows each.
    public let width: Int
    public let height: Int
    /// Row-major, 1 for a dark module, 0 for a light one.
    public let modules: [UInt8]

    /// Linear codes: one row of bars, drawn as tall as wanted.
    public var isLinear: Bool { !symbology.isMatrix }

    /// Whether the module at column `x`, row `y` is dark.
    public subscript(x x: Int, y y: Int) -> Bool { modules[y * width + x] != 0 }

    /// Encodes `text` as `symbology`.
    public init(encoding text: String, as symbology: Symbology) throws(EncodingError) {
        var block: UnsafeMutablePointer<ck_symbol>?
        var message = [CChar](repeating: 0, count: 160)
        let bytes = Array(text.utf8) + [0] // never empty: a base address for "" too
        let status = bytes.withUnsafeBufferPointer { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                message.withUnsafeMutableBufferPointer { buffer in
                    ck_encode(symbology.bit, chars.baseAddress!, Int32(clamping: chars.count - 1), &block, buffer.baseAddress,
                              Int32(buffer.count))
                }
            }
        }
        guard status == CK_OK, let symbol = block else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw EncodingError(symbology: symbology, text: text, reason: reason.isEmpty ? "status \(status)" : reason)
        }
        defer { ck_symbol_free(symbol) }
        self.symbology = symbology
        width = Int(symbol.pointee.width)
        height = Int(symbol.pointee.height)
        modules = Array(UnsafeBufferPointer(start: symbol.pointee.modules, count: width * height))
        self.text = String(decoding: UnsafeRawBufferPointer(start: symbol.pointee.text, count: Int(symbol.pointee.text_length)),
                           as: UTF8.self)
    }
}
