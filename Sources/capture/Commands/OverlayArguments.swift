import ArgumentParser
import CaptureKit

/// `--overlay`, `--overlay-text` and `--overlay-position`, shared by `capture record`,
/// `capture stream` and `capture serve`: text burned into the encoded video before it is
/// encoded (``VideoOverlay``), so every file and viewer of that encode shows it.
struct OverlayArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Burn the time into the encoded video: the wall clock in this strftime format, e.g. '%Y-%m-%d %H:%M:%S', or capture-clock for the frame's time.",
                               valueName: "format"))
    var overlay: String?

    @Option(name: .customLong("overlay-text"), help: ArgumentHelp("Burn this text into the encoded video (before the time, with --overlay).", valueName: "text"))
    var overlayText: String?

    @Option(name: .customLong("overlay-position"), help: ArgumentHelp("Where the overlay goes: \(Self.positions.keys.sorted().joined(separator: ", ")) (default top-left).",
                                                                      valueName: "position"),
            transform: Self.position)
    var overlayPosition: VideoOverlay.Position?

    /// The positions by their names here.
    static let positions: [String: VideoOverlay.Position] = [
        "top-left": .topLeft, "top": .top, "top-right": .topRight, "bottom-left": .bottomLeft, "bottom": .bottom, "bottom-right": .bottomRight,
    ]

    static func position(_ text: String) throws(ValidationError) -> VideoOverlay.Position {
        guard let position = positions[text] else {
            throw ValidationError("--overlay-position '\(text)' is not a position: give one of \(positions.keys.sorted().joined(separator: ", "))")
        }
        return position
    }

    /// Throws a usage error for an empty format or text, or a position without an overlay.
    func checkUsage() throws {
        if overlay?.isEmpty == true { throw ValidationError("--overlay needs a strftime format, e.g. '%Y-%m-%d %H:%M:%S', or capture-clock") }
        if overlayText?.isEmpty == true { throw ValidationError("--overlay-text needs a text") }
        if overlay == nil, overlayText == nil, overlayPosition != nil {
            throw ValidationError("--overlay-position applies to an overlay: give --overlay or --overlay-text")
        }
    }

    /// The overlay asked for; nil without --overlay and --overlay-text.
    var videoOverlay: VideoOverlay? {
        guard overlay != nil || overlayText != nil else { return nil }
        let time = overlay.map { $0 == "capture-clock" ? VideoOverlay.Time.captureClock : .wallClock($0) }
        return VideoOverlay(time: time, text: overlayText, position: overlayPosition ?? .topLeft)
    }
}
