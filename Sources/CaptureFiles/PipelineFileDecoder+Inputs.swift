import Yams

/// Decoding of the `inputs` list.
extension PipelineFileDecoder {
    /// The keys allowed in an input.
    static let inputKeys = ["name", "device", "format", "controls"]

    /// What `device` values look like, for messages.
    static let deviceDescription = "'virtual', 'virtual-front', 'virtual-mic', a device index, unique ID or name"

    /// What input `format` values look like, for messages.
    static let inputFormatDescription = PipelineFile.FormatSpec.syntaxDescription + " for a camera, or "
        + PipelineFile.AudioFormatSpec.syntaxDescription + " for a microphone"

    /// Decodes the `inputs` list, checking that names are unique.
    func decodeInputs(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> [PipelineFile.Input] {
        var inputs: [PipelineFile.Input] = []
        var names: [(name: String, location: PipelineFile.SourceLocation)] = []
        for (index, node) in try list(entry).enumerated() {
            let item = try mapping(node, key: entry.key, context: "input")
            try item.rejectUnknownKeys(allowed: Self.inputKeys)

            let nameEntry = item["name"]
            let name = try nameEntry.map { entry throws(PipelineFileError) in
                try nonEmptyString(entry, expected: "a non-empty name")
            } ?? "input\(index)"
            names.append((name, nameEntry?.valueLocation ?? item.location))

            let deviceEntry = try item.required("device")
            let device = try deviceReference(deviceEntry)

            let formatEntry = item["format"]
            var format: PipelineFile.FormatSpec?
            var audioFormat: PipelineFile.AudioFormatSpec?
            if let formatEntry {
                (format, audioFormat) = try inputFormat(formatEntry, device: device)
            }

            let controls = try item["controls"].map { entry throws(PipelineFileError) in try decodeControls(entry) }

            var input = PipelineFile.Input(
                name: name,
                device: device,
                format: format,
                location: item.location,
                deviceLocation: deviceEntry.valueLocation,
                formatLocation: formatEntry?.valueLocation
            )
            input.controls = controls
            input.audioFormat = audioFormat
            inputs.append(input)
        }
        try rejectDuplicateNames(names)
        return inputs
    }

    /// Reads a `device` value: an integer is an index, as are quoted digits.
    func deviceReference(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.DeviceReference {
        if yamlType(of: entry.value) == .int {
            return .index(try integer(entry, in: 0...Int.max, valid: "at least 0"))
        }
        let text = try nonEmptyString(entry, expected: Self.deviceDescription)
        switch text {
        case "virtual":
            return .virtual(position: .back)
        case "virtual-front":
            return .virtual(position: .front)
        case "virtual-mic":
            return .virtualMicrophone
        default:
            if text.allSatisfy(\.isASCIIDigit) {
                guard let index = Int(text) else {
                    throw PipelineFileError(
                        .outOfRange(key: entry.key, value: text, valid: "a 64-bit integer"),
                        at: entry.valueLocation
                    )
                }
                return .index(index)
            }
            return .identifier(text)
        }
    }

    /// Reads an input's `format` value: a video format (`WIDTHxHEIGHT` or `WIDTHxHEIGHT@FPS`) or
    /// an audio format (`48000Hz stereo s16le`); exactly one of the results is set. A virtual
    /// camera takes only video formats and the virtual microphone only audio formats; other
    /// devices either, checked against the device when the session is built.
    func inputFormat(_ entry: YAMLMapping.Entry, device: PipelineFile.DeviceReference)
        throws(PipelineFileError) -> (PipelineFile.FormatSpec?, PipelineFile.AudioFormatSpec?)
    {
        switch device {
        case .virtual: return (try formatSpec(entry), nil)
        case .virtualMicrophone: return (nil, try audioFormatSpec(entry))
        case .index, .identifier: break
        }
        let text = try string(entry)
        if PipelineFile.FormatSpec(parsing: text) != nil {
            return (try formatSpec(entry), nil)
        }
        if PipelineFile.AudioFormatSpec(parsing: text) != nil {
            return (nil, try audioFormatSpec(entry))
        }
        throw PipelineFileError(
            .malformedValue(key: entry.key, value: text, expected: Self.inputFormatDescription),
            at: entry.valueLocation
        )
    }

    /// Reads an audio `format` value, such as `48000Hz stereo s16le` (any of the three parts).
    func audioFormatSpec(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.AudioFormatSpec {
        try spec(entry)
    }

    /// Reads a `format` value: `WIDTHxHEIGHT` or `WIDTHxHEIGHT@FPS`.
    func formatSpec(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.FormatSpec {
        try spec(entry)
    }

    /// Reads a `size` value: `WIDTHxHEIGHT`.
    func frameSize(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.FrameSize {
        try spec(entry)
    }

    /// Reads a value written in a spec's own syntax: a located error when it does not parse
    /// (naming the syntax) or is out of range (naming the valid range).
    private func spec<Spec: ParsedSpec>(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> Spec {
        let text = try string(entry)
        guard let value = Spec(parsing: text) else {
            throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: Spec.syntaxDescription), at: entry.valueLocation)
        }
        guard value.isInRange else {
            throw PipelineFileError(.outOfRange(key: entry.key, value: text, valid: Spec.validRange), at: entry.valueLocation)
        }
        return value
    }
}

/// A value a pipeline file writes in its own compact syntax (`640x480@30`, `48000Hz stereo s16le`).
protocol ParsedSpec {
    init?(parsing text: String)
    /// The syntax, for errors.
    static var syntaxDescription: String { get }
    /// What values are valid, for errors.
    static var validRange: String { get }
    var isInRange: Bool { get }
}

extension PipelineFile.AudioFormatSpec: ParsedSpec {
    static var validRange: String { "a sample rate of at least 1 Hz and at least 1 channel" }
}

extension PipelineFile.FormatSpec: ParsedSpec {
    static var validRange: String { "a width and height of at least 1 and a frame rate above 0" }
}

extension PipelineFile.FrameSize: ParsedSpec {
    static var validRange: String { "a width and height of at least 1" }
}
