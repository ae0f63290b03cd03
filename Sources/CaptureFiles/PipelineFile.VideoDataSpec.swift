import CaptureKit

extension PipelineFile {
    /// The settings of a `videoData` output: frames delivered to the run's frame handler.
    public struct VideoDataSpec: Sendable, Equatable {
        /// The output's name; `output0`, `output1`… (by position among all outputs) when not given.
        public var name: String
        /// The pixel format of delivered frames; `bgra` when not given.
        public var pixelFormat: PixelFormat
        /// The size frames are scaled to, if given; the input's size otherwise.
        public var size: FrameSize?
        /// Whether frames arriving while the handler is busy are dropped; `true` when not given.
        public var discardLate: Bool
        /// What to do with each frame; `count` when not given.
        public var action: VideoDataAction
        /// The path pattern frames are dumped to; set exactly when ``action`` is `dump`.
        /// `{n}` stands for the 1-based frame index.
        public var path: String?
        /// `h264` delivers compressed frames (one access unit each, Annex B) from the session's
        /// shared encode instead of raw ones (`codec`); raw frames when not given.
        public var codec: VideoCodecType?
        /// The average bit rate of compressed frames in bit/s (`bitrate`, with `codec`).
        public var bitrate: Int?
        /// The most frames between key frames of compressed frames (`keyFrameInterval`, with `codec`).
        public var keyFrameInterval: Int?
        /// The input the output is connected to and how.
        public var connection: ConnectionSpec
        /// Where the output's list item starts (its `videoData` key).
        public var location: SourceLocation
        /// Where the `path` value is written; nil when the file does not write it (errors about the path
        /// then point at ``location``).
        public var pathLocation: SourceLocation?

        /// Creates video data output settings.
        /// - Parameters:
        ///   - name: The unique output name.
        ///   - pixelFormat: The pixel format of frames.
        ///   - size: The frame size, if any.
        ///   - discardLate: Whether late frames are dropped.
        ///   - action: What to do with each frame.
        ///   - path: The dump path pattern, for `dump`.
        ///   - connection: The connection settings.
        ///   - location: Where the output's list item starts.
        ///   - pathLocation: Where the `path` value is written, if the file gives one.
        public init(
            name: String,
            pixelFormat: PixelFormat,
            size: FrameSize?,
            discardLate: Bool,
            action: VideoDataAction,
            path: String?,
            connection: ConnectionSpec,
            location: SourceLocation,
            pathLocation: SourceLocation? = nil
        ) {
            self.name = name
            self.pixelFormat = pixelFormat
            self.size = size
            self.discardLate = discardLate
            self.action = action
            self.path = path
            self.connection = connection
            self.location = location
            self.pathLocation = pathLocation
        }
    }
}
