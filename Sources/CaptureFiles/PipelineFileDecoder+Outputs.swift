import CaptureKit
import Yams

/// Decoding of the `outputs` list and connection settings.
extension PipelineFileDecoder {
    /// The keys allowed in a `still` output.
    static let stillKeys = ["name", "format", "quality", "count", "path", "connection"]
    /// The keys allowed in a `videoData` output.
    static let videoDataKeys = ["name", "pixelFormat", "size", "discardLate", "action", "path", "codec", "bitrate", "keyFrameInterval", "connection"]
    /// The keys allowed in a `connection`.
    static let connectionKeys = ["input", "orientation", "mirrored"]

    /// Decodes the `outputs` list, checking that names are unique and connections name inputs.
    func decodeOutputs(_ entry: YAMLMapping.Entry, inputs: [PipelineFile.Input])
        throws(PipelineFileError) -> [PipelineFile.Output]
    {
        var outputs: [PipelineFile.Output] = []
        var names: [(name: String, location: PipelineFile.SourceLocation)] = []
        for (index, node) in try list(entry).enumerated() {
            let item = try mapping(node, key: entry.key, context: "output item")
            try item.rejectUnknownKeys(allowed: PipelineFile.Output.kindNames)
            guard let kind = item.entries.first else {
                throw PipelineFileError(
                    .missingChoice(PipelineFile.Output.kindNames, context: "output item"),
                    at: item.location
                )
            }
            if item.entries.count > 1 {
                let extra = item.entries[1]
                throw PipelineFileError(
                    .conflictingKeys(extra.key, with: kind.key, reason: "an output item has exactly one key naming its kind"),
                    at: extra.keyLocation
                )
            }
            let defaultName = "output\(index)"
            let output: PipelineFile.Output
            let nameLocation: PipelineFile.SourceLocation
            if kind.key == "still" {
                let settings = try mapping(kind.value, key: kind.key, context: "still output", allowingNull: true)
                output = .still(try decodeStill(settings, defaultName: defaultName, location: kind.keyLocation, inputs: inputs))
                nameLocation = settings["name"]?.valueLocation ?? kind.keyLocation
            } else if kind.key == "audioData" {
                let settings = try mapping(kind.value, key: kind.key, context: "audioData output", allowingNull: true)
                output = .audioData(try decodeAudioData(settings, defaultName: defaultName, location: kind.keyLocation, inputs: inputs))
                nameLocation = settings["name"]?.valueLocation ?? kind.keyLocation
            } else if kind.key == "movie" {
                let settings = try mapping(kind.value, key: kind.key, context: "movie output", allowingNull: true)
                output = .movie(try decodeMovie(settings, defaultName: defaultName, location: kind.keyLocation, inputs: inputs))
                nameLocation = settings["name"]?.valueLocation ?? kind.keyLocation
            } else if kind.key == "stream" {
                let settings = try mapping(kind.value, key: kind.key, context: "stream output")
                output = .stream(try decodeStream(settings, defaultName: defaultName, location: kind.keyLocation, inputs: inputs))
                nameLocation = settings["name"]?.valueLocation ?? kind.keyLocation
            } else if kind.key == "preview" {
                let settings = try mapping(kind.value, key: kind.key, context: "preview output", allowingNull: true)
                output = .preview(try decodePreview(settings, defaultName: defaultName, location: kind.keyLocation, inputs: inputs))
                nameLocation = settings["name"]?.valueLocation ?? kind.keyLocation
            } else if kind.key == "metadata" {
                let settings = try mapping(kind.value, key: kind.key, context: "metadata output", allowingNull: true)
                output = .metadata(try decodeMetadata(settings, defaultName: defaultName, location: kind.keyLocation, inputs: inputs))
                nameLocation = settings["name"]?.valueLocation ?? kind.keyLocation
            } else {
                let settings = try mapping(kind.value, key: kind.key, context: "videoData output", allowingNull: true)
                output = .videoData(try decodeVideoData(settings, defaultName: defaultName, location: kind.keyLocation, inputs: inputs))
                nameLocation = settings["name"]?.valueLocation ?? kind.keyLocation
            }
            outputs.append(output)
            names.append((output.name, nameLocation))
        }
        try rejectDuplicateNames(names)
        return outputs
    }

