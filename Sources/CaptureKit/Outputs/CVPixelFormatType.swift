// CoreVideo's pixel-format codes and pixel-buffer attribute keys under their own names.

/// BGRA, 8 bits each ('BGRA').
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// RGBA, 8 bits each ('RGBA').
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241
/// RGB, 8 bits each (24).
public let kCVPixelFormatType_24RGB: OSType = 0x0000_0018
/// BGR, 8 bits each ('24BG').
public let kCVPixelFormatType_24BGR: OSType = 0x3234_4247
/// NV12 with video-range values ('420v').
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// NV12 with full-range values ('420f').
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066
/// I420, three planes, video range ('y420').
public let kCVPixelFormatType_420YpCbCr8Planar: OSType = 0x7934_3230
/// I420, three planes, full range ('f420').
public let kCVPixelFormatType_420YpCbCr8PlanarFullRange: OSType = 0x6634_3230
/// 8-bit gray ('L008').
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// UYVY ('2vuy').
public let kCVPixelFormatType_422YpCbCr8: OSType = 0x3276_7579
/// YUY2 ('yuvs').
public let kCVPixelFormatType_422YpCbCr8_yuvs: OSType = 0x7975_7673

/// The pixel-format key of a video-settings dictionary: an `OSType` (or `NSNumber`/`Int`) code.
public let kCVPixelBufferPixelFormatTypeKey = "PixelFormatType"
/// The width key of a video-settings dictionary, in pixels.
public let kCVPixelBufferWidthKey = "Width"
/// The height key of a video-settings dictionary, in pixels.
public let kCVPixelBufferHeightKey = "Height"

extension PixelFormat {
    /// CoreVideo's code for frames of this format with values in `range` (nil: video range).
    /// BGRx frames are reported as 32BGRA (the same layout); compressed formats have none (0).
    func cvPixelFormatType(range: ColorRange?) -> OSType {
        switch self {
        case .bgra, .bgrx: kCVPixelFormatType_32BGRA
        case .rgba: kCVPixelFormatType_32RGBA
        case .rgb: kCVPixelFormatType_24RGB
        case .bgr: kCVPixelFormatType_24BGR
        case .nv12: range == .full ? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        case .i420: range == .full ? kCVPixelFormatType_420YpCbCr8PlanarFullRange : kCVPixelFormatType_420YpCbCr8Planar
        case .gray8: kCVPixelFormatType_OneComponent8
        case .uyvy: kCVPixelFormatType_422YpCbCr8
        case .yuy2: kCVPixelFormatType_422YpCbCr8_yuvs
        case .mjpeg, .h264: 0
        }
    }

    /// The format CoreVideo's `code` names, with the value range it asks for; nil for codes
    /// CaptureKit does not deliver.
    static func from(cvPixelFormatType code: OSType) -> (format: PixelFormat, range: ColorRange?)? {
        for format in PixelFormat.allCases where format != .bgrx {
            let full = format.cvPixelFormatType(range: .full), video = format.cvPixelFormatType(range: .video)
            if code == full { return (format, full == video ? nil : .full) }
            if code == video { return (format, .video) }
        }
        return nil
    }
}

extension FormatDescription {
    /// CoreVideo's code for the frames' pixel format; 0 for compressed samples and audio.
    var cvPixelFormatType: OSType { pixelFormat?.cvPixelFormatType(range: colorRange) ?? 0 }

    /// The size of plane `index` in samples and rows: chroma planes of 4:2:0 formats are half
    /// of each (rounded up); (0, 0) out of range.
    func planeSize(_ index: Int) -> (width: Int, height: Int) {
        guard bytesPerRow.indices.contains(index) else { return (0, 0) }
        guard index > 0, pixelFormat == .nv12 || pixelFormat == .i420 else { return (width, height) }
        return ((width + 1) / 2, (height + 1) / 2)
    }
}
