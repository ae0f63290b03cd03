import Foundation

extension VideoDataOutput.VideoSettings {
    /// The settings in AVFoundation's dictionary form: `kCVPixelBufferPixelFormatTypeKey` (a
    /// CoreVideo code), `kCVPixelBufferWidthKey`/`kCVPixelBufferHeightKey`, or `VideoCodecKey`
    /// with `VideoCompressionPropertiesKey` for compressed frames. Numbers are `NSNumber`s.
    public var dictionary: [String: Any] {
        var result: [String: Any] = [:]
        if let pixelFormat { result[kCVPixelBufferPixelFormatTypeKey] = NSNumber(value: pixelFormat.cvPixelFormatType(range: nil)) }
        if let width { result[kCVPixelBufferWidthKey] = NSNumber(value: width) }
        if let height { result[kCVPixelBufferHeightKey] = NSNumber(value: height) }
        if let codec {
            result[VideoCodecKey] = codec
            var properties: [String: Any] = [:]
            if let bitrate { properties[VideoAverageBitRateKey] = NSNumber(value: bitrate) }
            if let keyFrameInterval { properties[VideoMaxKeyFrameIntervalKey] = NSNumber(value: keyFrameInterval) }
            if let profile { properties[VideoProfileLevelKey] = profile.rawValue }
            if !properties.isEmpty { result[VideoCompressionPropertiesKey] = properties }
        }
        return result
    }

    /// Settings from AVFoundation's dictionary form (see ``dictionary``). Throws
    /// `invalidSetting` naming an unknown key, or a pixel format (by its four characters) or
    /// codec CaptureKit does not know; the output checks the combination when they are set.
    public init(dictionary: [String: Any]) throws(CaptureError) {
        try SettingsValue.checkKeys(dictionary, known: [kCVPixelBufferPixelFormatTypeKey, kCVPixelBufferWidthKey, kCVPixelBufferHeightKey,
                                                        VideoCodecKey, VideoCompressionPropertiesKey], name: "video settings")
        var pixelFormat: PixelFormat?
        if let value = dictionary[kCVPixelBufferPixelFormatTypeKey] {
            guard let code = SettingsValue.integer(value), let format = PixelFormat.from(cvPixelFormatType: OSType(truncatingIfNeeded: code))?.format else {
                let valid = PixelFormat.allCases.map { SettingsValue.fourCC(Int($0.cvPixelFormatType(range: nil))) }.filter { $0 != "0" }
                throw .invalidSetting(name: "pixel format type", value: SettingsValue.integer(value).map(SettingsValue.fourCC) ?? "\(value)",
                                      valid: valid.joined(separator: ", "))
            }
            pixelFormat = format
        }
        self.init(pixelFormat: pixelFormat, width: SettingsValue.integer(dictionary[kCVPixelBufferWidthKey]),
                  height: SettingsValue.integer(dictionary[kCVPixelBufferHeightKey]))
        guard let codecValue = dictionary[VideoCodecKey] else { return }
        guard let codec = (codecValue as? VideoCodecType) ?? (codecValue as? String).flatMap(VideoCodecType.init(fourCharacterCode:)) else {
            throw .invalidSetting(name: "video codec", value: "\(codecValue)", valid: VideoCodecType.allCases.map { "\($0)" }.joined(separator: ", "))
        }
        let properties = dictionary[VideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        try SettingsValue.checkKeys(properties, known: [VideoAverageBitRateKey, VideoMaxKeyFrameIntervalKey, VideoProfileLevelKey],
                                    name: "compression properties")
        if let value = properties[VideoProfileLevelKey] {
            guard let profile = (value as? String).flatMap(H264Profile.init(rawValue:)) else {
                throw .invalidSetting(name: "H.264 profile", value: "\(value)", valid: H264Profile.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.profile = profile
        }
        self.codec = codec
        bitrate = SettingsValue.integer(properties[VideoAverageBitRateKey])
        keyFrameInterval = SettingsValue.integer(properties[VideoMaxKeyFrameIntervalKey])
    }
}
