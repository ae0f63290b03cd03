/// An error found while reading a pipeline file, with the position of the offending text.
///
/// ``description`` reads `file:line:column: message`, the form compilers use, so editors and
/// terminals can jump to the position.
public struct PipelineFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the offending key or value is written.
    public var location: PipelineFile.SourceLocation
    /// What is wrong, naming the offending key or value and what would be valid.
    public var kind: Kind

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What is wrong.
    ///   - location: Where the offending key or value is written.
    public init(_ kind: Kind, at location: PipelineFile.SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The error as `file:line:column: message`.
    public var description: String {
        "\(location): \(kind.message)"
    }
}
