import Foundation
import Synchronization

/// The settings of one photo capture (AVCapturePhotoSettings): make a new one for each
/// `capturePhoto(with:delegate:)`, as AVFoundation requires.
open class PhotoSettings: @unchecked Sendable {
    private static let counter = Atomic<Int64>(0)

    /// A number no other settings object of the process has.
    public let uniqueID: Int64
    /// The encoding: `[VideoCodecKey: VideoCodecType.jpeg]` (the default), or
    /// `[kCVPixelBufferPixelFormatTypeKey: code]` for uncompressed photos.
    public let format: [String: Any]
    /// Whether the flash fires for this photo (the device's `flashMode` is not used).
    public var flashMode: CaptureDevice.FlashMode = .off
    /// The largest size wanted; zero (the default) for the active format's. CaptureKit takes
    /// photos at the active format's size, which must not exceed it.
    public var maxPhotoDimensions = CMVideoDimensions()
    /// How much the capture may trade speed for quality; at most the output's
    /// `maxPhotoQualityPrioritization`. `.quality` encodes JPEG at 0.95, `.balanced` at 0.85,
    /// `.speed` at 0.7.
    public var photoQualityPrioritization: PhotoOutput.QualityPrioritization = .balanced
    /// Accepted for source compatibility: CaptureKit never stabilises stills.
    public var isAutoStillImageStabilizationEnabled = false
    /// Accepted for source compatibility: photos are the active format's size.
    public var isHighResolutionPhotoEnabled = false
    /// Asks for a preview image beside a JPEG photo (iOS 10's delegate gets it as
    /// `previewPhotoSampleBuffer`, a ``Photo`` as `previewPixelBuffer`): BGRA, at most
    /// `kCVPixelBufferWidthKey` by `kCVPixelBufferHeightKey` with the photo's aspect ratio, 160
    /// pixels wide where neither is given. Nil (the default) for none.
    public var previewPhotoFormat: [String: Any]?

    /// The pixel formats a preview image can have: BGRA.
    public var availablePreviewPhotoPixelFormatTypes: [OSType] { [kCVPixelFormatType_32BGRA] }

    /// JPEG settings.
    public init() {
        uniqueID = Self.counter.add(1, ordering: .relaxed).newValue
        format = [VideoCodecKey: VideoCodecType.jpeg]
    }

    /// Settings for `format` (nil: JPEG).
    public init(format: [String: Any]?) {
        uniqueID = Self.counter.add(1, ordering: .relaxed).newValue
        self.format = format ?? [VideoCodecKey: VideoCodecType.jpeg]
    }

    /// A copy with a new `uniqueID` (AVCapturePhotoSettings(from:)).
    public convenience init(from settings: PhotoSettings) {
        self.init(format: settings.format)
        flashMode = settings.flashMode
        maxPhotoDimensions = settings.maxPhotoDimensions
        photoQualityPrioritization = settings.photoQualityPrioritization
        previewPhotoFormat = settings.previewPhotoFormat
    }
}
