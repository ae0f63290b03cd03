import CGStreamer
import Foundation

/// What the `CaptureKitDetectors` product gives CaptureKit: code reading (zxing-cpp) and face
/// finding (OpenCV) over 8-bit gray planes, and the code writer the virtual camera's scene uses.
///
/// CaptureKit itself builds without zxing-cpp's and OpenCV's headers: an app that only takes
/// stills or records links neither. An app that depends on the `CaptureKitDetectors` product
/// links its detectors, and CaptureKit finds them through a weak C symbol
/// (`ck_linked_detectors`); without it ``linked`` is nil, ``MetadataOutput`` offers no types and
/// asking for one says which product to add.
@_spi(Detectors)
public enum MetadataDetection {
    /// The detectors a product provides. One object serves every output and scan.
    public protocol Engine: AnyObject, Sendable {
        /// The types these detectors find on this machine: every code type, and ``MetadataObjectType/face``
        /// where OpenCV's cascades load (asking tries them once, loading OpenCV: `validate(_:)`
        /// checks code types without asking).
        var availableTypes: [MetadataObjectType] { get }
        /// A reader of `types` (code types only) trying the passes `effort` names: `.fast` for
        /// live frames, `.thorough` for still images.
        func codeReader(for types: Set<MetadataObjectType>, effort: MetadataFileScanner.Effort) -> any CodeReader
        /// A face finder: frontal faces for `.fast`, profiles and tilted heads too for `.thorough`;
        /// nil when OpenCV's cascades do not load. Made once per output, on first need (it loads
        /// OpenCV).
        func faceFinder(effort: MetadataFileScanner.Effort) -> (any FaceFinder)?
        /// The module matrix of `text` encoded as `type` (a code type), for drawing.
        func encode(_ text: String, as type: MetadataObjectType) throws(CaptureError) -> Symbol
    }

    /// Reads codes in a plane. Called on one thread at a time.
    public protocol CodeReader: Sendable {
        func read(_ plane: Plane, region: Region?) -> [Code]
    }

    /// Finds faces in a plane. Called on one thread at a time.
    public protocol FaceFinder: Sendable {
        func find(_ plane: Plane) -> [Face]
    }

    /// The detectors linked into this process, or nil without the `CaptureKitDetectors` product.
    /// Asked once: what is linked does not change.
    static let linked = linkedProduct(ck_linked_detectors(), as: (any Engine).self)

    /// The error for asking for `type` in a process without detectors.
    static func notLinked(_ type: MetadataObjectType) -> CaptureError {
        .invalidSetting(name: "metadata object type", value: type.rawValue,
                        valid: "none in this build: detection is the CaptureKitDetectors product; add .product(name: \"CaptureKitDetectors\", package: \"CaptureKit\") to the app target's dependencies")
    }

    /// Throws `invalidSetting` for the first of `types` this process cannot detect. Code types
    /// are checked without asking for faces, so choosing only codes does not load OpenCV.
    /// Motion is CaptureKit's own and always valid.
    static func validate(_ types: [MetadataObjectType]) throws(CaptureError) {
        let types = types.filter { $0 != .motion }
        guard let engine = linked else {
            if let first = types.first { throw notLinked(first) }
            return
        }
        let codes = MetadataObjectType.machineReadableCodes
        if let unavailable = types.first(where: { !codes.contains($0) && !engine.availableTypes.contains($0) }) {
            throw .invalidSetting(name: "metadata object type", value: unavailable.rawValue,
                                  valid: (engine.availableTypes + [.motion]).map(\.name).joined(separator: ", "))
        }
    }
}
