import Foundation

/// A face found in the frames (AVMetadataFaceObject), by OpenCV's cascade classifiers. The same
/// face keeps its `faceID` while it stays in view (its box overlapping its last one).
public struct FaceObject: MetadataObject, Hashable {
    public var type: MetadataObjectType { .face }
    /// Stable while the face stays in view; a face that comes back later gets a new one.
    public var faceID: Int
    public var bounds: CGRect
    /// Head tilt in the image plane in degrees, clockwise positive, where the detector measured
    /// it (upright faces: 0 ± 15; the thorough passes also find faces tilted about ±30).
    public var rollAngle: Double?
    /// Head turn in degrees: 0 facing the camera, ±90 in profile (positive: looking to the
    /// image's right), where the detector measured it.
    public var yawAngle: Double?
    public var time: CaptureTime
    public var duration: CaptureTime

    public var hasRollAngle: Bool { rollAngle != nil }
    public var hasYawAngle: Bool { yawAngle != nil }

    public init(faceID: Int, bounds: CGRect, rollAngle: Double?, yawAngle: Double?, time: CaptureTime, duration: CaptureTime) {
        self.faceID = faceID
        self.bounds = bounds
        self.rollAngle = rollAngle
        self.yawAngle = yawAngle
        self.time = time
        self.duration = duration
    }
}
