import Foundation

/// Reading pipeline files.
extension PipelineFile {
    /// The largest pipeline file ``load(contentsOf:)`` reads and ``parse(_:fileName:)`` decodes,
    /// in bytes: 1 MiB. Real files are a few hundred bytes; the cap keeps a hostile file's
    /// megabytes out of memory and out of error messages.
    public static let maximumFileSize = 1 << 20

    /// Reads, decodes and validates the pipeline file at `path`.
    ///
    /// Errors are located in `path` as given. A path that is not a regular file (a FIFO, a
    /// directory, a device) is refused before it is read, as is a file larger than
    /// ``maximumFileSize``.
    /// - Parameter path: The file's path.
    /// - Returns: The validated pipeline.
    /// - Throws: ``PipelineFileError`` if the file cannot be read, is not a regular file, is
    ///   larger than ``maximumFileSize`` (each located at 1:1), is not valid YAML, or does not
    ///   follow the schema.
    public static func load(contentsOf path: String) throws(PipelineFileError) -> PipelineFile {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let bytes: [UInt8]
        switch BoundedFileReader.read(path, limit: maximumFileSize) {
        case .success(let read):
            bytes = read
        case .failure(.unreadable(let reason)):
            throw PipelineFileError(.unreadableFile(reason: reason), at: start)
        case .failure(.notRegular(let kind)):
            throw PipelineFileError(.unreadableFile(reason: "it is \(kind), not a regular file"), at: start)
        case .failure(.tooLarge(let size)):
            throw PipelineFileError(.fileTooLarge(size: size, limit: maximumFileSize), at: start)
        }
        guard let yaml = String(validating: bytes, as: UTF8.self) else {
            throw PipelineFileError(.unreadableFile(reason: "not valid UTF-8"), at: start)
        }
        return try parse(yaml, fileName: path)
    }

    /// Decodes and validates a pipeline file's text.
    /// - Parameters:
    ///   - yaml: The file's YAML text, at most ``maximumFileSize`` bytes of UTF-8.
    ///   - fileName: The name errors and locations refer to.
    /// - Returns: The validated pipeline.
    /// - Throws: ``PipelineFileError`` if the text is too large, is not valid YAML or does not
    ///   follow the schema.
    public static func parse(_ yaml: String, fileName: String) throws(PipelineFileError) -> PipelineFile {
        guard yaml.utf8.count <= maximumFileSize else {
            throw PipelineFileError(.fileTooLarge(size: yaml.utf8.count, limit: maximumFileSize),
                                    at: SourceLocation(file: fileName, line: 1, column: 1))
        }
        return try PipelineFileDecoder(fileName: fileName).decode(yaml)
    }
}
