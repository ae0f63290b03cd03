import Foundation

/// A region of the frame that changed in a way a change of light does not explain
/// (``MetadataObjectType/motion``): something moved, appeared or left.
///
/// One object per connected changed region of an analysed frame, largest first. A region is
/// reported on the analysed frames where it changes, so an object that stops moving stops being
/// reported.
public struct MotionObject: MetadataObject, Hashable {
    public var type: MetadataObjectType { .motion }
    /// The bounding box of the changed region, in device coordinates.
    public var bounds: CGRect
    /// The changed area as a fraction of the frame (at most the box's area).
    public var changedArea: Double
    /// How strong the change is: the mean change of the region's cells beyond what the frame's
    /// light explains, as a fraction of full scale (0 to 1).
    public var score: Double
    public var time: CaptureTime
    /// Motion has no identity across frames: zero.
    public var duration: CaptureTime { CaptureTime(nanoseconds: 0) }

    public init(bounds: CGRect, changedArea: Double, score: Double, time: CaptureTime) {
        self.bounds = bounds
        self.changedArea = changedArea
        self.score = score
        self.time = time
    }
}

extension MotionObject {
    /// One line of JSON: `{"type":"motion","bounds","area","score","time","source"}`.
    public func jsonLine(source: String) -> String {
        "{\"type\":\"motion\",\"bounds\":\(JSONText.rect(bounds)),\"area\":\(JSONText.number(changedArea)),"
            + "\"score\":\(JSONText.number(score)),\"time\":\(JSONText.number(time.seconds)),\"source\":\(JSONText.string(source))}"
    }
}
