import CaptureKit
import Yams

/// Decoding of `movie` outputs.
extension PipelineFileDecoder {
    /// The keys allowed in a `movie` output.
    static let movieKeys = ["name", "path", "maxDuration", "maxSize", "fragmentInterval", "codec", "bitrate", "keyFrameInterval",
                            "audio", "connection"]

    /// What movie paths look like, for messages.
    static var moviePathDescription: String {
        "a path ending in " + MovieFileOutput.supportedFileExtensions.map { "." + $0 }.joined(separator: ", ") + ", e.g. clip.mp4"
    }

    /// Decodes a `movie` output's settings: its path (with an extension naming a container),
    /// limits, fragment interval, video encoding, and connections to a camera and, with
    /// `audio`, a microphone. Encoding values are checked against the encoder when the session
    /// is built.
    func decodeMovie(
        _ settings: YAMLMapping,
        defaultName: String,
        location: PipelineFile.SourceLocation,
        inputs: [PipelineFile.Input]
    ) throws(PipelineFileError) -> PipelineFile.MovieSpec {
        try settings.rejectUnknownKeys(allowed: Self.movieKeys)
        let name = try outputName(settings, default: defaultName)
        let path = try settings["path"].map { entry throws(PipelineFileError) in
            let text = try nonEmptyString(entry, expected: Self.moviePathDescription)
            let ext = text.split(separator: ".").last.map { $0.lowercased() } ?? ""
            guard text.contains("."), !text.hasSuffix("/." + ext), MovieFileOutput.supportedFileExtensions.contains(ext) else {
                throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: Self.moviePathDescription),
                                        at: entry.valueLocation)
            }
            return text
        } ?? "\(name).mp4"
        let maxDuration = try settings["maxDuration"].map { entry throws(PipelineFileError) in
            try seconds(entry, allowingZero: false)
        }
        let maxSize = try settings["maxSize"].map { entry throws(PipelineFileError) in
            try byteCount(entry)
        }
        let fragmentInterval = try settings["fragmentInterval"].map { entry throws(PipelineFileError) in
            try seconds(entry, allowingZero: true)
        }
        let codec = try settings["codec"].map { entry throws(PipelineFileError) in
            try choice(entry, of: VideoCodecType.self)
        }
        let (bitrate, keyFrameInterval) = try encoding(settings)
        let audio = try settings["audio"].map { entry throws(PipelineFileError) in
            try connection(entry, inputs: inputs, outputLocation: location, kind: "movie", output: name, needs: .audio)
        }
        return PipelineFile.MovieSpec(
            name: name, path: path, maxDuration: maxDuration, maxSize: maxSize, fragmentInterval: fragmentInterval,
            codec: codec, bitrate: bitrate, keyFrameInterval: keyFrameInterval, audio: audio,
            connection: try connection(settings["connection"], inputs: inputs, outputLocation: location, kind: "movie", output: name),
            location: location, pathLocation: settings["path"]?.valueLocation
        )
    }

    /// Reads a size: a positive integer of bytes or a ``ByteCount`` text such as `50M`.
    func byteCount(_ entry: YAMLMapping.Entry) throws(PipelineFileError) -> ByteCount {
        if yamlType(of: entry.value) == .int {
            return ByteCount(bytes: Int64(try integer(entry, in: 1...Int.max, valid: "at least 1 byte")))
        }
        let text = try nonEmptyString(entry, expected: ByteCount.expected)
        guard let count = ByteCount(text) else {
            throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: ByteCount.expected), at: entry.valueLocation)
        }
        return count
    }
}
