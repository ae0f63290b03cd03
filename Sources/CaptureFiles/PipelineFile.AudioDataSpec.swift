extension PipelineFile {
    /// The settings of an `audioData` output: PCM sample buffers from a microphone input,
    /// counted and optionally written to a WAV file.
    public struct AudioDataSpec: Sendable, Equatable {
        /// The output's name; `output0`, `output1`… (by position among all outputs) when not given.
        public var name: String
        /// The format buffers are converted to, if given (parts left out follow the device).
        public var format: AudioFormatSpec?
        /// How many sample buffers the output handles before it ignores the rest, if given: the
        /// run does not stop before it has them. Without it the output handles every buffer
        /// until the run stops.
        public var count: Int?
        /// The WAV file the handled buffers are written to, if given (a path ending in `.wav`):
        /// 16-bit PCM or 32-bit float as delivered, its header giving the real length.
        public var path: String?
        /// The input the output is connected to; a microphone.
        public var connection: ConnectionSpec
        /// Where the output's list item starts (its `audioData` key).
        public var location: SourceLocation
        /// Where the `write` value is written; nil when the file does not write it (errors about the path
        /// then point at ``location``).
        public var pathLocation: SourceLocation?

        /// Creates audio data output settings.
        /// - Parameters:
        ///   - name: The unique output name.
        ///   - format: The delivery format, if any.
        ///   - count: The sample buffers to handle, if limited.
        ///   - path: The WAV file to write, if any.
        ///   - connection: The connection settings.
        ///   - location: Where the output's list item starts.
        ///   - pathLocation: Where the `write` value is written, if the file gives one.
        public init(
            name: String,
            format: AudioFormatSpec?,
            count: Int?,
            path: String?,
            connection: ConnectionSpec,
            location: SourceLocation,
            pathLocation: SourceLocation? = nil
        ) {
            self.name = name
            self.format = format
            self.count = count
            self.path = path
            self.connection = connection
            self.location = location
            self.pathLocation = pathLocation
        }
    }
}
