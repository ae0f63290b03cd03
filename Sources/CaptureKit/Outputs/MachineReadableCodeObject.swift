import Foundation

/// A barcode or 2-D code found in the frames (AVMetadataMachineReadableCodeObject). The same
/// code (type and text) staying in view is one object: its `time` moves on and its `duration`
/// grows, frame after frame.
public struct MachineReadableCodeObject: MetadataObject, Hashable {
    public var type: MetadataObjectType
    /// The decoded text.
    public var stringValue: String?
    /// The symbol's corners in device coordinates: top left, top right, bottom right and bottom
    /// left as the symbol reads (linear codes: the ends of the scan lines that decoded).
    public var corners: [CGPoint]
    public var bounds: CGRect
    public var time: CaptureTime
    public var duration: CaptureTime

    public init(type: MetadataObjectType, stringValue: String?, corners: [CGPoint], time: CaptureTime, duration: CaptureTime) {
        self.type = type
        self.stringValue = stringValue
        self.corners = corners
        let xs = corners.map(\.x), ys = corners.map(\.y)
        bounds = CGRect(x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
        self.time = time
        self.duration = duration
    }
}
