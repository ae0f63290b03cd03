/// An X display's screen: `ximagesrc` grabbing the root window, recordable like a camera. It
/// has no camera controls (focus, exposure, white balance, zoom, torch are unsupported), and
/// nothing meters its frames.
struct ScreenBackend: DeviceBackend {
    /// The X display, as `$DISPLAY` names it (":99", "host:0.0").
    let display: String
    let mediaType = MediaType.video
    var deviceType: CaptureDevice.DeviceType { .screen }
    var route: String { "x11" }

    var isDrawnInSoftware: Bool { true }

    /// `ximagesrc` is pull-based: it grabs a frame each time the clock reaches the next one at
    /// the caps filter's frame rate. It hands over the screen's own pixel format (BGRx on a
    /// 24-bit display), which the format names, so `videoconvert` passes it through untouched;
    /// it converts only for a display whose layout CaptureKit has no name for. Damage tracking
    /// is off: it sends partial frames that the encoder would see as still ones.
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        [.init("ximagesrc", .src, in: prefix, [.init("display-name", .string(display)), .init("use-damage", false), .init("show-pointer", true)]),
         .init("videoconvert", .convert, in: prefix)]
            + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }
}
