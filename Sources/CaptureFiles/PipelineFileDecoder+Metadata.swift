import CaptureKit
import Foundation
import Yams

/// Decoding of `metadata` outputs.
extension PipelineFileDecoder {
    /// The keys allowed in a `metadata` output.
    static let metadataKeys = ["name", "types", "rect", "path", "connection", "motion"]

    func decodeMetadata(
        _ settings: YAMLMapping,
        defaultName: String,
        location: PipelineFile.SourceLocation,
        inputs: [PipelineFile.Input]
    ) throws(PipelineFileError) -> PipelineFile.MetadataSpec {
        try settings.rejectUnknownKeys(allowed: Self.metadataKeys)
        var types = MetadataObjectType.machineReadableCodes
        if let entry = settings["types"] {
            types = []
            for node in try list(entry) {
                let item = YAMLMapping.Entry(key: entry.key, keyLocation: entry.keyLocation, value: node, valueLocation: self.location(of: node))
                let text = try string(item)
                // Codes are checked first: asking whether faces are available loads OpenCV.
                guard let type = MetadataObjectType(name: text),
                      MetadataObjectType.machineReadableCodes.contains(type) || MetadataObjectType.available.contains(type) else {
                    let valid = MetadataObjectType.available.map(\.name)
                    throw PipelineFileError(
                        .invalidValue(key: entry.key, value: text, valid: valid, suggestion: Suggestion.closest(to: text, among: valid)),
                        at: item.valueLocation
                    )
                }
                types.append(type)
            }
        }
        let rect = try settings["rect"].map { entry throws(PipelineFileError) in try self.rect(entry) } ?? CGRect(x: 0, y: 0, width: 1, height: 1)
        let motion = try settings["motion"].map { entry throws(PipelineFileError) in try decodeMotion(entry) }
        if let entry = settings["motion"], !types.contains(.motion) {
            throw PipelineFileError(.conflictingKeys("motion", with: "types", reason: "motion settings apply to motion: add motion to types"),
                                    at: entry.keyLocation)
        }
        let path = try settings["path"].map { entry throws(PipelineFileError) in
            try nonEmptyString(entry, expected: "a non-empty path")
        }
        let name = try outputName(settings, default: defaultName)
        return PipelineFile.MetadataSpec(
            name: name,
            types: types,
            rectOfInterest: rect,
            path: path,
            connection: try connection(settings["connection"], inputs: inputs, outputLocation: location, kind: "metadata", output: name),
            location: location,
            pathLocation: settings["path"]?.valueLocation,
            motion: motion
        )
    }
}
