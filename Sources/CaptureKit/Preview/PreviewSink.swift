/// Where a ``VideoPreview`` shows its picture.
public enum PreviewSink: Sendable, Hashable, CustomStringConvertible {
    /// A window on the desktop: the first of `glimagesink`, `xvimagesink`, `ximagesink` and
    /// `waylandsink` that opens, chosen when the preview starts (``VideoPreview/sinkName``
    /// reports which).
    case window
    /// The display of a board without a desktop (`kmssink`).
    case kms
    /// Display-ready frames for an app that draws them itself: ``VideoPreview/frames`` gets each
    /// frame the size of the preview's bounds, in its orientation, mirroring and gravity, as BGRA
    /// pixels or (`.jpeg`) as JPEG images.
    case frames(PreviewFrameFormat = .bgra)
    /// Nothing is shown: the preview only converts coordinates (a web page that shows the
    /// picture itself, from a stream output).
    case none

    public var description: String {
        switch self {
        case .window: "window"
        case .kms: "kms"
        case .frames(.bgra): "frames"
        case .frames(let format): "frames(\(format.rawValue))"
        case .none: "none"
        }
    }
}
