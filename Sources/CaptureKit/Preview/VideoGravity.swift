/// How a preview fits the picture into its bounds (AVLayerVideoGravity).
public enum VideoGravity: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The whole picture, its aspect kept, centred; bars fill the rest (the default).
    case resizeAspect
    /// The bounds filled, its aspect kept, centred; what overflows is cropped.
    case resizeAspectFill
    /// The picture stretched to the bounds.
    case resize

    /// The gravity named as `capture preview --gravity` takes it (`aspect`, `fill`, `resize`)
    /// or as its case is (`resizeAspect`, …).
    public init?(name: String) {
        switch name {
        case "aspect", "resizeAspect": self = .resizeAspect
        case "fill", "resizeAspectFill": self = .resizeAspectFill
        case "resize": self = .resize
        default: return nil
        }
    }

    /// The short names `init(name:)` takes: aspect, fill, resize.
    public static let shortNames = ["aspect", "fill", "resize"]

    public var description: String { rawValue }
}
