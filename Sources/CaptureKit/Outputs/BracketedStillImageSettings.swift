/// One image of a bracket (AVCaptureBracketedStillImageSettings). A bracket is all auto or all
/// manual settings.
public protocol BracketedStillImageSettings: Sendable {}

/// An image exposed by auto exposure, offset by `exposureTargetBias` EV
/// (AVCaptureAutoExposureBracketedStillImageSettings).
public struct AutoExposureBracketedStillImageSettings: BracketedStillImageSettings, Hashable {
    public var exposureTargetBias: Float

    public init(exposureTargetBias: Float) {
        self.exposureTargetBias = exposureTargetBias
    }

    /// AVFoundation's factory: the same as `init(exposureTargetBias:)`.
    public static func autoExposureSettings(exposureTargetBias: Float) -> Self { Self(exposureTargetBias: exposureTargetBias) }
}

/// An image exposed with a given duration and ISO (AVCaptureManualExposureBracketedStillImageSettings);
/// `CaptureDevice.currentExposureDuration` / `currentISO` keep the device's.
public struct ManualExposureBracketedStillImageSettings: BracketedStillImageSettings, Hashable {
    public var exposureDuration: CaptureTime
    public var iso: Float

    public init(exposureDuration: CaptureTime, iso: Float) {
        self.exposureDuration = exposureDuration
        self.iso = iso
    }

    /// AVFoundation's factory: the same as `init(exposureDuration:iso:)`.
    public static func manualExposureSettings(exposureDuration: CaptureTime, iso: Float) -> Self {
        Self(exposureDuration: exposureDuration, iso: iso)
    }
}
