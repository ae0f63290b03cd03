extension VirtualScene {
    /// The default scene's QR code of ``qrText`` (version 3, 29x29 modules), as zxing-cpp 1.4's
    /// writer encoded it: stored, so that the virtual camera draws it in a process without the
    /// detectors, and the same on every machine (zxing-cpp 2 may choose another mask).
    /// `MetadataOutputTests` reads both default codes back with the detectors.
    static let qrSymbol = symbol(.qr, rows: [
        "11111110011101100010101111111",
        "10000010000110000100001000001",
        "10111010011100100001101011101",
        "10111010101100100100001011101",
        "10111010101011001001101011101",
        "10000010011001101100101000001",
        "11111110101010101010101111111",
        "00000000010011001010100000000",
        "11000111011010110100000011000",
        "11101000001000110111010110110",
        "10010010110110011010000010000",
        "01000101101100101000110111000",
        "00100111111001101001101000001",
        "01100100101011111001111110011",
        "00111011000001111110010011100",
        "10101001010011101011000010101",
        "01010110101010110101000101100",
        "10110000110000011001001110111",
        "11100011001011110101101011001",
        "10010101011100110010110010000",
        "10010110100100010100111110111",
        "00000000101011010001100011000",
        "11111110110001111001101011100",
        "10000010101011001001100010010",
        "10111010010111001001111111001",
        "10111010000000010011010001101",
        "10111010010110010010111111110",
        "10000010111100000000000101101",
        "11111110101100000101001010100",
    ])

    /// The default scene's EAN-13 of ``ean13Digits``: one row of 95 modules (guards, digits).
    static let ean13Symbol = symbol(.ean13, rows: [
        "10100011010100111010111101111010001001011001101010100001010000101000010111010010000101100110101",
    ])

    /// A symbol from rows of "1" (dark) and "0" (light) modules.
    private static func symbol(_ type: MetadataObjectType, rows: [String]) -> MetadataDetection.Symbol {
        MetadataDetection.Symbol(type: type, width: rows[0].count, height: rows.count,
                                 modules: rows.flatMap { $0.utf8.map { $0 == UInt8(ascii: "1") ? 1 : 0 } })
    }
}