    /// Decodes a `still` output's settings.
    func decodeStill(
        _ settings: YAMLMapping,
        defaultName: String,
        location: PipelineFile.SourceLocation,
        inputs: [PipelineFile.Input]
    ) throws(PipelineFileError) -> PipelineFile.StillSpec {
        try settings.rejectUnknownKeys(allowed: Self.stillKeys)
        let name = try outputName(settings, default: defaultName)
        let format = try settings["format"].map { entry throws(PipelineFileError) in
            try choice(entry, of: PipelineFile.StillFormat.self)
        } ?? .jpeg

        var quality: Int?
        if let entry = settings["quality"] {
            quality = try integer(entry, in: 0...100, valid: "in 0...100")
            guard format == .jpeg else {
                throw PipelineFileError(
                    .conflictingKeys(
                        "quality",
                        with: "format",
                        reason: "quality only applies to format 'jpeg', not '\(format.rawValue)'"
                    ),
                    at: entry.keyLocation
                )
            }
        }

        let count = try settings["count"].map { entry throws(PipelineFileError) in
            try integer(entry, in: 1...Int.max, valid: "at least 1")
        } ?? 1

        var path = PipelineFile.StillSpec.defaultPath(name: name, format: format)
        if let entry = settings["path"] {
            path = try nonEmptyString(entry, expected: "a non-empty path pattern")
            if count > 1, !path.contains(PipelineFile.StillSpec.indexPlaceholder) {
                throw PipelineFileError(
                    .conflictingKeys(
                        "path",
                        with: "count",
                        reason: "with count \(count) the path needs '\(PipelineFile.StillSpec.indexPlaceholder)'"
                            + " so that each still gets its own file"
                    ),
                    at: entry.keyLocation
                )
            }
        }

        return PipelineFile.StillSpec(
            name: name,
            format: format,
            quality: quality,
            count: count,
            path: path,
            connection: try connection(settings["connection"], inputs: inputs, outputLocation: location, kind: "still", output: name),
            location: location,
            pathLocation: settings["path"]?.valueLocation
        )
    }

    /// Decodes a `videoData` output's settings.
    func decodeVideoData(
        _ settings: YAMLMapping,
        defaultName: String,
        location: PipelineFile.SourceLocation,
        inputs: [PipelineFile.Input]
    ) throws(PipelineFileError) -> PipelineFile.VideoDataSpec {
        try settings.rejectUnknownKeys(allowed: Self.videoDataKeys)
        let name = try outputName(settings, default: defaultName)
        let pixelFormat = try settings["pixelFormat"].map { entry throws(PipelineFileError) in
            try choice(entry, of: PipelineFile.PixelFormat.self)
        } ?? .bgra
        let size = try settings["size"].map { entry throws(PipelineFileError) in
            try frameSize(entry)
        }
        let discardLate = try settings["discardLate"].map { entry throws(PipelineFileError) in
            try boolean(entry)
        } ?? true
        let actionEntry = settings["action"]
        let action = try actionEntry.map { entry throws(PipelineFileError) in
            try choice(entry, of: PipelineFile.VideoDataAction.self)
        } ?? .count

        var path: String?
        if let entry = settings["path"] {
            let text = try nonEmptyString(entry, expected: "a non-empty path pattern")
            guard action == .dump else {
                throw PipelineFileError(
                    .conflictingKeys(
                        "path",
                        with: "action",
                        reason: "path only applies to action 'dump', not '\(action.rawValue)'"
                    ),
                    at: entry.keyLocation
                )
            }
            path = text
        } else if action == .dump, let actionEntry {
            throw PipelineFileError(
                .missingKey("path", context: "videoData output with action 'dump'"),
                at: actionEntry.keyLocation
            )
        }

        var spec = PipelineFile.VideoDataSpec(
            name: name,
            pixelFormat: pixelFormat,
            size: size,
            discardLate: discardLate,
            action: action,
            path: path,
            connection: try connection(settings["connection"], inputs: inputs, outputLocation: location, kind: "videoData", output: name),
            location: location,
            pathLocation: settings["path"]?.valueLocation
        )
        try decodeVideoDataCodec(settings, into: &spec)
        return spec
    }

