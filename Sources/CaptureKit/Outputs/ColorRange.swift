/// The range of YCbCr values, as AVFoundation's pixel formats name it:
/// `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` ('420v') against `…FullRange` ('420f').
public enum ColorRange: String, Sendable, Hashable, CaseIterable {
    /// Luma 16…235 and chroma 16…240 (video range), what video encoders expect.
    case video
    /// Luma and chroma 0…255 (full range), what JPEG uses.
    case full

    /// The caps' colorimetry for this range with the BT.601 matrix, sRGB transfer and BT.709
    /// primaries (JFIF's full range, and its video-range twin).
    var colorimetry: String { self == .full ? "1:4:7:1" : "2:4:7:1" }
}
