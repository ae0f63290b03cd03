/// Quality levels for a session's output (AVCaptureSession.Preset).
public enum SessionPreset: String, Sendable, Hashable, CaseIterable {
    case photo, high, medium, low
    case cif352x288, vga640x480, hd1280x720, hd1920x1080, hd4K3840x2160
    case iFrame960x540, iFrame1280x720
    /// The session leaves the device's `activeFormat` alone.
    case inputPriority

    /// The exact size a fixed-size preset needs.
    var exactSize: (width: Int, height: Int)? {
        switch self {
        case .cif352x288: (352, 288)
        case .vga640x480: (640, 480)
        case .hd1280x720, .iFrame1280x720: (1280, 720)
        case .hd1920x1080: (1920, 1080)
        case .hd4K3840x2160: (3840, 2160)
        case .iFrame960x540: (960, 540)
        default: nil
        }
    }

    /// The device format this preset runs the device at, or nil when the device cannot.
    ///
    /// Fixed sizes need that exact size; `photo` takes the largest format, `high` the largest up
    /// to 1920x1080, `medium` the smallest at least 480x360, `low` the smallest at least 192x144.
    /// Among equal sizes, raw formats win over compressed ones, then the highest frame rate.
    func bestFormat(among formats: [CaptureDevice.Format]) -> CaptureDevice.Format? {
        let video = formats.filter { $0.mediaType == .video }
        let ranked = video.sorted { a, b in
            let areaA = a.width * a.height, areaB = b.width * b.height
            if areaA != areaB { return areaA < areaB }
            let rawA = a.pixelFormat.gstFormat != nil, rawB = b.pixelFormat.gstFormat != nil
            if rawA != rawB { return rawA }
            return a.maxFrameRate > b.maxFrameRate
        }
        func smallest(atLeast width: Int, _ height: Int) -> CaptureDevice.Format? {
            ranked.first { $0.width >= width && $0.height >= height } ?? ranked.last
        }
        func firstOfLargest(_ candidates: [CaptureDevice.Format]) -> CaptureDevice.Format? {
            guard let largest = candidates.last else { return nil }
            return candidates.first { $0.width == largest.width && $0.height == largest.height }
        }
        switch self {
        case .photo: return firstOfLargest(ranked)
        case .high: return firstOfLargest(ranked.filter { $0.width * $0.height <= 1920 * 1080 }) ?? ranked.first
        case .medium: return smallest(atLeast: 480, 360)
        case .low: return smallest(atLeast: 192, 144)
        case .inputPriority: return nil
        default:
            guard let size = exactSize else { return nil }
            return ranked.first { $0.width == size.width && $0.height == size.height }
        }
    }
}
