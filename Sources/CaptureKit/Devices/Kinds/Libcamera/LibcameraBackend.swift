import GStreamerSwift

/// A camera read through `libcamerasrc`. libcamera may adjust a size to its pipeline's alignment
/// (vimc gives 636x480 for 640x480), so the element is offered the format's size first and a
/// few pixels either way second; the scaler brings an adjusted size back to the format and
/// passes an exact one through. The rate is asked of the camera, so changing it rebuilds the
/// source (libcamera 0.0.3's element cannot renegotiate). A leaky queue of two frames takes the
/// frames off libcamera's thread: that thread only hands each on, so it keeps up with the camera
/// and keeps its requests queued, and frames the rest of the session cannot take in time are
/// dropped there, as a camera drops them.
struct LibcameraBackend: DeviceBackend {
    /// libcamera's camera id (`camera-name`).
    let cameraID: String
    /// The controls the element and the camera both have.
    let controls: LibcameraControls
    let mediaType = MediaType.video
    var deviceType: CaptureDevice.DeviceType { .builtInWideAngleCamera }
    var route: String { "libcamera" }

    /// The camera's automatic exposure, white balance and focus, as the ISP runs them, with the
    /// manual controls libcamera 0.4's element carries where the camera has them; digital zoom
    /// in the pipeline. Worked out once.
    let capabilities: DeviceCapabilities

    init(cameraID: String, controls: LibcameraControls = LibcameraControls(properties: [], facts: nil)) {
        self.cameraID = cameraID
        self.controls = controls
        capabilities = controls.capabilities
    }

    var controller: (any DeviceController)? { controls.facts == nil ? nil : LibcameraController(controls: controls) }

    /// How far libcamera's adjustment of a size is accepted, in pixels.
    static let sizeTolerance = 16

    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        // Controls set before the start go with the first request.
        let set = device.readState { $0.sourceControls }.sorted { $0.key < $1.key }.map { PipelinePlan.Property($0.key, .serialized($0.value), live: true) }
        return [.init("libcamerasrc", .src, in: prefix, [.init("camera-name", .string(cameraID))] + set),
         .init("capsfilter", .lccaps, in: prefix, [.init("caps", .caps(Self.cameraCaps(format, frameRate: device.pacedFrameRate)))]),
         .init("queue", .lcqueue, in: prefix, [.init("leaky", .nick("downstream")), .init("max-size-buffers", 2),
                                                    .init("max-size-bytes", 0), .init("max-size-time", 0)]),
         .init("videoconvert", .lcconvert, in: prefix),
         .init("videoscale", .lcscale, in: prefix)]
            + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }

    /// libcamera's element before 0.6 (Debian 12 has 0.0.3, Debian 13 0.4) has two faults that
    /// buffers held downstream expose: a request that completes before the element has recorded
    /// it crashes the element, which happens once its last queued request is the only one in
    /// flight (libcamera issues 238 and 306, fixed in 0.6; the queue after the source keeps its
    /// thread ahead), and a buffer released after the element closes crashes in the freed camera
    /// manager (a `SampleBuffer` kept past `stopRunning()`; libcamera bug 211, fixed in 0.3).
    /// Frames from those versions are therefore copied out at the source, which returns every
    /// buffer to libcamera at once.
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> (any FramePainter)? {
        let source = try bin.element(.src, in: prefix)
        let version = source.pluginVersion
        if Self.holdsBuffersUnsafely(version: version) {
            try source.staticPad("src").addCopyProbe()
            CaptureLog.logger.debug("libcamera \(version ?? "of unknown version"): frames are copied out of its buffers")
        }
        return nil
    }

    /// Whether the element of this libcamera version must not have its buffers held (before 0.6).
    static func holdsBuffersUnsafely(version: String?) -> Bool {
        guard let version else { return true }
        let parts = version.split(separator: ".").prefix(2).map { Int($0.prefix { $0.isNumber }) ?? 0 }
        let (major, minor) = (parts.first ?? 0, parts.count > 1 ? parts[1] : 0)
        return major == 0 && minor < 6
    }

    /// The format's exact size, then the tolerated range: libcamerasrc configures the first
    /// fixed size it is offered, and accepts what the camera made of it within the second.
    static func cameraCaps(_ format: CaptureDevice.Format, frameRate: Double) -> String {
        let exact = format.caps(frameRate: frameRate)
        let rate = Fraction.text(frameRate), pixel = format.pixelFormat.gstFormat ?? ""
        let (w, h, t) = (format.width, format.height, sizeTolerance)
        return exact + ";video/x-raw,format=\(pixel),width=[\(max(w - t, 1)),\(w + t)],height=[\(max(h - t, 1)),\(h + t)],framerate=\(rate)"
    }
}
