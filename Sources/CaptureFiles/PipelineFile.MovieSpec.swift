import CaptureKit

extension PipelineFile {
    /// The settings of a `movie` output: a recording (`MovieFileOutput`) of its camera, and of a
    /// microphone when `audio` connects one, for the run's length or until a limit; or, with
    /// `segment` or a folder or strftime pattern as its `path`, a continuous recording in segments
    /// (`SegmentedMovieFileOutput`).
    public struct MovieSpec: Sendable, Equatable {
        /// The output's name; `output0`, `output1`… (by position among all outputs) when not given.
        public var name: String
        /// The movie file: `.mp4`, `.mov` or `.mkv` (`NAME.mp4` when not given). A run replaces it.
        /// For segments, a folder (`NAME/` when not given) or a strftime pattern; a run adds to it.
        public var path: String
        /// Seconds in each segment (`segment`, 1 to 86400): the output records segments; 60 when
        /// the path is a folder or pattern and this is not given; nil for one file.
        public var segment: Double?
        /// Seconds segments are kept after their end (`keep`, an age such as `7d`); nil keeps them.
        public var keep: Double?
        /// Bytes the folder's segments may take together (`maxDisk`); nil for no limit.
        public var maxDisk: ByteCount?
        /// The longest the recording runs (`maxDuration`, seconds); the run's length when not given.
        public var maxDuration: Double?
        /// The largest the file grows (`maxSize`, bytes); no limit when not given.
        public var maxSize: ByteCount?
        /// Seconds between the fragments written while recording MP4 or MOV
        /// (`fragmentInterval`; 0 writes none); CaptureKit's 10 s when not given.
        public var fragmentInterval: Double?
        /// The video codec (`codec`); H.264 when not given.
        public var codec: VideoCodecType?
        /// The average video bit rate in bit/s (`bitrate`); the encoder's default for the size and
        /// rate when not given.
        public var bitrate: Int?
        /// The most frames from one key frame to the next (`keyFrameInterval`); two seconds' worth
        /// when not given.
        public var keyFrameInterval: Int?
        /// What marks events in a segmented recording, and their clips (`events`); none when not given.
        public var events: EventsSpec?
        /// The microphone recorded with the video (`audio: { input: mic }`); none when not given.
        public var audio: ConnectionSpec?
        /// The camera input the output is connected to and how.
        public var connection: ConnectionSpec
        /// Where the output's list item starts (its `movie` key).
        public var location: SourceLocation
        /// Where the `path` value is written; nil when the file does not write it (errors about the path
        /// then point at ``location``).
        public var pathLocation: SourceLocation?

        /// Creates movie output settings; see the properties for what each means.
        public init(name: String, path: String, maxDuration: Double?, maxSize: ByteCount?, fragmentInterval: Double?,
                    codec: VideoCodecType?, bitrate: Int?, keyFrameInterval: Int?, audio: ConnectionSpec?,
                    connection: ConnectionSpec, location: SourceLocation, pathLocation: SourceLocation? = nil,
                    segment: Double? = nil, keep: Double? = nil, maxDisk: ByteCount? = nil, events: EventsSpec? = nil) {
            self.name = name
            self.path = path
            self.segment = segment
            self.keep = keep
            self.maxDisk = maxDisk
            self.events = events
            self.maxDuration = maxDuration
            self.maxSize = maxSize
            self.fragmentInterval = fragmentInterval
            self.codec = codec
            self.bitrate = bitrate
            self.keyFrameInterval = keyFrameInterval
            self.audio = audio
            self.connection = connection
            self.location = location
            self.pathLocation = pathLocation
        }

        /// Whether the output records segments.
        public var isSegmented: Bool { segment != nil }

        /// The video encoding asked for, nil when the file gives none of codec, bitrate and
        /// keyFrameInterval.
        var codecSettings: VideoCodecSettings? {
            guard codec != nil || bitrate != nil || keyFrameInterval != nil else { return nil }
            return VideoCodecSettings(codec: codec ?? .h264, bitrate: bitrate, keyFrameInterval: keyFrameInterval)
        }
    }
}
