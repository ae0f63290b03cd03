/// How an output encodes video (AVVideoSettings with AVVideoCompressionPropertiesKey): the codec,
/// the average bit rate and the largest distance between key frames. Fields left nil take the
/// encoder's defaults for the source's size and rate (see ``defaultBitrate(width:height:frameRate:)``).
public struct VideoCodecSettings: Sendable, Hashable {
    public var codec: VideoCodecType
    /// Average bits per second (AVVideoAverageBitRateKey).
    public var bitrate: Int?
    /// Most frames from one key frame to the next (AVVideoMaxKeyFrameIntervalKey).
    public var keyFrameInterval: Int?
    /// The H.264 profile (AVVideoProfileLevelKey); nil leaves it to the encoder (x264 tuned for
    /// live capture gives constrained baseline). Asked of the encoder through its output caps,
    /// which x264enc, openh264enc, the VA-API encoders and `v4l2h264enc` read; an encoder that
    /// cannot make the profile fails to negotiate, and the session reports it.
    public var profile: H264Profile?
    /// Text burned into this rendition before it is encoded (the capture time, a fixed text):
    /// outputs asking for it share an encode of their own, and the raw frames of other outputs
    /// never carry it.
    public var overlay: VideoOverlay?

    public init(codec: VideoCodecType = .h264, bitrate: Int? = nil, keyFrameInterval: Int? = nil, profile: H264Profile? = nil,
                overlay: VideoOverlay? = nil) {
        self.codec = codec
        self.bitrate = bitrate
        self.keyFrameInterval = keyFrameInterval
        self.profile = profile
        self.overlay = overlay
    }

    /// The bit rate used when none is given: a tenth of a bit per pixel per frame, at least
    /// 500 kbit/s (about 2.8 Mbit/s for 1280x720 at 30 fps).
    public static func defaultBitrate(width: Int, height: Int, frameRate: Double) -> Int {
        max(500_000, Int(Double(width * height) * max(frameRate, 1) / 10))
    }

    /// The key-frame interval used when none is given: two seconds of frames.
    public static func defaultKeyFrameInterval(frameRate: Double) -> Int {
        max(1, Int((max(frameRate, 1) * 2).rounded()))
    }

    /// These settings with the defaults for `source` filled in: what an encoder is given, and
    /// what decides whether two outputs share one encode.
    func resolved(for source: SourceFormat) -> VideoCodecSettings {
        VideoCodecSettings(codec: codec,
                           bitrate: bitrate ?? Self.defaultBitrate(width: source.width, height: source.height, frameRate: source.frameRate),
                           keyFrameInterval: keyFrameInterval ?? Self.defaultKeyFrameInterval(frameRate: source.frameRate), profile: profile,
                           overlay: overlay)
    }

    /// Throws unless every field is one an encoder can honour.
    func validate(available: [VideoCodecType]) throws(CaptureError) {
        guard available.contains(codec) else {
            throw .invalidSetting(name: "video codec", value: codec.rawValue, valid: available.map(\.rawValue).joined(separator: ", "))
        }
        if let bitrate, bitrate < 10_000 || bitrate > 200_000_000 {
            throw .invalidSetting(name: "bitrate", value: "\(bitrate) bit/s", valid: "10000…200000000 bit/s")
        }
        if let keyFrameInterval, keyFrameInterval < 1 || keyFrameInterval > 10_000 {
            throw .invalidSetting(name: "key frame interval", value: "\(keyFrameInterval) frames", valid: "1…10000 frames")
        }
        try overlay?.validate()
    }
}
