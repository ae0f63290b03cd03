import Foundation

/// Reading pipeline files.
extension PipelineFile {
    /// Reads, decodes and validates the pipeline file at `path`.
    ///
    /// Errors are located in `path` as given.
    /// - Parameter path: The file's path.
    /// - Returns: The validated pipeline.
    /// - Throws: ``PipelineFileError`` if the file cannot be read (located at 1:1), is not valid
    ///   YAML, or does not follow the schema.
    public static func load(contentsOf path: String) throws(PipelineFileError) -> PipelineFile {
        let start = SourceLocation(file: path, line: 1, column: 1)
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file"
            throw PipelineFileError(.unreadableFile(reason: reason), at: start)
        }
        guard let yaml = String(data: data, encoding: .utf8) else {
            throw PipelineFileError(.unreadableFile(reason: "not valid UTF-8"), at: start)
        }
        return try parse(yaml, fileName: path)
    }

    /// Decodes and validates a pipeline file's text.
    /// - Parameters:
    ///   - yaml: The file's YAML text.
    ///   - fileName: The name errors and locations refer to.
    /// - Returns: The validated pipeline.
    /// - Throws: ``PipelineFileError`` if the text is not valid YAML or does not follow the schema.
    public static func parse(_ yaml: String, fileName: String) throws(PipelineFileError) -> PipelineFile {
        try PipelineFileDecoder(fileName: fileName).decode(yaml)
    }
}
