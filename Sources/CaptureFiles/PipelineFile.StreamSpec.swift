import CaptureKit

extension PipelineFile {
    /// The settings of a `stream` output: a `StreamOutput` sending its camera, and a microphone
    /// when `audio` connects one, to `target` for the run's length.
    public struct StreamSpec: Sendable, Equatable {
        /// The output's name; `output0`, `output1`… (by position among all outputs) when not given.
        public var name: String
        /// Where to stream, as `capture stream` takes it (`srt://:9000`, `hls:live`, …); a
        /// relative `hls:` directory is resolved against the working directory when the file
        /// is loaded, as `capture stream` resolves it.
        public var target: StreamTarget
        /// The average video bit rate in bit/s (`bitrate`); the encoder's default when not given.
        public var bitrate: Int?
        /// The most frames from one key frame to the next (`keyFrameInterval`); two seconds'
        /// worth when not given.
        public var keyFrameInterval: Int?
        /// The microphone streamed with the video (`audio: { input: mic }`); none when not given.
        public var audio: ConnectionSpec?
        /// The camera input the output is connected to and how.
        public var connection: ConnectionSpec
        /// Where the output's list item starts (its `stream` key).
        public var location: SourceLocation
        /// Where the `target` value is written; nil for a spec not read from a file.
        public var targetLocation: SourceLocation?

        /// Creates stream output settings; see the properties for what each means.
        public init(name: String, target: StreamTarget, bitrate: Int?, keyFrameInterval: Int?, audio: ConnectionSpec?,
                    connection: ConnectionSpec, location: SourceLocation, targetLocation: SourceLocation? = nil) {
            self.name = name
            self.target = target
            self.bitrate = bitrate
            self.keyFrameInterval = keyFrameInterval
            self.audio = audio
            self.connection = connection
            self.location = location
            self.targetLocation = targetLocation
        }

        /// The video encoding asked for.
        var codecSettings: VideoCodecSettings {
            VideoCodecSettings(codec: .h264, bitrate: bitrate, keyFrameInterval: keyFrameInterval)
        }
    }
}