    /// Decodes an output's optional `connection`. Without an `input`, the output takes the
    /// first input the file shows to have its media type (`needs`), else the first input whose
    /// media type only its device tells (the session checks it then).
    /// - Throws: ``PipelineFileError/Kind/wrongMediaInput(kind:output:needs:input:suggestion:)`` at
    ///   the `input` value when it names an input of the other media type, or at the output when
    ///   no input can have the media type; a `conflictingKeys` error for orientation or mirroring
    ///   on an audio connection.
    func connection(
        _ entry: YAMLMapping.Entry?,
        inputs: [PipelineFile.Input],
        outputLocation: PipelineFile.SourceLocation,
        kind: String,
        output: String,
        needs: MediaType = .video
    ) throws(PipelineFileError) -> PipelineFile.ConnectionSpec {
        let names = inputs.map(\.name)
        func defaultInput() throws(PipelineFileError) -> String {
            guard let name = Self.defaultInput(for: needs, among: inputs) else {
                throw PipelineFileError(
                    .wrongMediaInput(kind: kind, output: output, needs: needs, input: nil, suggestion: nil),
                    at: outputLocation
                )
            }
            return name
        }
        guard let entry else {
            return PipelineFile.ConnectionSpec(
                input: try defaultInput(), namesInput: false, orientation: nil, mirrored: nil, location: outputLocation
            )
        }
        let settings = try mapping(entry.value, key: entry.key, context: "connection", allowingNull: true)
        try settings.rejectUnknownKeys(allowed: Self.connectionKeys)
        if needs == .audio, let videoKey = settings.entries.first(where: { $0.key != "input" }) {
            throw PipelineFileError(
                .conflictingKeys(videoKey.key, with: kind, reason: "orientation and mirroring apply to video; "
                    + "an \(kind) output's connection takes only 'input'"),
                at: videoKey.keyLocation
            )
        }

        let input: String
        let namesInput: Bool
        if let inputEntry = settings["input"] {
            let reference = try string(inputEntry)
            guard let named = inputs.first(where: { $0.name == reference }) else {
                throw PipelineFileError(
                    .unknownInput(reference, available: names, suggestion: Suggestion.closest(to: reference, among: names)),
                    at: inputEntry.valueLocation
                )
            }
            if let declared = named.declaredMediaType, declared != needs {
                throw PipelineFileError(
                    .wrongMediaInput(kind: kind, output: output, needs: needs, input: reference,
                                     suggestion: Self.defaultInput(for: needs, among: inputs)),
                    at: inputEntry.valueLocation
                )
            }
            input = reference
            namesInput = true
        } else {
            input = try defaultInput()
            namesInput = false
        }
        let orientation = try settings["orientation"].map { entry throws(PipelineFileError) in
            try choice(entry, of: PipelineFile.Orientation.self)
        }
        let mirrored = try settings["mirrored"].map { entry throws(PipelineFileError) in
            try boolean(entry)
        }
        return PipelineFile.ConnectionSpec(
            input: input,
            namesInput: namesInput,
            orientation: orientation,
            mirrored: mirrored,
            location: settings.entries.isEmpty ? entry.keyLocation : settings.location
        )
    }

    /// The input an output of media type `needs` takes when its connection names none: the
    /// first input the file shows to have that media type, else the first whose media type only
    /// its device tells; nil when every input is of the other media type.
    static func defaultInput(for needs: MediaType, among inputs: [PipelineFile.Input]) -> String? {
        (inputs.first { $0.declaredMediaType == needs } ?? inputs.first { $0.declaredMediaType == nil })?.name
    }

    /// Reads an output's optional `name`.
    func outputName(_ settings: YAMLMapping, default defaultName: String) throws(PipelineFileError) -> String {
        try settings["name"].map { entry throws(PipelineFileError) in
            try nonEmptyString(entry, expected: "a non-empty name")
        } ?? defaultName
    }
}
