extension CaptureDevice {
    /// What kind of device a device is (AVCaptureDevice.DeviceType), with AVFoundation's raw values.
    ///
    /// On Linux:
    /// - ``builtInWideAngleCamera``: a camera built into the machine (a CSI camera through
    ///   libcamera, a laptop's webcam that USB reports as fixed, a platform V4L2 driver) and the
    ///   virtual cameras;
    /// - ``external``: a camera on a removable USB port, or one PipeWire serves;
    /// - ``microphone``: every microphone;
    /// - ``screen`` and ``file``: CaptureKit's own, for screens and files played as cameras, which
    ///   a discovery session for AVFoundation's types never lists.
    ///
    /// The other AVFoundation types (dual, triple, TrueDepth, LiDAR, continuity, desk view) name
    /// hardware Linux does not describe; no device has them.
    public struct DeviceType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let builtInWideAngleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        public static let external = DeviceType(rawValue: "AVCaptureDeviceTypeExternal")
        public static let microphone = DeviceType(rawValue: "AVCaptureDeviceTypeMicrophone")
        public static let builtInUltraWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInUltraWideCamera")
        public static let builtInTelephotoCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTelephotoCamera")
        public static let builtInDualCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualCamera")
        public static let builtInDualWideCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInDualWideCamera")
        public static let builtInTripleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTripleCamera")
        public static let builtInTrueDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInTrueDepthCamera")
        public static let builtInLiDARDepthCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInLiDARDepthCamera")
        public static let continuityCamera = DeviceType(rawValue: "AVCaptureDeviceTypeContinuityCamera")
        public static let deskViewCamera = DeviceType(rawValue: "AVCaptureDeviceTypeDeskViewCamera")
        /// CaptureKit's own: a screen grabbed as a camera.
        public static let screen = DeviceType(rawValue: "CaptureKitDeviceTypeScreen")
        /// CaptureKit's own: a video, image or image sequence played as a camera.
        public static let file = DeviceType(rawValue: "CaptureKitDeviceTypeFile")
    }

    /// The kind of device this is; see ``DeviceType``.
    public var deviceType: DeviceType { backend.deviceType }
}
