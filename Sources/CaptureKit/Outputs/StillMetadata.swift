import Foundation

/// What a still was taken with, as typed values: the same values its JPEG's EXIF holds
/// (AVFoundation's still attachments, `kCGImagePropertyExifDictionary`). Every still sample
/// carries one in `SampleAttachments.stillMetadata`, JPEG or uncompressed.
///
/// The virtual camera knows every value; a V4L2 camera's exposure is read from its controls at
/// capture (exposure_time_absolute, and gain mapped to ISO), and values a camera cannot tell
/// are nil.
public struct StillMetadata: Sendable, Hashable {
    /// EXIF ExposureTime.
    public var exposureDuration: CaptureTime?
    /// EXIF ISOSpeedRatings.
    public var iso: Float?
    /// EXIF ExposureBiasValue, in EV: the bias the picture was exposed for.
    public var exposureBias: Float?
    /// EXIF FNumber.
    public var fNumber: Float?
    /// EXIF ExposureMode: false for auto, true for manual (custom or locked).
    public var isExposureManual: Bool?
    /// The lens position (0 near … 1 far) when the still was taken; nil without a focus control.
    public var lensPosition: Float?
    /// The white balance gains applied; nil where the camera balances by itself.
    public var whiteBalanceGains: CaptureDevice.WhiteBalanceGains?
    /// EXIF WhiteBalance: true for manual (locked gains).
    public var isWhiteBalanceManual: Bool?
    /// EXIF DigitalZoomRatio.
    public var digitalZoomRatio: Double?
    /// EXIF Flash: the mode and whether it fired.
    public var flashMode: CaptureDevice.FlashMode?
    public var isFlashFired: Bool
    /// EXIF Orientation (1–8).
    public var exifOrientation: Int
    /// EXIF DateTimeOriginal.
    public var date: Date
    /// EXIF Make and Model.
    public var make: String?
    public var model: String?
    /// The faces a running `MetadataOutput` of the same session saw in the last frame it
    /// examined (AVFoundation attaches detected faces to stills); empty without one.
    public var faces: [FaceObject] = []

    public init(exposureDuration: CaptureTime? = nil, iso: Float? = nil, exposureBias: Float? = nil, fNumber: Float? = nil,
                isExposureManual: Bool? = nil, lensPosition: Float? = nil, whiteBalanceGains: CaptureDevice.WhiteBalanceGains? = nil,
                isWhiteBalanceManual: Bool? = nil, digitalZoomRatio: Double? = nil, flashMode: CaptureDevice.FlashMode? = nil,
                isFlashFired: Bool = false, exifOrientation: Int = 1, date: Date = Date(), make: String? = nil, model: String? = nil) {
        self.exposureDuration = exposureDuration
        self.iso = iso
        self.exposureBias = exposureBias
        self.fNumber = fNumber
        self.isExposureManual = isExposureManual
        self.lensPosition = lensPosition
        self.whiteBalanceGains = whiteBalanceGains
        self.isWhiteBalanceManual = isWhiteBalanceManual
        self.digitalZoomRatio = digitalZoomRatio
        self.flashMode = flashMode
        self.isFlashFired = isFlashFired
        self.exifOrientation = exifOrientation
        self.date = date
        self.make = make
        self.model = model
    }
}
