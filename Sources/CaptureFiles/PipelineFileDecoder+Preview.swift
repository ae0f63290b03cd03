import CaptureKit
import Foundation

/// Decoding of `preview` outputs.
extension PipelineFileDecoder {
    /// The keys allowed in a `preview` output.
    static let previewKeys = ["name", "sink", "gravity", "size", "connection"]

    /// Decodes a `preview` output: its sink, gravity, view size and connection.
    func decodePreview(
        _ settings: YAMLMapping,
        defaultName: String,
        location: PipelineFile.SourceLocation,
        inputs: [PipelineFile.Input]
    ) throws(PipelineFileError) -> PipelineFile.PreviewSpec {
        try settings.rejectUnknownKeys(allowed: Self.previewKeys)
        let name = try outputName(settings, default: defaultName)
        let sink = try settings["sink"].map { entry throws(PipelineFileError) in
            try named(entry, among: PipelineFile.PreviewSpec.sinks)
        } ?? .window
        let gravities = VideoGravity.shortNames.compactMap { name in VideoGravity(name: name).map { (name, $0) } }
            + VideoGravity.allCases.filter { !VideoGravity.shortNames.contains($0.rawValue) }.map { ($0.rawValue, $0) }
        let gravity = try settings["gravity"].map { entry throws(PipelineFileError) in
            try named(entry, among: gravities)
        } ?? .resizeAspect
        let size = try settings["size"].map { entry throws(PipelineFileError) in try frameSize(entry) }
        return PipelineFile.PreviewSpec(
            name: name, sink: sink, gravity: gravity, size: size,
            connection: try connection(settings["connection"], inputs: inputs, outputLocation: location, kind: "preview", output: name),
            location: location
        )
    }

    /// The value `entry` names among `choices`, or a located error listing the names.
    private func named<Value>(_ entry: YAMLMapping.Entry, among choices: [(String, Value)]) throws(PipelineFileError) -> Value {
        let text = try string(entry)
        if let match = choices.first(where: { $0.0 == text }) { return match.1 }
        let valid = choices.map(\.0)
        throw PipelineFileError(
            .invalidValue(key: entry.key, value: text, valid: valid, suggestion: Suggestion.closest(to: text, among: valid)),
            at: entry.valueLocation
        )
    }
}
