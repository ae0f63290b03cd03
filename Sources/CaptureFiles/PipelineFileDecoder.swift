import Yams

/// Decodes and validates a pipeline file's YAML text into a ``PipelineFile``.
///
/// It walks Yams' node tree rather than using `Codable`, so that every error can point at the
/// line and column of the offending key or value.
struct PipelineFileDecoder {
    /// The file name errors and locations refer to.
    let fileName: String

    /// The keys allowed at the top level.
    static let topLevelKeys = ["version", "preset", "inputs", "outputs", "run"]

    /// Decodes a whole pipeline file.
    /// - Parameter yaml: The file's text.
    func decode(_ yaml: String) throws(PipelineFileError) -> PipelineFile {
        guard let root = try compose(yaml) else {
            throw PipelineFileError(.emptyDocument, at: PipelineFile.SourceLocation(file: fileName, line: 1, column: 1))
        }
        let document = try mapping(root, key: "top level", context: "top level")

        // The version comes first: a later version may define keys this one does not know.
        // A missing version is reported after unknown keys, so that `verison` gets a suggestion.
        if let versionEntry = document["version"] {
            try checkVersion(versionEntry)
        }
        try document.rejectUnknownKeys(allowed: Self.topLevelKeys)
        let versionEntry = try document.required("version")
        let version = try checkVersion(versionEntry)

        let presetEntry = document["preset"]
        let preset = try presetEntry.map { entry throws(PipelineFileError) in
            try choice(entry, of: PipelineFile.SessionPresetName.self)
        }
        let inputs = try decodeInputs(document.required("inputs"))
        let outputs = try decodeOutputs(document.required("outputs"), inputs: inputs)
        let runEntry = try document.required("run")
        let run = try decodeRun(runEntry)

        return PipelineFile(
            version: version,
            preset: preset,
            inputs: inputs,
            outputs: outputs,
            run: run,
            presetLocation: presetEntry?.valueLocation,
            runLocation: runEntry.keyLocation
        )
    }

    /// Reads `version` and checks that it is supported.
    @discardableResult
    func checkVersion(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> Int {
        let version = try integer(entry)
        guard PipelineFile.supportedVersions.contains(version) else {
            throw PipelineFileError(
                .unsupportedVersion(version, supported: PipelineFile.supportedVersions),
                at: entry.valueLocation
            )
        }
        return version
    }

    /// The location of a node in this file; 1:1 for a node without a position.
    func location(of node: Node) -> PipelineFile.SourceLocation {
        PipelineFile.SourceLocation(file: fileName, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// Throws an error if two named items share a name, pointing at the second.
    /// - Parameter names: Each item's name and where it is set (or where the item starts).
    func rejectDuplicateNames(_ names: [(name: String, location: PipelineFile.SourceLocation)])
        throws(PipelineFileError)
    {
        var firstUses: [String: PipelineFile.SourceLocation] = [:]
        for (name, location) in names {
            if let firstUse = firstUses[name] {
                throw PipelineFileError(.duplicateName(name, firstUse: firstUse), at: location)
            }
            firstUses[name] = location
        }
    }

    private func compose(_ yaml: String) throws(PipelineFileError) -> Node? {
        do {
            return try Yams.compose(yaml: yaml)
        } catch {
            throw PipelineFileError(yamlError: error, yaml: yaml, fileName: fileName)
        }
    }
}
