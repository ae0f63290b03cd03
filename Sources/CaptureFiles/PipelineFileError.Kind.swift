import CaptureKit

extension PipelineFileError {
    /// What is wrong with a pipeline file.
    ///
    /// `key` values are the YAML key the problem is about; `context` values name the mapping a
    /// key was found in (such as `input`, `still output` or `run`).
    public enum Kind: Sendable, Equatable {
        /// The file could not be read, is not a regular file, or is not UTF-8.
        case unreadableFile(reason: String)
        /// The file, or the text given to ``PipelineFile/parse(_:fileName:)``, is larger than
        /// ``PipelineFile/maximumFileSize``; `size` is its size in bytes.
        case fileTooLarge(size: Int, limit: Int)
        /// The text is not well-formed YAML; `problem` is the YAML parser's description.
        case syntax(problem: String)
        /// The file has no YAML document.
        case emptyDocument
        /// The file declares a schema version this library cannot read.
        case unsupportedVersion(Int, supported: [Int])
        /// A mapping has a key the schema does not define.
        case unknownKey(String, context: String, allowed: [String], suggestion: String?)
        /// A mapping has the same key twice.
        case duplicateKey(String)
        /// A mapping lacks a required key.
        case missingKey(String, context: String)
        /// A mapping lacks a key it needs exactly one of, such as `frames` or `seconds` in `run`.
        case missingChoice([String], context: String)
        /// A value has the wrong YAML type; `expected` and `found` are phrases like `an integer`
        /// and `string 'high'`.
        case wrongType(key: String, expected: String, found: String)
        /// A value is not one of the values a key accepts.
        case invalidValue(key: String, value: String, valid: [String], suggestion: String?)
        /// A value does not have the shape a key needs, such as `WIDTHxHEIGHT`.
        case malformedValue(key: String, value: String, expected: String)
        /// A number is outside the range a key accepts; `valid` describes the range.
        case outOfRange(key: String, value: String, valid: String)
        /// A list that needs items is empty.
        case emptyList(key: String)
        /// Two inputs, or two outputs, have the same name.
        case duplicateName(String, firstUse: PipelineFile.SourceLocation)
        /// A connection names an input the file does not define.
        case unknownInput(String, available: [String], suggestion: String?)
        /// An output is connected to an input of the other media type (an `audioData` output to
        /// a camera, a `still`, `videoData` or `metadata` output to a microphone), or the file has
        /// no input of the media type the output needs (`input` is nil then). `kind` and `output`
        /// are the output's kind key and name; `suggestion` is an input of the right media type.
        case wrongMediaInput(kind: String, output: String, needs: MediaType, input: String?, suggestion: String?)
        /// A key cannot be used together with another key or its value.
        case conflictingKeys(String, with: String, reason: String)
        /// A path the file writes (`written`, as written) resolves, symbolic links followed, to
        /// `resolved`, outside `directory`, the folder a run writes into.
        case pathOutsideDirectory(String, resolved: String, directory: String)
        /// A `file:` device's path (`written`, as written) leads out of `folder`, the pipeline
        /// file's own folder: `reason` says how (it resolves, symbolic links followed, outside;
        /// it has `..` after a folder that does not exist; it passes through a link to nothing).
        case inputOutsideFolder(String, reason: String, folder: String)
        /// A file the run would write exists already (at `resolved`), and replacing files was
        /// not asked for (`capture run --force`, `replacingExistingFiles`).
        case fileExists(String, resolved: String)
        /// A path the file writes cannot be written safely: `..` after a folder that does not
        /// exist yet, a symbolic link to nothing, or an existing directory, FIFO or device.
        case unsafeOutputPath(String, reason: String)
        /// Building the session failed: CaptureKit rejected the device, format, preset, output
        /// setting or connection written at the error's location. The error names the offending
        /// value and what would be valid.
        case capture(CaptureError)
    }
}
