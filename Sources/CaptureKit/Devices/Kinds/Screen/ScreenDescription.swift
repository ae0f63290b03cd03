import Foundation
import GStreamerSwift

/// An X display's screen as `ximagesrc` sees it: its size and pixel layout, read without a
/// window manager or any X call of CaptureKit's own, by starting a lone `ximagesrc` (which
/// opens the display) and asking its source pad for caps.
struct ScreenDescription: Equatable {
    /// The X display, as `$DISPLAY` names it.
    var display: String
    var width: Int
    var height: Int
    /// The screen's own layout, or BGRA (converted in the pipeline) where CaptureKit has no name for it.
    var pixelFormat: PixelFormat

    /// What uniqueIDs of screens start with: `screen:` then the display, e.g. `screen::99`.
    static let uniqueIDPrefix = "screen:"
    /// The frame rates offered: the screen is grabbed at whatever rate the caps ask.
    static let frameRates = CaptureDevice.FrameRateRange(minFrameRate: 1, maxFrameRate: 60)

    var uniqueID: String { Self.uniqueIDPrefix + display }
    var name: String { "Screen \(display)" }

    /// The format the screen is grabbed in: its size and layout at 1–60 fps.
    var format: CaptureDevice.Format {
        CaptureDevice.Format(pixelFormat: pixelFormat, width: width, height: height, videoSupportedFrameRateRanges: [Self.frameRates])
    }

    /// The display `$DISPLAY` names; nil where it is unset or empty.
    static var currentDisplay: String? {
        guard let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty else { return nil }
        return display
    }

    /// The screen of `display`, or nil when the display does not answer (or `ximagesrc` is not
    /// installed). Opening a local display that is not there fails at once.
    static func probe(display: String) -> ScreenDescription? {
        // An X server that has just started (or is busy) can refuse the first connection: a
        // display is not taken as absent before three tries, 50 ms apart.
        for attempt in 0..<3 {
            if let description = probeOnce(display: display) { return description }
            if attempt < 2 { usleep(50_000) }
        }
        return nil
    }

    private static func probeOnce(display: String) -> ScreenDescription? {
        guard let source = try? Element(factory: "ximagesrc", name: "screen_probe") else { return nil }
        guard (try? source.set("display-name", .string(display))) != nil else { return nil }
        defer { source.setState(.null) }
        // A live source answers no-preroll; starting it opened the display.
        guard source.setState(.paused) != .failure, let caps = try? source.staticPad("src").queryCaps().first,
              case .int(let width)? = caps.fields["width"], case .int(let height)? = caps.fields["height"] else { return nil }
        var layout: PixelFormat?
        if case .string(let format)? = caps.fields["format"] { layout = PixelFormat(gstFormat: format) }
        return ScreenDescription(display: display, width: width, height: height, pixelFormat: layout ?? .bgra)
    }

    /// The device: position unspecified, its one format active.
    func makeDevice() -> CaptureDevice {
        CaptureDevice(uniqueID: uniqueID, modelID: "x11:screen", localizedName: name, manufacturer: "X11",
                      position: .unspecified, formats: [format], activeFormat: format, backend: ScreenBackend(display: display))
    }
}
