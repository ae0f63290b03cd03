import Foundation
import GStreamerSwift
import Synchronization

/// Chooses the element a preview shows its picture with: for `.window` the first of
/// ``candidates`` that exists and opens the display (reaches READY), for `.kms` `kmssink` if it
/// opens a DRM device. A ``CaptureContext`` asks once per display and keeps the answer.
enum WindowSink {
    /// In order of preference.
    static let candidates = ["glimagesink", "xvimagesink", "ximagesink", "waylandsink"]

    /// The display the choice is for (`$WAYLAND_DISPLAY` and `$DISPLAY`).
    static var display: String {
        let environment = ProcessInfo.processInfo.environment
        return "\(environment["WAYLAND_DISPLAY"] ?? "")|\(environment["DISPLAY"] ?? "")"
    }

    /// The factory that shows `sink` (`.window` or `.kms`) on the current display, or nil when
    /// none opens it. Tries each candidate (it opens the display): the context keeps the answer.
    static func probe(_ sink: PreviewSink) -> String? {
        (sink == .kms ? ["kmssink"] : candidates).first(where: opens)
    }

    /// Why no element could show `sink`'s picture.
    static func unavailable(_ sink: PreviewSink) -> String {
        let environment = ProcessInfo.processInfo.environment
        if sink == .kms { return "kmssink cannot open a DRM device (is /dev/dri/card0 there, and free?)" }
        return "no window sink opens a display: tried \(candidates.joined(separator: ", ")) with DISPLAY=\(environment["DISPLAY"] ?? "(unset)") and WAYLAND_DISPLAY=\(environment["WAYLAND_DISPLAY"] ?? "(unset)")"
    }

    /// Whether `factory` exists and reaches READY (X sinks open the display there; xvimagesink
    /// fails without the XVideo extension, waylandsink without a compositor).
    private static func opens(_ factory: String) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        switch factory {
        case "waylandsink": if environment["WAYLAND_DISPLAY"] == nil { return false }
        case "kmssink": break
        default: if environment["DISPLAY"] == nil { return false }
        }
        guard let element = try? Element(factory: factory, name: "probe_\(factory)") else { return false }
        defer { _ = element.setState(.null) }
        return element.setState(.ready) != .failure
    }
}
