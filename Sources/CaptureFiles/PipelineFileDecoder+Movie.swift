import CaptureKit
import Yams

/// Decoding of `movie` outputs.
extension PipelineFileDecoder {
    /// The keys allowed in a `movie` output.
    static let movieKeys = ["name", "path", "maxDuration", "maxSize", "fragmentInterval", "codec", "bitrate", "keyFrameInterval",
                            "audio", "connection", "segment", "keep", "maxDisk", "events"]

    /// What segment paths look like, for messages.
    static let segmentPathDescription = "a folder ending in / (e.g. door/) or a strftime pattern ending in .mp4, .mov or .mkv (e.g. door/%Y-%m-%d/%H-%M-%S.mp4), without '..'"

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
        let pathText = try settings["path"].map { entry throws(PipelineFileError) in try nonEmptyString(entry, expected: Self.moviePathDescription) }
        let segment = try settings["segment"].map { entry throws(PipelineFileError) in
            let value = try seconds(entry)
            guard value >= 1, value <= 86_400 else {
                throw PipelineFileError(.outOfRange(key: entry.key, value: entry.value.string ?? "", valid: "from 1 to 86400 seconds"), at: entry.valueLocation)
            }
            return value
        } ?? pathText.flatMap { $0.hasSuffix("/") || $0.contains("%") ? 60 : nil }
        let path = try segment == nil ? moviePath(pathText, entry: settings["path"], name: name) : segmentPath(pathText, entry: settings["path"], name: name)
        let keep = try settings["keep"].map { entry throws(PipelineFileError) in
            let text = try nonEmptyString(entry, expected: RetentionAge.expected)
            guard let seconds = RetentionAge.seconds(text) else {
                throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: RetentionAge.expected), at: entry.valueLocation)
            }
            return seconds
        }
        let maxDisk = try settings["maxDisk"].map { entry throws(PipelineFileError) in try byteCount(entry) }
        let events = try settings["events"].map { entry throws(PipelineFileError) in try decodeEvents(entry) }
        for key in ["keep", "maxDisk", "events"] where segment == nil {
            if let entry = settings[key] {
                throw PipelineFileError(.conflictingKeys(key, with: "path", reason: "\(key) applies to segments: give segment, or a path that is a folder or pattern"),
                                        at: entry.keyLocation)
            }
        }
        if segment != nil, let entry = settings["maxSize"] {
            throw PipelineFileError(.conflictingKeys("maxSize", with: "segment", reason: "maxSize limits one file; segments are limited by segment and maxDisk"),
                                    at: entry.keyLocation)
        }
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
            location: location, pathLocation: settings["path"]?.valueLocation, segment: segment, keep: keep, maxDisk: maxDisk,
            events: events
        )
    }

    /// A single movie's path: an extension naming a container (`NAME.mp4` when not given).
    private func moviePath(_ text: String?, entry: YAMLMapping.Entry?, name: String) throws(PipelineFileError) -> String {
        guard let text, let entry else { return "\(name).mp4" }
        let ext = text.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard text.contains("."), !text.hasSuffix("/." + ext), MovieFileOutput.supportedFileExtensions.contains(ext) else {
            throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: Self.moviePathDescription), at: entry.valueLocation)
        }
        return text
    }

    /// Segments' path: a folder ending in `/` (`NAME/` when not given) or a pattern with `%`
    /// ending in an extension segments are written in.
    private func segmentPath(_ text: String?, entry: YAMLMapping.Entry?, name: String) throws(PipelineFileError) -> String {
        guard let text, let entry else { return "\(name)/" }
        let ext = text.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard text.hasSuffix("/") || (text.contains("%") && SegmentedMovieFileOutput.supportedFileExtensions.contains(ext)),
              !text.split(separator: "/").contains("..") else {
            throw PipelineFileError(.malformedValue(key: entry.key, value: text, expected: Self.segmentPathDescription), at: entry.valueLocation)
        }
        return text
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
