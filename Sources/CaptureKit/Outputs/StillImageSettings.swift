/// What a still image output encodes (AVCaptureStillImageOutput.outputSettings).
public enum StillImageSettings: Sendable, Hashable, CustomStringConvertible {
    /// JPEG with EXIF; quality 0.0 (smallest) … 1.0 (best).
    case jpeg(quality: Double)
    /// Uncompressed frames in one of `StillImageOutput.availableImageDataPixelFormatTypes`;
    /// YCbCr formats (NV12, I420) in video range (AVFoundation's '420v', the default) or full
    /// range ('420f'), which the sample's `formatDescription.colorRange` repeats. The range is
    /// ignored for BGRA.
    case uncompressed(PixelFormat, range: ColorRange = .video)

    /// JPEG at quality 0.85.
    public static let `default` = StillImageSettings.jpeg(quality: 0.85)

    public var description: String {
        switch self {
        case .jpeg(let quality): "jpeg(quality: \(quality))"
        case .uncompressed(let format, let range): format.isYCbCr ? "uncompressed(\(format), range: \(range))" : "uncompressed(\(format))"
        }
    }
}
