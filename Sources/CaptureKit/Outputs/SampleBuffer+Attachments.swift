import Foundation

// CoreMedia's attachment calls over a still's metadata, under their own names: the seeds read a
// still's EXIF with `CMCopyDictionaryOfAttachments` and `CMGetAttachment`.

/// Whether an attachment travels on to derived buffers (CMAttachmentMode).
public typealias CMAttachmentMode = UInt32
public let kCMAttachmentMode_ShouldNotPropagate: CMAttachmentMode = 0
public let kCMAttachmentMode_ShouldPropagate: CMAttachmentMode = 1

/// ImageIO's keys for a still's attachments.
public let kCGImagePropertyExifDictionary = "{Exif}"
public let kCGImagePropertyTIFFDictionary = "{TIFF}"
public let kCGImagePropertyOrientation = "Orientation"
public let kCGImagePropertyExifExposureTime = "ExposureTime"
public let kCGImagePropertyExifISOSpeedRatings = "ISOSpeedRatings"
public let kCGImagePropertyExifExposureBiasValue = "ExposureBiasValue"
public let kCGImagePropertyExifFNumber = "FNumber"
public let kCGImagePropertyExifFlash = "Flash"
public let kCGImagePropertyExifWhiteBalance = "WhiteBalance"
public let kCGImagePropertyExifDigitalZoomRatio = "DigitalZoomRatio"
public let kCGImagePropertyExifDateTimeOriginal = "DateTimeOriginal"
public let kCGImagePropertyTIFFMake = "Make"
public let kCGImagePropertyTIFFModel = "Model"

/// CoreMedia's codec type for JPEG (`kCMVideoCodecType_JPEG`), the value seed-era code gives
/// `AVVideoCodecKey`: ``VideoCodecType/jpeg``.
public let kCMVideoCodecType_JPEG = VideoCodecType.jpeg

/// A still's attachments as ImageIO names them: `{Exif}` (exposure time, ISO, bias, f-number,
/// flash, white balance, digital zoom, date), `{TIFF}` (make, model, orientation) and the
/// orientation; nil for samples that are not stills. The values are the ones its JPEG's EXIF
/// holds (``StillMetadata``). Every attachment propagates, so `attachmentMode` selects nothing.
public func CMCopyDictionaryOfAttachments(allocator: Any?, target: CMSampleBuffer, attachmentMode: CMAttachmentMode) -> [String: Any]? {
    target.attachments.stillMetadata.map { $0.imageProperties }
}

/// One of ``CMCopyDictionaryOfAttachments(allocator:target:attachmentMode:)``'s attachments;
/// `attachmentModeOut`, when given, is set to `kCMAttachmentMode_ShouldPropagate`.
public func CMGetAttachment(_ target: CMSampleBuffer, key: String, attachmentModeOut: UnsafeMutablePointer<CMAttachmentMode>?) -> Any? {
    guard let value = CMCopyDictionaryOfAttachments(allocator: nil, target: target, attachmentMode: kCMAttachmentMode_ShouldPropagate)?[key] else {
        return nil
    }
    attachmentModeOut?.pointee = kCMAttachmentMode_ShouldPropagate
    return value
}

extension StillMetadata {
    /// The metadata as ImageIO's property dictionaries.
    var imageProperties: [String: Any] {
        var exif: [String: Any] = [:]
        exif[kCGImagePropertyExifExposureTime] = exposureDuration.map { NSNumber(value: $0.seconds) }
        exif[kCGImagePropertyExifISOSpeedRatings] = iso.map { [NSNumber(value: Int($0.rounded()))] }
        exif[kCGImagePropertyExifExposureBiasValue] = exposureBias.map { NSNumber(value: $0) }
        exif[kCGImagePropertyExifFNumber] = fNumber.map { NSNumber(value: $0) }
        exif[kCGImagePropertyExifFlash] = NSNumber(value: isFlashFired ? 1 : 0)
        exif[kCGImagePropertyExifWhiteBalance] = isWhiteBalanceManual.map { NSNumber(value: $0 ? 1 : 0) }
        exif[kCGImagePropertyExifDigitalZoomRatio] = digitalZoomRatio.map { NSNumber(value: $0) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        exif[kCGImagePropertyExifDateTimeOriginal] = formatter.string(from: date)
        var tiff: [String: Any] = [kCGImagePropertyOrientation: NSNumber(value: exifOrientation)]
        tiff[kCGImagePropertyTIFFMake] = make
        tiff[kCGImagePropertyTIFFModel] = model
        return [kCGImagePropertyExifDictionary: exif, kCGImagePropertyTIFFDictionary: tiff,
                kCGImagePropertyOrientation: NSNumber(value: exifOrientation)]
    }
}
