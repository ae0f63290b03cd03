/// The benchmarks' `videotestsrc`: live or as fast as the pipeline takes frames, optionally
/// bounded. SPI (`CaptureDevice.testPattern`), not a device anyone lists.
struct TestPatternBackend: DeviceBackend {
    let pattern: String
    let isLive: Bool
    let frameCount: Int?
    let mediaType = MediaType.video
    var deviceType: CaptureDevice.DeviceType { .external }
    var route: String { "test-pattern" }
    var endsStream: Bool { frameCount != nil }

    /// Digital zoom where its format allows zooming; the auto exposure a camera without
    /// controls has; its frames are not metered.
    let capabilities: DeviceCapabilities

    var isDrawnInSoftware: Bool { true }

    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        var properties: [PipelinePlan.Property] = [.init("is-live", .bool(isLive )), .init("pattern", .nick(pattern))]
        if let frameCount { properties.append(.init("num-buffers", .int(frameCount))) }
        return [.init("videotestsrc", .src, in: prefix, properties)] + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }
}
