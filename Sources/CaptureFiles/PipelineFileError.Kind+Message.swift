extension PipelineFileError.Kind {
    /// A one-line, human-readable description of the problem, without the location.
    public var message: String {
        switch self {
        case .unreadableFile(let reason):
            return "cannot read pipeline file: \(reason)"
        case .fileTooLarge(let size, let limit):
            let mebibytes = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB (\(limit) bytes)" : "\(limit) bytes"
            return "pipeline file is \(size) bytes; pipeline files may be at most \(mebibytes)"
        case .syntax(let problem):
            return "YAML syntax error: \(problem)"
        case .emptyDocument:
            return "pipeline file is empty; expected a mapping with keys 'version', 'inputs', 'outputs' and 'run'"
        case .unsupportedVersion(let version, let supported):
            return "unsupported version \(version); supported: \(supported.map(String.init).joined(separator: ", "))"
        case .unknownKey(let key, let context, let allowed, let suggestion):
            return "unknown key \(Self.quoted(key)) in \(context) (allowed: \(allowed.joined(separator: ", ")))"
                + Self.didYouMean(suggestion)
        case .duplicateKey(let key):
            return "duplicate key \(Self.quoted(key)) in the same mapping"
        case .missingKey(let key, let context):
            return "missing required key '\(key)' in \(context)"
        case .missingChoice(let keys, let context):
            return "\(context) needs exactly one of \(Self.quotedList(keys, conjunction: "or"))"
        case .wrongType(let key, let expected, let found):
            return "wrong type for '\(key)': expected \(expected), found \(found)"
        case .invalidValue(let key, let value, let valid, let suggestion):
            return "invalid value \(Self.quoted(value)) for '\(key)' (valid: \(valid.joined(separator: ", ")))"
                + Self.didYouMean(suggestion)
        case .malformedValue(let key, let value, let expected):
            return "malformed value \(Self.quoted(value)) for '\(key)': expected \(expected)"
        case .outOfRange(let key, let value, let valid):
            return "value \(Self.excerpt(value)) for '\(key)' is out of range: must be \(valid)"
        case .emptyList(let key):
            return "'\(key)' must list at least one item"
        case .duplicateName(let name, let firstUse):
            return "duplicate name \(Self.quoted(name)); first used at line \(firstUse.line), column \(firstUse.column)"
        case .unknownInput(let reference, let available, let suggestion):
            return "connection input \(Self.quoted(reference)) does not name an input (inputs: \(available.map(Self.excerpt).joined(separator: ", ")))"
                + Self.didYouMean(suggestion)
        case .wrongMediaInput(let kind, let output, let needs, let input, let suggestion):
            let article = needs == .audio ? "an" : "a"
            var text = "\(kind) output \(Self.quoted(output)) needs \(article) \(needs.rawValue) input, but "
            if let input {
                text += "input \(Self.quoted(input)) is \(needs == .audio ? "a camera" : "a microphone")"
            } else {
                text += "the file has no \(needs.rawValue) input"
            }
            if let suggestion {
                return text + "; connect it to \(Self.quoted(suggestion)) with 'connection: { input: \(Self.excerpt(suggestion)) }'"
            }
            return text + "; add an input with " + (needs == .audio
                ? "'device: virtual-mic' or a microphone's name or unique ID (see 'capture devices')"
                : "'device: virtual' or a camera's name or unique ID (see 'capture devices')")
        case .conflictingKeys(let key, let other, let reason):
            return "'\(key)' conflicts with '\(other)': \(reason)"
        case .pathOutsideDirectory(let written, let resolved, let directory):
            return "path \(Self.quoted(written)) resolves to \(Self.quoted(resolved)), outside the output directory"
                + " '\(directory)'; write a path inside it (relative, with no '..' or symbolic link leading out)"
        case .inputOutsideFolder(let written, let reason, let folder):
            return "device file \(Self.quoted(written)) is outside the pipeline file's folder '\(folder)': it \(reason);"
                + " name a file inside that folder (relative to the pipeline file, with no '..' or symbolic link leading out)"
        case .fileExists(let written, let resolved):
            return "path \(Self.quoted(written)): the file \(Self.quoted(resolved)) exists; pass --force"
                + " (replacingExistingFiles: true) to replace it"
        case .unsafeOutputPath(let written, let reason):
            return "path \(Self.quoted(written)) cannot be written: \(reason)"
        case .capture(let error):
            // A device reference from the file is quoted in full by CaptureKit: shorten it here.
            guard let value = error.value, value.count > Self.quoteLimit else { return error.description }
            return error.description.replacing(value, with: Self.excerpt(value))
        }
    }

    /// The most characters of a value an error quotes.
    static let quoteLimit = 80

    /// `value` in single quotes, or for a value longer than ``quoteLimit`` characters its start,
    /// an ellipsis and its length: a file's value can be megabytes long.
    static func quoted(_ value: String) -> String {
        guard value.count > quoteLimit else { return "'\(value)'" }
        return "'\(value.prefix(quoteLimit))…' (\(value.count) characters)"
    }

    /// `value`, or its start, an ellipsis and its length when it is longer than ``quoteLimit``.
    static func excerpt(_ value: String) -> String {
        guard value.count > quoteLimit else { return value }
        return "\(value.prefix(quoteLimit))… (\(value.count) characters)"
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    private static func quotedList(_ items: [String], conjunction: String) -> String {
        let quoted = items.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + quoted[quoted.count - 1]
    }
}
