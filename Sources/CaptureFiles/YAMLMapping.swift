import Yams

/// A YAML mapping read for checked decoding: string keys with the positions of keys and values.
struct YAMLMapping {
    /// One key and its value.
    struct Entry {
        /// The key's text.
        let key: String
        /// Where the key is written.
        let keyLocation: PipelineFile.SourceLocation
        /// The value node.
        let value: Node
        /// Where the value is written.
        let valueLocation: PipelineFile.SourceLocation
    }

    /// What the mapping is, for messages: `input`, `still output`, `run`…
    let context: String
    /// Where the mapping starts.
    let location: PipelineFile.SourceLocation
    /// The entries in file order.
    let entries: [Entry]

    /// The entry for a key, if present.
    subscript(key: String) -> Entry? {
        entries.first { $0.key == key }
    }

    /// The entry for a required key.
    /// - Throws: ``PipelineFileError/Kind/missingKey(_:context:)`` at the mapping's start.
    func required(_ key: String) throws(PipelineFileError) -> Entry {
        guard let entry = self[key] else {
            throw PipelineFileError(.missingKey(key, context: context), at: location)
        }
        return entry
    }

    /// Rejects the first key that is not in `allowed`, suggesting the closest allowed key.
    /// - Throws: ``PipelineFileError/Kind/unknownKey(_:context:allowed:suggestion:)`` at the key.
    func rejectUnknownKeys(allowed: [String]) throws(PipelineFileError) {
        for entry in entries where !allowed.contains(entry.key) {
            let suggestion = Suggestion.closest(to: entry.key, among: allowed)
            throw PipelineFileError(
                .unknownKey(entry.key, context: context, allowed: allowed, suggestion: suggestion),
                at: entry.keyLocation
            )
        }
    }
}
