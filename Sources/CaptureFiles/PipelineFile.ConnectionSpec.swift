extension PipelineFile {
    /// How an output is connected to an input.
    public struct ConnectionSpec: Sendable, Equatable {
        /// The name of the input feeding the output; the first input when the file names none.
        /// Always the name of one of the file's inputs.
        public var input: String
        /// The requested video orientation, if any.
        public var orientation: Orientation?
        /// Whether the video is mirrored, if the file says.
        public var mirrored: Bool?
        /// Where the `connection` mapping starts, or the output's location when the file has none.
        public var location: SourceLocation

        /// Creates connection settings.
        /// - Parameters:
        ///   - input: The name of the input feeding the output.
        ///   - orientation: The requested orientation, if any.
        ///   - mirrored: Whether the video is mirrored, if set.
        ///   - location: Where the connection settings are written.
        public init(input: String, orientation: Orientation?, mirrored: Bool?, location: SourceLocation) {
            self.input = input
            self.orientation = orientation
            self.mirrored = mirrored
            self.location = location
        }
    }
}
