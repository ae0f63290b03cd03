/// Pixel formats of frames and device formats.
public enum PixelFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case bgra, rgba, bgrx, nv12, i420, gray8, yuy2, uyvy, rgb, bgr
    /// Motion JPEG from the device (decoded before outputs that want raw frames).
    case mjpeg
    /// H.264 from the device.
    case h264

    /// Whether frames hold luma and chroma (the formats a `ColorRange` applies to).
    var isYCbCr: Bool { [.nv12, .i420, .yuy2, .uyvy].contains(self) }

    /// GStreamer's format name, or nil for compressed formats.
    var gstFormat: String? {
        switch self {
        case .mjpeg, .h264: nil
        case .gray8: "GRAY8"
        case .bgrx: "BGRx"
        default: rawValue.uppercased()
        }
    }

    init?(gstFormat: String) {
        guard let match = PixelFormat.allCases.first(where: { $0.gstFormat == gstFormat }) else { return nil }
        self = match
    }

    public var description: String { rawValue }
}
