/// Why a session was interrupted (AVCaptureSession.InterruptionReason).
public enum InterruptionReason: String, Sendable, Hashable {
    /// The input's device went away (unplugged) or stopped answering.
    case videoDeviceNotAvailable
    /// Another process holds the input's device.
    case videoDeviceInUseByAnotherClient
    /// The microphone went away.
    case audioDeviceNotAvailable
    /// Another process holds the microphone.
    case audioDeviceInUseByAnotherClient
}

extension InterruptionReason {
    /// Whether another process holds the device (rather than the device being gone).
    var isBusy: Bool { self == .videoDeviceInUseByAnotherClient || self == .audioDeviceInUseByAnotherClient }
}
