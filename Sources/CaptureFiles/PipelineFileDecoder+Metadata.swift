import CaptureKit
import Foundation
import Yams

/// Decoding of `metadata` outputs.
extension PipelineFileDecoder {
    /// The keys allowed in a `metadata` output.
    static let metadataKeys = ["name", "types", "rect", "path", "connection"]

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
        var rect = CGRect(x: 0, y: 0, width: 1, height: 1)
        if let entry = settings["rect"] {
            let nodes = try list(entry)
            var values: [Double] = []
            for node in nodes {
                values.append(try number(YAMLMapping.Entry(key: entry.key, keyLocation: entry.keyLocation, value: node, valueLocation: self.location(of: node))))
            }
            let candidate = values.count == 4 ? CGRect(x: values[0], y: values[1], width: values[2], height: values[3]) : nil
            guard let candidate, candidate.width > 0, candidate.height > 0, candidate.minX >= 0, candidate.minY >= 0,
                  candidate.maxX <= 1, candidate.maxY <= 1 else {
                throw PipelineFileError(
                    .outOfRange(key: entry.key, value: "[" + values.map { "\($0)" }.joined(separator: ", ") + "]",
                                valid: "[x, y, width, height], a non-empty rect within 0...1"),
                    at: entry.valueLocation
                )
            }
            rect = candidate
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
            pathLocation: settings["path"]?.valueLocation
        )
    }
}
