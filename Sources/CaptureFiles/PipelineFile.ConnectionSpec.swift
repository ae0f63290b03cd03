extension PipelineFile {
    /// How an output is connected to an input.
    public struct ConnectionSpec: Sendable, Equatable {
        /// The name of the input feeding the output. When the file names none, the first input
        /// the file shows to have the output's media type (video for `still`, `videoData` and
        /// `metadata`, audio for `audioData`), else the first input whose media type only its
        /// device tells; ``PipelineFile/makeSession()`` then connects the first input whose device has the
        /// media type. Always the name of one of the file's inputs.
        public var input: String
        /// Whether the file names the input (`connection: { input: … }`); false when the session
        /// chooses it by media type.
        public var namesInput: Bool
        /// The requested video orientation, if any.
        public var orientation: Orientation?
        /// Whether the video is mirrored, if the file says.
        public var mirrored: Bool?
        /// Where the `connection` mapping starts, or the output's location when the file has none.
        public var location: SourceLocation

        /// Creates connection settings.
        /// - Parameters:
        ///   - input: The name of the input feeding the output.
        ///   - namesInput: Whether the file names the input; true by default.
        ///   - orientation: The requested orientation, if any.
        ///   - mirrored: Whether the video is mirrored, if set.
        ///   - location: Where the connection settings are written.
        public init(input: String, namesInput: Bool = true, orientation: Orientation?, mirrored: Bool?, location: SourceLocation) {
            self.input = input
            self.namesInput = namesInput
            self.orientation = orientation
            self.mirrored = mirrored
            self.location = location
        }
    }
}
