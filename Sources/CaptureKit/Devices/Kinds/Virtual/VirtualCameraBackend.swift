import GStreamerSwift
import Synchronization

/// The virtual cameras: a live `videotestsrc` whose frames `VirtualCameraSensor` paints.
struct VirtualCameraBackend: DeviceBackend {
    let mediaType = MediaType.video
    var deviceType: CaptureDevice.DeviceType { .builtInWideAngleCamera }
    var route: String { "virtual" }
    /// Which way it faces: only the back camera has a torch and a flash.
    let position: CaptureDevice.Position
    /// The codes this camera's scene shows; nil: `VirtualScene.Code.defaults`.
    let sceneCodes = SceneCodes()
    /// Its movers and its square's motion (``VirtualMover``).
    let sceneMotion = VirtualSceneMotion()

    /// The codes, shared by the copies of the backend (one per device).
    final class SceneCodes: Sendable {
        let value = Mutex<[VirtualScene.Code]?>(nil)
    }
    var isBuiltIn: Bool { true }
    var isProcessLocal: Bool { true }
    var exifModel: String? { VirtualCamera.model }

    /// The sensor does every control itself, painting each change into the next frame, within
    /// the active format's limits and the longest frame duration; CaptureKit's loops meter its
    /// frames for the automatic modes (exposure, gray-world white balance, contrast-detect focus).
    var capabilities: DeviceCapabilities {
        var provisions = Dictionary(uniqueKeysWithValues: DeviceCapability.allCases.map { ($0, DeviceCapabilities.Provision.device) })
        provisions[.exposureContinuous] = .software(.exposureLoop)
        provisions[.exposureTargetBias] = .software(.exposureLoop)
        provisions[.exposureTargetOffset] = .software(.exposureMetering)
        provisions[.whiteBalanceContinuous] = .software(.grayWorld)
        provisions[.grayWorldGains] = .software(.grayWorld)
        provisions[.focusContinuous] = .software(.contrastDetectAutoFocus)
        provisions[.focusAutoOnce] = .software(.contrastDetectAutoFocus)
        provisions[.subjectAreaChangeMonitoring] = .software(.subjectAreaChangeDetector)
        if position != .back {
            provisions[.torch] = .unsupported
            provisions[.flash] = .unsupported
        }
        return DeviceCapabilities(provisions: provisions, lensAperture: VirtualCamera.aperture, timing: .painted,
                                  exposureLimitedByFrameDuration: true)
    }

    var isDrawnInSoftware: Bool { true }

    /// The sensor paints every pixel, so the test pattern is never seen; `blink` (solid black
    /// and white in turn) is the cheapest one `videotestsrc` draws straight into each frame. A
    /// still pattern such as `black` is drawn once into a cached buffer and copied into every
    /// frame: a second frame-sized allocation and copy, whose page faults made the first frame
    /// of a session 0.5–1.5 ms slower.
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        [.init("videotestsrc", .src, in: prefix, [.init("is-live", true), .init("pattern", .nick("blink"))])]
            + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }

    /// The sensor paints at the caps filter; injected faults fail the source element.
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> (any FramePainter)? {
        let source = try bin.element(.src, in: prefix)
        device.installFaults(on: try source.staticPad("src"), element: source)
        return VirtualCameraSensor(device: device, width: format.width, height: format.height)
    }
}
