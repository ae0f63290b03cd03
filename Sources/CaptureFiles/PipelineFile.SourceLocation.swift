extension PipelineFile {
    /// A position in a pipeline file, used to point errors at the text that caused them.
    ///
    /// Lines and columns are 1-based; columns count Unicode scalars, as libyaml does.
    public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
        /// The file name the position refers to, as given to ``PipelineFile/parse(_:fileName:)``
        /// or ``PipelineFile/load(contentsOf:)``.
        public var file: String
        /// The 1-based line number.
        public var line: Int
        /// The 1-based column number.
        public var column: Int

        /// Creates a location.
        /// - Parameters:
        ///   - file: The file name.
        ///   - line: The 1-based line number.
        ///   - column: The 1-based column number.
        public init(file: String, line: Int, column: Int) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// The location as `file:line:column`.
        public var description: String {
            "\(file):\(line):\(column)"
        }
    }
}
