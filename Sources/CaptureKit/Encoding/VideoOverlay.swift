/// Text burned into an encoded rendition's picture: the capture time (the wall clock in a
/// strftime format, or the frame's place on the capture clock) and a fixed text, where and how
/// large. Part of ``VideoCodecSettings``: it is drawn before the encode, so every consumer of
/// that rendition (a recording, a stream, compressed data) sees it, and never in the raw frames
/// of other outputs (a video data output, stills, metadata).
///
/// ```swift
/// var settings = VideoCodecSettings()
/// settings.overlay = VideoOverlay(time: .wallClock("%Y-%m-%d %H:%M:%S"), text: "Porch", position: .bottomLeft)
/// try movie.setOutputSettings(settings, for: connection)
/// ```
public struct VideoOverlay: Sendable, Hashable {
    /// Which time is drawn.
    public enum Time: Sendable, Hashable {
        /// The wall clock (local time) when the frame is encoded, in a strftime format
        /// (`%Y-%m-%d %H:%M:%S`).
        case wallClock(String)
        /// The frame's time on the capture clock, from the start of the session
        /// (`H:MM:SS.mmm`).
        case captureClock
    }

    /// Where the text goes: a corner, or the middle of the top or bottom edge.
    public enum Position: String, Sendable, Hashable, CaseIterable {
        case topLeft, top, topRight, bottomLeft, bottom, bottomRight

        var horizontal: String {
            switch self {
            case .topLeft, .bottomLeft: "left"
            case .top, .bottom: "center"
            case .topRight, .bottomRight: "right"
            }
        }

        var vertical: String {
            switch self {
            case .topLeft, .top, .topRight: "top"
            case .bottomLeft, .bottom, .bottomRight: "bottom"
            }
        }
    }

    /// The time drawn, if any.
    public var time: Time?
    /// A fixed text drawn before the time, if any.
    public var text: String?
    public var position: Position
    /// The text's height as a fraction of the picture's (0.02…0.5): the same share of the
    /// picture whatever its size.
    public var size: Double

    /// The sizes ``size`` takes.
    public static let sizes = 0.02...0.5

    public init(time: Time? = .wallClock("%Y-%m-%d %H:%M:%S"), text: String? = nil, position: Position = .topLeft, size: Double = 0.05) {
        self.time = time
        self.text = text
        self.position = position
        self.size = size
    }

    /// Throws unless the overlay draws something, in a size it takes.
    func validate() throws(CaptureError) {
        if time == nil, text?.isEmpty ?? true {
            throw .invalidSetting(name: "overlay", value: "no time and no text", valid: "a time (wall clock or capture clock), a text, or both")
        }
        if case .wallClock(let format) = time, format.isEmpty || format.utf8.count > 200 {
            throw .invalidSetting(name: "overlay time format", value: "'\(format.prefix(80))'", valid: "a strftime format of 1…200 bytes, e.g. %Y-%m-%d %H:%M:%S")
        }
        if let text, text.utf8.count > 500 {
            throw .invalidSetting(name: "overlay text", value: "\(text.utf8.count) bytes", valid: "at most 500 bytes")
        }
        guard Self.sizes.contains(size) else {
            throw .invalidSetting(name: "overlay size", value: "\(size)", valid: "\(Self.sizes.lowerBound)…\(Self.sizes.upperBound) of the picture's height")
        }
    }

    /// The overlay element `prefix_overlay` for a picture `height` pixels high: `clockoverlay`
    /// (wall clock), `timeoverlay` (capture clock, the buffer's time) or `textoverlay`, its
    /// text shaded; the fixed text escaped for Pango's markup, so it is drawn as it is.
    func element(prefix: String, height: Int) -> PipelinePlan.Element {
        // Pango sizes fonts in points at 96 dpi: a line is about 1.6 times the point size in pixels.
        let points = max(4, Int((Double(height) * size / 1.6).rounded()))
        var properties: [PipelinePlan.Property] = [
            .init("halignment", .nick(position.horizontal)), .init("valignment", .nick(position.vertical)),
            .init("font-desc", .string("Sans \(points)")), .init("shaded-background", true),
        ]
        let factory: String
        switch time {
        case .wallClock(let format):
            factory = "clockoverlay"
            properties.append(.init("time-format", .string(format)))
        case .captureClock:
            factory = "timeoverlay"
            properties.append(.init("time-mode", .nick("buffer-time")))
        case nil:
            factory = "textoverlay"
        }
        if let text, !text.isEmpty {
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            properties.append(.init("text", .string(escaped)))
        }
        return PipelinePlan.Element(factory, .overlay, in: prefix, properties)
    }
}
