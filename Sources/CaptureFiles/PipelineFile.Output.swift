import CaptureKit

extension PipelineFile {
    /// An output fed by the session, written as a list item with exactly one key naming its kind.
    public enum Output: Sendable, Equatable {
        /// A photo output (`still:`).
        case still(StillSpec)
        /// A video data output (`videoData:`).
        case videoData(VideoDataSpec)
        /// A metadata output (`metadata:`): machine-readable codes.
        case metadata(MetadataSpec)
        /// An audio data output (`audioData:`): sample buffers from a microphone.
        case audioData(AudioDataSpec)
        /// A movie file output (`movie:`): a recording of a camera, and a microphone with `audio`.
        case movie(MovieSpec)
        /// A stream output (`stream:`): a camera, and a microphone with `audio`, sent to a target.
        case stream(StreamSpec)
        /// A preview (`preview:`): a `VideoPreview` showing a camera in a window or on a display.
        case preview(PreviewSpec)

        /// The output's name, unique among outputs.
        public var name: String {
            switch self {
            case .still(let spec): spec.name
            case .videoData(let spec): spec.name
            case .metadata(let spec): spec.name
            case .audioData(let spec): spec.name
            case .movie(let spec): spec.name
            case .stream(let spec): spec.name
            case .preview(let spec): spec.name
            }
        }

        /// Where the output's list item starts (its kind key).
        public var location: SourceLocation {
            switch self {
            case .still(let spec): spec.location
            case .videoData(let spec): spec.location
            case .metadata(let spec): spec.location
            case .audioData(let spec): spec.location
            case .movie(let spec): spec.location
            case .stream(let spec): spec.location
            case .preview(let spec): spec.location
            }
        }

        /// The output's connection to an input.
        public var connection: ConnectionSpec {
            switch self {
            case .still(let spec): spec.connection
            case .videoData(let spec): spec.connection
            case .metadata(let spec): spec.connection
            case .audioData(let spec): spec.connection
            case .movie(let spec): spec.connection
            case .stream(let spec): spec.connection
            case .preview(let spec): spec.connection
            }
        }

        /// The YAML key naming the output's kind: `still`, `videoData`, `metadata`, `audioData`, `movie`, `stream` or `preview`.
        public var kindName: String {
            switch self {
            case .still: "still"
            case .videoData: "videoData"
            case .metadata: "metadata"
            case .audioData: "audioData"
            case .movie: "movie"
            case .stream: "stream"
            case .preview: "preview"
            }
        }

        /// The media type the output takes from its input: audio for `audioData`, video for the
        /// others (a `movie` or `stream` takes its audio through a second connection).
        var mediaType: MediaType {
            if case .audioData = self { return .audio }
            return .video
        }

        /// The keys that can name an output's kind.
        public static let kindNames = ["still", "videoData", "metadata", "audioData", "movie", "stream", "preview"]
    }
}
