/// How one PCM sample is stored: the sample formats of microphones and audio samples.
///
/// Samples are interleaved (left, right, left, right… for stereo) and little-endian.
public enum AudioSampleFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Signed 16-bit integers, full scale ±32767 (`Int16`).
    case s16le
    /// 32-bit floats, full scale ±1 (`Float`).
    case f32le

    /// Bytes of one sample of one channel.
    public var bytesPerSample: Int {
        switch self {
        case .s16le: 2
        case .f32le: 4
        }
    }

    /// GStreamer's format name ("S16LE", "F32LE").
    var gstFormat: String { rawValue.uppercased() }

    init?(gstFormat: String) {
        guard let match = AudioSampleFormat.allCases.first(where: { $0.gstFormat == gstFormat }) else { return nil }
        self = match
    }

    public var description: String { rawValue }
}
