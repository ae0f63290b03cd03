import CaptureKit
import Foundation

/// `/ws/metadata`'s messages: one JSON object per batch of objects found in a frame,
///
/// ```json
/// {"time": 12.345, "objects": [
///   {"type": "qr", "value": "https://…", "time": 12.345, "duration": 0.5,
///    "device": {"bounds": [x, y, w, h], "corners": [[x, y], …]},
///    "view": {"bounds": [x, y, w, h], "corners": [[x, y], …]}}
/// ]}
/// ```
///
/// `device` in device coordinates (0…1 of the unrotated picture), `view` in the view's CSS
/// pixels (null when the server cannot place it); faces have `faceID`, `roll` and `yaw`
/// instead of a value and corners.
enum MetadataJSON {
    /// Where one object is.
    struct Place: Encodable, Sendable {
        var bounds: [Double]
        var corners: [[Double]]?

        init(_ object: any MetadataObject) {
            bounds = [object.bounds.minX, object.bounds.minY, object.bounds.width, object.bounds.height].map(MetadataJSON.rounded)
            if let code = object as? MachineReadableCodeObject {
                corners = code.corners.map { [MetadataJSON.rounded($0.x), MetadataJSON.rounded($0.y)] }
            }
        }
    }

    /// One object.
    struct Object: Encodable, Sendable {
        var type: String
        var value: String?
        var faceID: Int?
        var roll: Double?
        var yaw: Double?
        var time: Double
        var duration: Double
        var device: Place
        var view: Place?
    }

    /// One batch.
    struct Batch: Encodable, Sendable {
        var time: Double
        var objects: [Object]
    }

    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

    /// The batch as text, each object with its place in the view from `view` (nil: unknown).
    static func text(_ objects: [any MetadataObject], view: (any MetadataObject) -> (any MetadataObject)?) -> String {
        let entries = objects.map { object in
            let face = object as? FaceObject
            return Object(type: object.type.name, value: (object as? MachineReadableCodeObject)?.stringValue ?? face.map { "\($0.faceID)" },
                          faceID: face?.faceID, roll: face?.rollAngle, yaw: face?.yawAngle,
                          time: rounded(object.time.seconds), duration: rounded(object.duration.seconds),
                          device: Place(object), view: view(object).map(Place.init))
        }
        let batch = Batch(time: rounded(objects.map(\.time.seconds).max() ?? 0), objects: entries)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(batch)).map { String(decoding: $0, as: UTF8.self) } ?? "{\"objects\":[]}"
    }
}
