import Foundation

/// One photo a capture delivered (AVCapturePhoto): its file data, metadata and pixels.
public final class Photo: Sendable {
    /// When the photo's frame was captured, on the session's clock.
    public let timestamp: CMTime
    /// The settings the capture resolved to.
    public let resolvedSettings: ResolvedPhotoSettings
    /// Which photo of the capture this is, from 1.
    public let photoCount: Int
    /// The bracket entry it was exposed with; nil outside a bracket.
    public let bracketSettings: (any BracketedStillImageSettings)?
    /// Always false: CaptureKit makes no RAW photos.
    public let isRawPhoto = false
    /// The still as the output delivered it.
    let sample: SampleBuffer
    /// The preview image, when the settings asked for one.
    let preview: SampleBuffer?

    init(sample: SampleBuffer, preview: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings, photoCount: Int,
         bracketSettings: (any BracketedStillImageSettings)?) {
        self.sample = sample
        self.preview = preview
        self.resolvedSettings = resolvedSettings
        self.photoCount = photoCount
        self.bracketSettings = bracketSettings
        timestamp = sample.presentationTime
    }

    /// The photo of a capture that failed: no data, no pixels.
    convenience init(failed resolvedSettings: ResolvedPhotoSettings) {
        let empty = SampleBuffer(presentationTime: .invalid, duration: .invalid,
                                 formatDescription: FormatDescription(codec: .jpeg, pixelFormat: nil, width: 0, height: 0, bytesPerRow: []),
                                 attachments: SampleAttachments(videoOrientation: .landscapeRight, isVideoMirrored: false, deviceUniqueID: ""),
                                 storage: .data(Data()))
        self.init(sample: empty, preview: nil, resolvedSettings: resolvedSettings, photoCount: 1, bracketSettings: nil)
    }

    /// The photo as a file: a JPEG with its EXIF (exposure, white balance, flash, zoom,
    /// orientation, date, make and model); nil for an uncompressed photo.
    public func fileDataRepresentation() -> Data? {
        (try? StillImageOutput.jpegStillImageData(from: sample)).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The pixels of an uncompressed photo; nil for JPEG.
    public var pixelBuffer: CVPixelBuffer? { sample.imageBuffer }

    /// The preview image's pixels (BGRA), when the settings asked for one.
    public var previewPixelBuffer: CVPixelBuffer? { preview?.imageBuffer }

    /// The photo's metadata as AVFoundation gives it: `{Exif}` (ExposureTime, ISOSpeedRatings,
    /// ExposureBiasValue, FNumber, Flash, DigitalZoomRatio, WhiteBalance, ExposureMode),
    /// `{TIFF}` (Make, Model, Orientation, DateTime) and `Orientation`.
    public var metadata: [String: Any] { sample.attachments.stillMetadata.map(PhotoMetadata.dictionary) ?? [:] }
}
