extension PipelineFileError.Kind {
    /// A one-line, human-readable description of the problem, without the location.
    public var message: String {
        switch self {
        case .unreadableFile(let reason):
            return "cannot read pipeline file: \(reason)"
        case .syntax(let problem):
            return "YAML syntax error: \(problem)"
        case .emptyDocument:
            return "pipeline file is empty; expected a mapping with keys 'version', 'inputs', 'outputs' and 'run'"
        case .unsupportedVersion(let version, let supported):
            return "unsupported version \(version); supported: \(supported.map(String.init).joined(separator: ", "))"
        case .unknownKey(let key, let context, let allowed, let suggestion):
            return "unknown key '\(key)' in \(context) (allowed: \(allowed.joined(separator: ", ")))"
                + Self.didYouMean(suggestion)
        case .duplicateKey(let key):
            return "duplicate key '\(key)' in the same mapping"
        case .missingKey(let key, let context):
            return "missing required key '\(key)' in \(context)"
        case .missingChoice(let keys, let context):
            return "\(context) needs exactly one of \(Self.quotedList(keys, conjunction: "or"))"
        case .wrongType(let key, let expected, let found):
            return "wrong type for '\(key)': expected \(expected), found \(found)"
        case .invalidValue(let key, let value, let valid, let suggestion):
            return "invalid value '\(value)' for '\(key)' (valid: \(valid.joined(separator: ", ")))"
                + Self.didYouMean(suggestion)
        case .malformedValue(let key, let value, let expected):
            return "malformed value '\(value)' for '\(key)': expected \(expected)"
        case .outOfRange(let key, let value, let valid):
            return "value \(value) for '\(key)' is out of range: must be \(valid)"
        case .emptyList(let key):
            return "'\(key)' must list at least one item"
        case .duplicateName(let name, let firstUse):
            return "duplicate name '\(name)'; first used at line \(firstUse.line), column \(firstUse.column)"
        case .unknownInput(let reference, let available, let suggestion):
            return "connection input '\(reference)' does not name an input (inputs: \(available.joined(separator: ", ")))"
                + Self.didYouMean(suggestion)
        case .wrongMediaInput(let kind, let output, let needs, let input, let suggestion):
            let article = needs == .audio ? "an" : "a"
            var text = "\(kind) output '\(output)' needs \(article) \(needs.rawValue) input, but "
            if let input {
                text += "input '\(input)' is \(needs == .audio ? "a camera" : "a microphone")"
            } else {
                text += "the file has no \(needs.rawValue) input"
            }
            if let suggestion {
                return text + "; connect it to '\(suggestion)' with 'connection: { input: \(suggestion) }'"
            }
            return text + "; add an input with " + (needs == .audio
                ? "'device: virtual-mic' or a microphone's name or unique ID (see 'capture devices')"
                : "'device: virtual' or a camera's name or unique ID (see 'capture devices')")
        case .conflictingKeys(let key, let other, let reason):
            return "'\(key)' conflicts with '\(other)': \(reason)"
        case .capture(let error):
            return error.description
        }
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
