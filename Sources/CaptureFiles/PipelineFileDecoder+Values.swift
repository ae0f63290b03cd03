import Yams

/// Typed reading of YAML values, throwing located errors for the wrong type or value.
extension PipelineFileDecoder {
    /// Reads a node as a mapping with string keys.
    /// - Parameters:
    ///   - node: The node to read.
    ///   - key: The key (or list) the node is the value of, for messages.
    ///   - context: What the mapping is, for messages.
    ///   - allowingNull: Whether an empty value reads as an empty mapping.
    func mapping(_ node: Node, key: String, context: String, allowingNull: Bool = false)
        throws(PipelineFileError) -> YAMLMapping
    {
        if allowingNull, isNull(node) {
            return YAMLMapping(context: context, location: location(of: node), entries: [])
        }
        guard case .mapping(let mapping) = node else {
            throw wrongType(node, key: key, expected: "a mapping")
        }
        var entries: [YAMLMapping.Entry] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw wrongType(keyNode, key: context, expected: "a key name")
            }
            entries.append(YAMLMapping.Entry(
                key: scalar.string,
                keyLocation: location(of: keyNode),
                value: value,
                valueLocation: location(of: value)
            ))
        }
        return YAMLMapping(context: context, location: location(of: node), entries: entries)
    }

    /// Reads a value as a non-empty list.
    func list(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> [Node] {
        guard case .sequence(let sequence) = entry.value else {
            throw wrongType(entry, expected: "a list")
        }
        guard !sequence.isEmpty else {
            throw PipelineFileError(.emptyList(key: entry.key), at: entry.valueLocation)
        }
        return Array(sequence)
    }

    /// Reads a value as text. Any non-null scalar is accepted as written, so `name: 1` is `"1"`.
    func string(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> String {
        guard case .scalar(let scalar) = entry.value, !isNull(entry.value) else {
            throw wrongType(entry, expected: "a string")
        }
        return scalar.string
    }

    /// Reads a value as text that must not be empty.
    func nonEmptyString(_ entry: YAMLMapping.Entry, expected: String) throws(PipelineFileError) -> String {
        let text = try string(entry)
        guard !text.isEmpty else {
            throw PipelineFileError(
                .malformedValue(key: entry.key, value: text, expected: expected),
                at: entry.valueLocation
            )
        }
        return text
    }

    /// Reads a value as a YAML integer.
    func integer(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> Int {
        guard yamlType(of: entry.value) == .int else {
            throw wrongType(entry, expected: "an integer")
        }
        guard let value = entry.value.int else {
            throw PipelineFileError(
                .outOfRange(key: entry.key, value: entry.value.string ?? "", valid: "a 64-bit integer"),
                at: entry.valueLocation
            )
        }
        return value
    }

    /// Reads a value as a YAML integer within `range`.
    func integer(_ entry: YAMLMapping.Entry, in range: ClosedRange<Int>, valid: String)
        throws(PipelineFileError) -> Int
    {
        let value = try integer(entry)
        guard range.contains(value) else {
            throw PipelineFileError(
                .outOfRange(key: entry.key, value: String(value), valid: valid),
                at: entry.valueLocation
            )
        }
        return value
    }

    /// Reads a value as a number: a YAML integer or float.
    func number(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> Double {
        let tag = yamlType(of: entry.value)
        if tag == .int, let value = entry.value.int {
            return Double(value)
        }
        guard tag == .int || tag == .float, let value = entry.value.float else {
            throw wrongType(entry, expected: "a number")
        }
        return value
    }

    /// Reads a number of seconds: finite and above 0, or with `allowingZero` 0 or more.
    func seconds(_ entry: YAMLMapping.Entry, allowingZero: Bool = false) throws(PipelineFileError) -> Double {
        let value = try number(entry)
        guard value.isFinite, allowingZero ? value >= 0 : value > 0 else {
            throw PipelineFileError(
                .outOfRange(key: entry.key, value: entry.value.string ?? "",
                            valid: allowingZero ? "a finite number, 0 or more" : "a finite number above 0"),
                at: entry.valueLocation
            )
        }
        return value
    }

    /// Reads a value as a YAML boolean.
    func boolean(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> Bool {
        guard yamlType(of: entry.value) == .bool, let value = entry.value.bool else {
            throw wrongType(entry, expected: "a boolean (true or false)")
        }
        return value
    }

    /// Reads a value as one of an enumeration's raw values, suggesting the closest on a typo.
    func choice<Value: RawRepresentable & CaseIterable>(_ entry: YAMLMapping.Entry, of type: Value.Type)
        throws(PipelineFileError) -> Value where Value.RawValue == String
    {
        let text = try string(entry)
        if let value = Value(rawValue: text) {
            return value
        }
        let valid = Value.allCases.map(\.rawValue)
        throw PipelineFileError(
            .invalidValue(key: entry.key, value: text, valid: valid, suggestion: Suggestion.closest(to: text, among: valid)),
            at: entry.valueLocation
        )
    }

    /// A node's resolved YAML tag: explicit, `str` for quoted scalars, or by the YAML 1.1 rules.
    func yamlType(of node: Node) -> Tag.Name {
        Resolver.default.resolveTag(of: node)
    }

    /// Whether a node is a YAML null (`~`, `null` or nothing).
    func isNull(_ node: Node) -> Bool {
        guard case .scalar = node else { return false }
        return yamlType(of: node) == .null
    }

    /// A wrong-type error for an entry's value, at the value, or at the key when the value is
    /// empty (an empty value has no text to point at).
    func wrongType(_ entry: YAMLMapping.Entry, expected: String) -> PipelineFileError {
        let isEmpty = isNull(entry.value) && entry.value.scalar?.string.isEmpty == true
        return PipelineFileError(
            .wrongType(key: entry.key, expected: expected, found: describe(entry.value)),
            at: isEmpty ? entry.keyLocation : entry.valueLocation
        )
    }

    /// A wrong-type error for a node, at the node.
    func wrongType(_ node: Node, key: String, expected: String) -> PipelineFileError {
        PipelineFileError(.wrongType(key: key, expected: expected, found: describe(node)), at: location(of: node))
    }

    /// Describes a node's type and value for messages: `string 'high'`, `integer 3`, `a list`…
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping:
            return "a mapping"
        case .sequence:
            return "a list"
        case .alias:
            return "an alias"
        case .scalar(let whole):
            var scalar = whole
            scalar.string = PipelineFileError.Kind.excerpt(whole.string)
            switch yamlType(of: node) {
            case .null:
                return scalar.string.isEmpty ? "an empty value" : "null"
            case .str:
                return "string \(PipelineFileError.Kind.quoted(whole.string))"
            case .int:
                return "integer \(scalar.string)"
            case .float:
                return "number \(scalar.string)"
            case .bool:
                return "boolean \(scalar.string)"
            default:
                return "'\(scalar.string)'"
            }
        }
    }
}
