import Foundation

/// A still's metadata in the dictionary shape AVCapturePhoto's `metadata` has (ImageIO's keys).
enum PhotoMetadata {
    static func dictionary(_ metadata: StillMetadata) -> [String: Any] {
        var exif: [String: Any] = [
            "Flash": metadata.isFlashFired ? 1 : 0,
            "DateTimeOriginal": StillTags.timestamp(metadata.date),
        ]
        if let duration = metadata.exposureDuration { exif["ExposureTime"] = duration.seconds }
        if let iso = metadata.iso { exif["ISOSpeedRatings"] = [Int(iso.rounded())] }
        if let bias = metadata.exposureBias { exif["ExposureBiasValue"] = Double(bias) }
        if let fNumber = metadata.fNumber { exif["FNumber"] = Double(fNumber) }
        if let zoom = metadata.digitalZoomRatio { exif["DigitalZoomRatio"] = zoom }
        if let manual = metadata.isExposureManual { exif["ExposureMode"] = manual ? 1 : 0 }
        if let manual = metadata.isWhiteBalanceManual { exif["WhiteBalance"] = manual ? 1 : 0 }
        var tiff: [String: Any] = ["Orientation": metadata.exifOrientation, "DateTime": StillTags.timestamp(metadata.date)]
        if let make = metadata.make { tiff["Make"] = make }
        if let model = metadata.model { tiff["Model"] = model }
        return ["{Exif}": exif, "{TIFF}": tiff, "Orientation": metadata.exifOrientation]
    }
}
