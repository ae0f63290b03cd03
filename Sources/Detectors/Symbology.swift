import CZXing

/// The machine-readable codes the barcode reader decodes: those of seed 003 (iOS 8's list).
public enum Symbology: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case upce
    case code39
    /// Code 39 whose last character is a valid mod-43 check character (removed from the text).
    case code39Mod43
    /// EAN-13, and UPC-A reported as EAN-13 with a leading 0 (as AVFoundation does).
    case ean13
    case ean8
    case code93
    case code128
    case pdf417
    case qr
    case aztec
    case dataMatrix
    case interleaved2of5
    /// Interleaved 2 of 5 with 14 digits whose GS1 check digit verifies.
    case itf14

    /// The shim's format bit.
    var bit: UInt32 {
        switch self {
        case .upce: UInt32(CK_FORMAT_UPCE)
        case .code39: UInt32(CK_FORMAT_CODE39)
        case .code39Mod43: UInt32(CK_FORMAT_CODE39_MOD43)
        case .ean13: UInt32(CK_FORMAT_EAN13)
        case .ean8: UInt32(CK_FORMAT_EAN8)
        case .code93: UInt32(CK_FORMAT_CODE93)
        case .code128: UInt32(CK_FORMAT_CODE128)
        case .pdf417: UInt32(CK_FORMAT_PDF417)
        case .qr: UInt32(CK_FORMAT_QR)
        case .aztec: UInt32(CK_FORMAT_AZTEC)
        case .dataMatrix: UInt32(CK_FORMAT_DATAMATRIX)
        case .interleaved2of5: UInt32(CK_FORMAT_I2OF5)
        case .itf14: UInt32(CK_FORMAT_ITF14)
        }
    }

    init?(bit: UInt32) {
        guard let match = Symbology.allCases.first(where: { $0.bit == bit }) else { return nil }
        self = match
    }

    /// Matrix (2-D) codes, read several per image in one pass; linear ones one at a time.
    public var isMatrix: Bool { [.pdf417, .qr, .aztec, .dataMatrix].contains(self) }

    public var description: String { rawValue }
}
