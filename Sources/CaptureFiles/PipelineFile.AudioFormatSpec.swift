import CaptureKit

extension PipelineFile {
    /// A requested audio format, written as up to three words in any order: a sample rate
    /// (`48000Hz` or `48kHz`), a channel layout (`mono`, `stereo` or `Nch`) and a sample format
    /// (`s16le` or `f32le`), e.g. `48000Hz stereo s16le` or `mono f32le`.
    ///
    /// A microphone input's `format` selects the device format that has every part given; an
    /// `audioData` output's `format` converts what it delivers (parts left out follow the device).
    public struct AudioFormatSpec: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// Frames per second, if given; at least 1.
        public var sampleRate: Int?
        /// Interleaved channels, if given; at least 1.
        public var channelCount: Int?
        /// How each sample is stored, if given.
        public var sampleFormat: AudioSampleFormat?

        /// Creates an audio format request.
        /// - Parameters:
        ///   - sampleRate: The sample rate in hertz, if any.
        ///   - channelCount: The channel count, if any.
        ///   - sampleFormat: The sample format, if any.
        public init(sampleRate: Int? = nil, channelCount: Int? = nil, sampleFormat: AudioSampleFormat? = nil) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.sampleFormat = sampleFormat
        }

        /// The request that names every part of `format`.
        /// - Parameter format: A complete audio format.
        public init(_ format: AudioFormat) {
            self.init(sampleRate: format.sampleRate, channelCount: format.channelCount, sampleFormat: format.sampleFormat)
        }

        /// Whether `format` has every part this request gives.
        /// - Parameter format: A device's or a buffer's audio format.
        /// - Returns: True when no given part differs.
        public func matches(_ format: AudioFormat) -> Bool {
            sampleRate.map { $0 == format.sampleRate } ?? true
                && channelCount.map { $0 == format.channelCount } ?? true
                && sampleFormat.map { $0 == format.sampleFormat } ?? true
        }

        /// The request in pipeline-file syntax, e.g. `48000Hz stereo s16le`.
        public var description: String {
            var words: [String] = []
            if let sampleRate { words.append("\(sampleRate)Hz") }
            if let channelCount { words.append(Self.channelWord(channelCount)) }
            if let sampleFormat { words.append(sampleFormat.rawValue) }
            return words.joined(separator: " ")
        }

        /// `mono`, `stereo`, or `Nch`.
        static func channelWord(_ count: Int) -> String {
            switch count {
            case 1: "mono"
            case 2: "stereo"
            default: "\(count)ch"
            }
        }
    }
}
