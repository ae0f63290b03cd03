/// A kind of metadata a `MetadataOutput` detects (AVMetadataObject.ObjectType), with
/// AVFoundation's identifiers as raw values.
public struct MetadataObjectType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let upce = MetadataObjectType(rawValue: "org.gs1.UPC-E")
    public static let code39 = MetadataObjectType(rawValue: "org.iso.Code39")
    public static let code39Mod43 = MetadataObjectType(rawValue: "org.iso.Code39Mod43")
    /// EAN-13, and UPC-A (reported as EAN-13 with a leading 0, as AVFoundation does).
    public static let ean13 = MetadataObjectType(rawValue: "org.gs1.EAN-13")
    public static let ean8 = MetadataObjectType(rawValue: "org.gs1.EAN-8")
    public static let code93 = MetadataObjectType(rawValue: "com.intermec.Code93")
    public static let code128 = MetadataObjectType(rawValue: "org.iso.Code128")
    public static let pdf417 = MetadataObjectType(rawValue: "org.iso.PDF417")
    public static let qr = MetadataObjectType(rawValue: "org.iso.QRCode")
    public static let aztec = MetadataObjectType(rawValue: "org.iso.Aztec")
    public static let dataMatrix = MetadataObjectType(rawValue: "org.iso.DataMatrix")
    public static let interleaved2of5 = MetadataObjectType(rawValue: "org.ansi.Interleaved2of5")
    public static let itf14 = MetadataObjectType(rawValue: "org.gs1.ITF14")
    public static let face = MetadataObjectType(rawValue: "face")
    /// Motion: a region that changed in a way a change of light does not explain
    /// (``MotionObject``). Measured by CaptureKit itself, so available in every build.
    public static let motion = MetadataObjectType(rawValue: "motion")

    /// Every machine-readable code type, in seed 003's order.
    public static let machineReadableCodes: [MetadataObjectType] = [
        .upce, .code39, .code39Mod43, .ean13, .ean8, .code93, .code128, .pdf417, .qr, .aztec, .dataMatrix, .interleaved2of5, .itf14,
    ]

    /// What this process can detect: motion always; with the `CaptureKitDetectors` product
    /// linked, the codes, and faces where OpenCV's cascades are installed.
    public static var available: [MetadataObjectType] { (MetadataDetection.linked?.availableTypes ?? []) + [.motion] }

    /// The short name `capture scan --types` and pipeline files use ("qr", "ean13", "code39mod43").
    public var name: String { Self.names[self] ?? rawValue }

    /// The type a short name or an identifier names.
    public init?(name: String) {
        let wanted = name.lowercased()
        guard let match = (Self.machineReadableCodes + [.face, .motion]).first(where: { $0.name == wanted || $0.rawValue.lowercased() == wanted }) else {
            return nil
        }
        self = match
    }

    private static let names: [MetadataObjectType: String] = [
        .upce: "upce", .code39: "code39", .code39Mod43: "code39mod43", .ean13: "ean13", .ean8: "ean8", .code93: "code93",
        .code128: "code128", .pdf417: "pdf417", .qr: "qr", .aztec: "aztec", .dataMatrix: "datamatrix",
        .interleaved2of5: "interleaved2of5", .itf14: "itf14", .face: "face", .motion: "motion",
    ]

    public var description: String { name }
}
