import GStreamerSwift

/// The virtual cameras: a live `videotestsrc` whose frames `VirtualCameraSensor` paints.
struct VirtualCameraBackend: DeviceBackend {
    let mediaType = MediaType.video
    var route: String { "virtual" }
    var isBuiltIn: Bool { true }
    var simulatesSensor: Bool { true }

    /// The sensor paints every pixel, so the test pattern is never seen; `blink` (solid black
    /// and white in turn) is the cheapest one `videotestsrc` draws straight into each frame. A
    /// still pattern such as `black` is drawn once into a cached buffer and copied into every
    /// frame: a second frame-sized allocation and copy, whose page faults made the first frame
    /// of a session 0.5–1.5 ms slower.
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        [.init("videotestsrc", name: "\(prefix)_src", [.init("is-live", "true"), .init("pattern", "blink")])]
            + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }

    /// The sensor paints at the caps filter; injected faults fail the source element.
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> VirtualCameraSensor? {
        let source = try bin.element(named: "\(prefix)_src")
        device.installFaults(on: try source.staticPad("src"), element: source)
        return VirtualCameraSensor(device: device, width: format.width, height: format.height)
    }
}
