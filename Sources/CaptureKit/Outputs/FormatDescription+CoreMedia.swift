/// CMFormatDescription: a sample's or a device format's description.
public typealias CMFormatDescription = FormatDescription
/// CMVideoFormatDescription.
public typealias CMVideoFormatDescription = FormatDescription

/// The width and height of a video format description.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: FormatDescription) -> CMVideoDimensions {
    CMVideoDimensions(width: Int32(videoDesc.width), height: Int32(videoDesc.height))
}

extension CaptureDevice.Format {
    /// The format as a format description (AVCaptureDevice.Format's `formatDescription`): its
    /// pixel format for raw video, its codec for compressed video, and its size.
    public var formatDescription: FormatDescription {
        let codec: VideoCodecType? = switch pixelFormat {
        case .mjpeg: .jpeg
        case .h264: .h264
        default: nil
        }
        return FormatDescription(codec: codec, pixelFormat: codec == nil ? pixelFormat : nil, width: width, height: height,
                                 bytesPerRow: [], audioFormat: audioFormat)
    }
}
