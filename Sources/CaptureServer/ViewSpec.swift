import CaptureKit
import Foundation

/// The view a page shows the picture in, as it tells `/ws/metadata` in the WebSocket URL's
/// query: `width` and `height` (the view's size in CSS pixels), `gravity` (`resizeAspect`,
/// `resizeAspectFill`, `resize`, or `aspect`/`fill`), `orientation` (`portrait`,
/// `portraitUpsideDown`, `landscapeRight`, `landscapeLeft`) and `mirrored` (`true`/`false`).
/// Every parameter is optional: no size means the picture's own size, then `resizeAspect`,
/// `landscapeRight`, unmirrored.
struct ViewSpec: Sendable, Equatable {
    var width: Double = 0
    var height: Double = 0
    var gravity = VideoGravity.resizeAspect
    var orientation = VideoOrientation.landscapeRight
    var mirrored = false

    static let keys = ["width", "height", "gravity", "orientation", "mirrored", "token"]

    init() {}

    /// Reads the query's parameters; a 400 names the first one that is wrong and what is valid.
    init(query: [String: String]) throws(APIError) {
        if let unknown = query.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw .badRequest("unknownParameter", "unknown parameter \"\(unknown)\"; valid: width, height, gravity, orientation, mirrored")
        }
        func size(_ key: String) throws(APIError) -> Double {
            guard let text = query[key] else { return 0 }
            guard let value = Double(text), value.isFinite, (0...100_000).contains(value) else {
                throw .badRequest("invalidValue", "\(key) \"\(text)\" is not a size; valid: 0…100000 (CSS pixels)")
            }
            return value
        }
        width = try size("width")
        height = try size("height")
        if let name = query["gravity"] {
            guard let gravity = VideoGravity(name: name) else {
                throw .badRequest("invalidValue", "gravity \"\(name)\" is not a video gravity; valid: \(VideoGravity.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.gravity = gravity
        }
        if let name = query["orientation"] {
            guard let orientation = VideoOrientation(name: name) else {
                throw .badRequest("invalidValue", "orientation \"\(name)\" is not an orientation; valid: \(VideoOrientation.allCases.map(\.description).joined(separator: ", "))")
            }
            self.orientation = orientation
        }
        if let text = query["mirrored"] {
            guard let value = Bool(text) else { throw .badRequest("invalidValue", "mirrored \"\(text)\" is not a boolean; valid: true, false") }
            mirrored = value
        }
    }

    /// The view's bounds.
    var bounds: CGRect { CGRect(x: 0, y: 0, width: width, height: height) }
}
