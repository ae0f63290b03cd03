/// What a still image output encodes (AVCaptureStillImageOutput.outputSettings).
public enum StillImageSettings: Sendable, Hashable, CustomStringConvertible {
    /// JPEG with EXIF; quality 0.0 (smallest) … 1.0 (best).
    case jpeg(quality: Double)
    /// Uncompressed frames in one of `StillImageOutput.availableImageDataPixelFormatTypes`.
    case uncompressed(PixelFormat)

    /// JPEG at quality 0.85.
    public static let `default` = StillImageSettings.jpeg(quality: 0.85)

    public var description: String {
        switch self {
        case .jpeg(let quality): "jpeg(quality: \(quality))"
        case .uncompressed(let format): "uncompressed(\(format))"
        }
    }
}
