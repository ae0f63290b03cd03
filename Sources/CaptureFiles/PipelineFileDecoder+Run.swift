import Yams

/// Decoding of the `run` mapping.
extension PipelineFileDecoder {
    /// The keys allowed in `run`; exactly one must be present.
    static let runKeys = ["frames", "seconds"]

    /// Decodes `run`: exactly one of `frames` (an integer of at least 1) or `seconds`
    /// (a number above 0).
    func decodeRun(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> PipelineFile.RunLength {
        let run = try mapping(entry.value, key: entry.key, context: "run", allowingNull: true)
        try run.rejectUnknownKeys(allowed: Self.runKeys)
        guard let first = run.entries.first else {
            throw PipelineFileError(.missingChoice(Self.runKeys, context: "run"), at: entry.keyLocation)
        }
        if run.entries.count > 1 {
            let second = run.entries[1]
            throw PipelineFileError(
                .conflictingKeys(second.key, with: first.key, reason: "run takes exactly one of 'frames' or 'seconds'"),
                at: second.keyLocation
            )
        }
        if first.key == "frames" {
            return .frames(try integer(first, in: 1...Int.max, valid: "at least 1"))
        }
        return .seconds(try seconds(first))
    }
}
