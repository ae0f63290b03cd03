extension CaptureSession {
    /// Whether this machine has cameras to run together: true where two or more cameras are
    /// present, which the virtual cameras always make so (AVCaptureMultiCamSession's
    /// `isMultiCamSupported`).
    ///
    /// Every ``CaptureSession`` is a multi-camera session: it takes any number of camera inputs,
    /// each feeding the outputs connected to it (see ``MultiCamSession``). Whether the cameras can
    /// run together at their formats is ``hardwareCost``.
    public static var isMultiCamSupported: Bool {
        CaptureDevice.devices().lazy.filter { $0.hasMediaType(.video) }.prefix(2).count == 2
    }

    /// How much of the busiest shared link the session's cameras take at their active formats
    /// and frame rates: 1 is all of it, and above 1 they cannot all run as configured
    /// (AVCaptureMultiCamSession's `hardwareCost`). Read it after configuring, and lower a
    /// camera's format or frame rate while it is above 1.
    ///
    /// It is an estimate from measured figures, per link the cameras share:
    /// - cameras on one USB bus: their bit rates (uncompressed formats at their size, MJPEG at
    ///   about 2 bits a pixel) against the 80 % of a 480 Mbit/s bus (90 % of a faster one) that
    ///   USB reserves for camera streams;
    /// - cameras drawn in software (the virtual cameras, screens, files): the processor time
    ///   `capture-bench multicam` measured per pixel, against all of the machine's processors;
    /// - any other camera (CSI, a platform driver, PipeWire) has a link of its own, and takes
    ///   its pixel rate's share of its fastest format's.
    public var hardwareCost: Float {
        Float(HardwareLoad.cost(of: cameraLoads))
    }

    /// The share of the machine's processors the session's cameras drawn in software take at
    /// their formats and rates, on the figures ``hardwareCost`` uses; above 1 the machine cannot
    /// keep up (AVCaptureMultiCamSession's `systemPressureCost`, which Linux has no thermal
    /// model for). Cameras that deliver frames themselves add nothing here.
    public var systemPressureCost: Float {
        Float(HardwareLoad.cost(of: cameraLoads.filter { $0.link == .processors }))
    }

    private var cameraLoads: [HardwareLoad] {
        videoDevices.filter { $0.hasMediaType(.video) }.map(\.hardwareLoad)
    }
}

extension CaptureDevice {
    /// The share of its link the device takes at its active format and frame rate.
    var hardwareLoad: HardwareLoad {
        backend.hardwareLoad(device: self, format: activeFormat, frameRate: activeFrameRate)
    }
}

extension CaptureDevice.Format {
    /// Every format can run beside other cameras (AVFoundation's `isMultiCamSupported`); whether
    /// a set of cameras can is `CaptureSession.hardwareCost`.
    public var isMultiCamSupported: Bool { mediaType == .video }
}

extension CaptureDevice.DiscoverySession {
    /// The pairs of the session's cameras that can run together at their active formats and
    /// frame rates (their ``CaptureSession/hardwareCost`` is at most 1), as AVFoundation's
    /// `supportedMultiCamDeviceSets` lists them.
    public var supportedMultiCamDeviceSets: [Set<CaptureDevice>] {
        let cameras = devices.filter { $0.hasMediaType(.video) }
        let loads = cameras.map(\.hardwareLoad)
        return cameras.indices.flatMap { first in
            cameras.indices[(first + 1)...].compactMap { second in
                HardwareLoad.cost(of: [loads[first], loads[second]]) <= 1 ? [cameras[first], cameras[second]] : nil
            }
        }
    }
}
