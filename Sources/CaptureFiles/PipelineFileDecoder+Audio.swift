import CaptureKit
import Yams

/// Decoding of `audioData` outputs.
extension PipelineFileDecoder {
    /// The keys allowed in an `audioData` output.
    static let audioDataKeys = ["name", "format", "count", "write", "connection"]

    /// What `write` values look like, for messages.
    static let wavPathDescription = "a path ending in .wav, e.g. sound.wav"

    /// Decodes an `audioData` output's settings: its delivery `format` (within what
    /// `AudioDataOutput` converts to), a sample-buffer `count` of at least 1, the WAV file to
    /// `write`, and a connection to an audio input.
    func decodeAudioData(
        _ settings: YAMLMapping,
        defaultName: String,
        location: PipelineFile.SourceLocation,
        inputs: [PipelineFile.Input]
    ) throws(PipelineFileError) -> PipelineFile.AudioDataSpec {
        try settings.rejectUnknownKeys(allowed: Self.audioDataKeys)
        let name = try outputName(settings, default: defaultName)

        var format: PipelineFile.AudioFormatSpec?
        if let entry = settings["format"] {
            let spec = try audioFormatSpec(entry)
            let rates = AudioDataOutput.supportedSampleRates
            let channels = AudioDataOutput.supportedChannelCounts
            guard spec.sampleRate.map(rates.contains) ?? true, spec.channelCount.map(channels.contains) ?? true else {
                throw PipelineFileError(
                    .outOfRange(
                        key: entry.key,
                        value: spec.description,
                        valid: "a sample rate of \(rates.lowerBound)...\(rates.upperBound) Hz and mono or stereo"
                    ),
                    at: entry.valueLocation
                )
            }
            format = spec
        }

        let count = try settings["count"].map { entry throws(PipelineFileError) in
            try integer(entry, in: 1...Int.max, valid: "at least 1")
        }

        let path = try settings["write"].map { entry throws(PipelineFileError) in
            let text = try nonEmptyString(entry, expected: Self.wavPathDescription)
            guard text.lowercased().hasSuffix(".wav"), text.count > 4, !text.hasSuffix("/.wav") else {
                throw PipelineFileError(
                    .malformedValue(key: entry.key, value: text, expected: Self.wavPathDescription),
                    at: entry.valueLocation
                )
            }
            return text
        }

        return PipelineFile.AudioDataSpec(
            name: name,
            format: format,
            count: count,
            path: path,
            connection: try connection(
                settings["connection"], inputs: inputs, outputLocation: location, kind: "audioData", output: name, needs: .audio
            ),
            location: location,
            pathLocation: settings["write"]?.valueLocation
        )
    }
}
