import CaptureKit
import Detectors

extension MetadataObjectType {
    /// The barcode reader's symbology for a code type; nil for faces.
    var symbology: Symbology? {
        Self.symbologies.first { $0.type == self }?.symbology
    }

    init?(_ symbology: Symbology) {
        guard let type = Self.symbologies.first(where: { $0.symbology == symbology })?.type else { return nil }
        self = type
    }

    private static let symbologies: [(type: MetadataObjectType, symbology: Symbology)] = [
        (.upce, .upce), (.code39, .code39), (.code39Mod43, .code39Mod43), (.ean13, .ean13), (.ean8, .ean8), (.code93, .code93),
        (.code128, .code128), (.pdf417, .pdf417), (.qr, .qr), (.aztec, .aztec), (.dataMatrix, .dataMatrix),
        (.interleaved2of5, .interleaved2of5), (.itf14, .itf14),
    ]
}
