/// Settings for a bracket of photos, each exposed as one of `bracketedSettings` says
/// (AVCapturePhotoBracketSettings). The delegate hears one did-finish-processing per photo, in
/// order, then did-finish-capture once. The flash does not fire during a bracket.
public final class PhotoBracketSettings: PhotoSettings, @unchecked Sendable {
    /// One entry per photo: all auto-exposure or all manual-exposure settings.
    public let bracketedSettings: [any BracketedStillImageSettings]
    /// Accepted for source compatibility: CaptureKit makes no RAW photos (0).
    public let rawPhotoPixelFormatType: OSType

    public init(rawPixelFormatType: OSType, processedFormat: [String: Any]?, bracketedSettings: [any BracketedStillImageSettings]) {
        self.bracketedSettings = bracketedSettings
        rawPhotoPixelFormatType = rawPixelFormatType
        super.init(format: processedFormat)
    }
}
