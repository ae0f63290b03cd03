extension PipelineFile {
    /// The settings of a `still` output: photos taken during the run.
    public struct StillSpec: Sendable, Equatable {
        /// The output's name; `output0`, `output1`… (by position among all outputs) when not given.
        public var name: String
        /// The encoding of the photos; `jpeg` when not given.
        public var format: StillFormat
        /// The JPEG quality, 0...100, if given. Only ever set when ``format`` is `jpeg`.
        public var quality: Int?
        /// How many photos to take during the run, at least 1; 1 when not given.
        public var count: Int
        /// The path pattern of the written photos; `{n}` stands for the 1-based photo index.
        /// `<name>-{n}.<ext>` when not given, with the extension of ``format``.
        public var path: String
        /// The input the output is connected to and how.
        public var connection: ConnectionSpec
        /// Where the output's list item starts (its `still` key).
        public var location: SourceLocation
        /// Where the `path` value is written; nil when the file does not write it (errors about the path
        /// then point at ``location``).
        public var pathLocation: SourceLocation?

        /// Creates still output settings.
        /// - Parameters:
        ///   - name: The unique output name.
        ///   - format: The photo encoding.
        ///   - quality: The JPEG quality, if any.
        ///   - count: How many photos to take.
        ///   - path: The path pattern of the photos.
        ///   - connection: The connection settings.
        ///   - location: Where the output's list item starts.
        ///   - pathLocation: Where the `path` value is written, if the file gives one.
        public init(
            name: String,
            format: StillFormat,
            quality: Int?,
            count: Int,
            path: String,
            connection: ConnectionSpec,
            location: SourceLocation,
            pathLocation: SourceLocation? = nil
        ) {
            self.name = name
            self.format = format
            self.quality = quality
            self.count = count
            self.path = path
            self.connection = connection
            self.location = location
            self.pathLocation = pathLocation
        }

        /// The placeholder in ``path`` replaced by the 1-based photo index.
        public static let indexPlaceholder = "{n}"

        /// The default path pattern for an output name and format: `<name>-{n}.<ext>`.
        /// - Parameters:
        ///   - name: The output name.
        ///   - format: The photo encoding, which gives the extension.
        /// - Returns: The path pattern.
        public static func defaultPath(name: String, format: StillFormat) -> String {
            "\(name)-\(indexPlaceholder).\(format.fileExtension)"
        }

        /// The path of the photo with the given 1-based index: ``path`` with `{n}` replaced.
        /// - Parameter index: The 1-based photo index.
        /// - Returns: The path to write the photo to.
        public func path(forIndex index: Int) -> String {
            path.replacing(Self.indexPlaceholder, with: String(index))
        }
    }
}
