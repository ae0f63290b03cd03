/// Why a session was interrupted (AVCaptureSession.InterruptionReason), with AVFoundation's
/// integer raw values, so `InterruptionReason(rawValue: number.intValue)` reads a reason back.
///
/// On Linux a session is interrupted when an input's device goes away or another process holds
/// it. The reasons AVFoundation has for an app in the background, several foreground apps or
/// system pressure exist for code that switches over them; CaptureKit never posts them.
public enum InterruptionReason: Int, Sendable, Hashable, CaseIterable {
    /// AVFoundation: the app went to the background. Never posted on Linux.
    case videoDeviceNotAvailableInBackground = 1
    /// Another process holds the microphone.
    case audioDeviceInUseByAnotherClient = 2
    /// Another process holds the input's device.
    case videoDeviceInUseByAnotherClient = 3
    /// AVFoundation: several apps in the foreground. Never posted on Linux.
    case videoDeviceNotAvailableWithMultipleForegroundApps = 4
    /// AVFoundation: the system's pressure level shut the camera down. Never posted on Linux.
    case videoDeviceNotAvailableDueToSystemPressure = 5
    /// The input's device went away (unplugged) or stopped answering. CaptureKit's own reason
    /// (AVFoundation posts a disconnection instead), outside AVFoundation's range.
    case videoDeviceNotAvailable = 101
    /// The microphone went away. CaptureKit's own reason, outside AVFoundation's range.
    case audioDeviceNotAvailable = 102
}

extension InterruptionReason {
    /// Whether another process holds the device (rather than the device being gone).
    var isBusy: Bool { self == .videoDeviceInUseByAnotherClient || self == .audioDeviceInUseByAnotherClient }
}

extension CaptureSession {
    /// AVFoundation's name: `CaptureSession.InterruptionReason`.
    public typealias InterruptionReason = CaptureKit.InterruptionReason
}
