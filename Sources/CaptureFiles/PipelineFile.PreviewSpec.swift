import CaptureKit

extension PipelineFile {
    /// The settings of a `preview` output: a `VideoPreview` showing its camera on `sink`, the
    /// picture fitted to `size` by `gravity` and turned by the connection's orientation and
    /// mirroring.
    public struct PreviewSpec: Sendable, Equatable {
        /// The output's name; `output0`, `output1`… (by position among all outputs) when not given.
        public var name: String
        /// Where the picture goes (`sink`: `window`, the default, `kms`, `frames` or `none`).
        public var sink: PreviewSink
        /// How the picture fills the view (`gravity`: `aspect`, the default, `fill` or `resize`,
        /// or AVFoundation's `resizeAspect`, `resizeAspectFill`).
        public var gravity: VideoGravity
        /// The view's size (`size: WIDTHxHEIGHT`); the picture's own size as shown when not given.
        public var size: FrameSize?
        /// The camera input the output is connected to and how.
        public var connection: ConnectionSpec
        /// Where the output's list item starts (its `preview` key).
        public var location: SourceLocation

        /// Creates preview output settings; see the properties for what each means.
        public init(name: String, sink: PreviewSink, gravity: VideoGravity, size: FrameSize?, connection: ConnectionSpec, location: SourceLocation) {
            self.name = name
            self.sink = sink
            self.gravity = gravity
            self.size = size
            self.connection = connection
            self.location = location
        }

        /// The names `sink` takes, each with the sink it means.
        static let sinks: [(name: String, sink: PreviewSink)] = [("window", .window), ("kms", .kms), ("frames", .frames()), ("none", .none)]
    }
}
