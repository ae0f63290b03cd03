import Foundation

/// Something a `MetadataOutput` found in the frames (AVMetadataObject). Positions are in device
/// coordinates: {0,0} top left, {1,1} bottom right of the unrotated sensor image.
public protocol MetadataObject: Sendable {
    var type: MetadataObjectType { get }
    /// The presentation time of the frame it was found in.
    var time: CaptureTime { get }
    /// How long the same object has been in view, up to `time`.
    var duration: CaptureTime { get }
    /// Its bounding box in device coordinates.
    var bounds: CGRect { get }
}
