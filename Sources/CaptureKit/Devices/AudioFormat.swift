import GStreamerSwift

/// The format of PCM audio: sample rate, channel count and sample format (interleaved).
///
/// Describes what a microphone's `CaptureDevice.Format` delivers and what an audio
/// `SampleBuffer` holds.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second, e.g. 48000.
    public var sampleRate: Int
    /// Interleaved channels: 1 mono, 2 stereo.
    public var channelCount: Int
    public var sampleFormat: AudioSampleFormat

    public init(sampleRate: Int, channelCount: Int, sampleFormat: AudioSampleFormat) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleFormat = sampleFormat
    }

    /// Bytes of one frame: one sample of every channel.
    public var bytesPerFrame: Int { channelCount * sampleFormat.bytesPerSample }

    /// e.g. "48000 Hz 2 ch s16le".
    public var description: String { "\(sampleRate) Hz \(channelCount) ch \(sampleFormat)" }

    /// The raw-audio caps of the format. More than two channels are unpositioned
    /// (`channel-mask=0`), as GStreamer needs a mask for them.
    var caps: String {
        var caps = "audio/x-raw,format=\(sampleFormat.gstFormat),layout=interleaved,rate=\(sampleRate),channels=\(channelCount)"
        if channelCount > 2 { caps += ",channel-mask=(bitmask)0x0" }
        return caps
    }

    /// The format described by raw-audio caps fields (format, rate, channels, all fixed), or nil
    /// for other caps or sample formats CaptureKit does not deliver.
    init?(capsName: String, fields: [String: CapsValue]) {
        guard capsName == "audio/x-raw", case .string(let name)? = fields["format"], let format = AudioSampleFormat(gstFormat: name),
              case .int(let rate)? = fields["rate"], case .int(let channels)? = fields["channels"], rate > 0, channels > 0 else { return nil }
        self.init(sampleRate: rate, channelCount: channels, sampleFormat: format)
    }
}
