// AVFoundation's names for types CaptureKit already has under its own, so that code written
// against AVFoundation compiles with `AV` dropped (the porting guide's type table).

extension CaptureSession {
    /// AVCaptureSession.Preset.
    public typealias Preset = SessionPreset
}

extension MetadataObject {
    /// AVMetadataObject.ObjectType.
    public typealias ObjectType = MetadataObjectType
}

/// AVMetadataMachineReadableCodeObject.
public typealias MetadataMachineReadableCodeObject = MachineReadableCodeObject
/// AVMetadataFaceObject.
public typealias MetadataFaceObject = FaceObject
/// AVLayerVideoGravity.
public typealias LayerVideoGravity = VideoGravity
/// AVAuthorizationStatus.
public typealias AuthorizationStatus = CaptureDevice.AuthorizationStatus
/// AVCaptureMultiCamSession: every ``CaptureSession`` runs any number of cameras, each feeding
/// the outputs connected to it; ``CaptureSession/isMultiCamSupported`` and
/// ``CaptureSession/hardwareCost`` are on every session.
public typealias MultiCamSession = CaptureSession
/// AVFrameRateRange.
public typealias FrameRateRange = CaptureDevice.FrameRateRange
