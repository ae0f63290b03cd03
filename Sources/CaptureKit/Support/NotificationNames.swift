import Foundation

// AVFoundation's notification names and user-info keys, with `AV` dropped, so that
// `NotificationCenter.default.addObserver(forName: .CaptureSessionRuntimeError, …)` and
// `userInfo[CaptureSessionErrorKey]` port unchanged. Each is the same value as the
// `CaptureSession`/`CaptureDevice` static of the same meaning.
extension Notification.Name {
    /// ``CaptureSession/runtimeErrorNotification``.
    public static let CaptureSessionRuntimeError = CaptureSession.runtimeErrorNotification
    /// ``CaptureSession/didStartRunningNotification``.
    public static let CaptureSessionDidStartRunning = CaptureSession.didStartRunningNotification
    /// ``CaptureSession/didStopRunningNotification``.
    public static let CaptureSessionDidStopRunning = CaptureSession.didStopRunningNotification
    /// ``CaptureSession/wasInterruptedNotification``.
    public static let CaptureSessionWasInterrupted = CaptureSession.wasInterruptedNotification
    /// ``CaptureSession/interruptionEndedNotification``.
    public static let CaptureSessionInterruptionEnded = CaptureSession.interruptionEndedNotification
    /// ``CaptureDevice/wasConnectedNotification``.
    public static let CaptureDeviceWasConnected = CaptureDevice.wasConnectedNotification
    /// ``CaptureDevice/wasDisconnectedNotification``.
    public static let CaptureDeviceWasDisconnected = CaptureDevice.wasDisconnectedNotification
    /// ``CaptureDevice/subjectAreaDidChangeNotification``.
    public static let CaptureDeviceSubjectAreaDidChange = CaptureDevice.subjectAreaDidChangeNotification
    /// CaptureKit's own: an AVFoundation-shaped assignment or call was refused where AVFoundation
    /// would raise an exception (a device not locked, an unsupported mode, a value out of range,
    /// an input a session cannot add). The value is left unchanged. Posted synchronously on the
    /// thread that made the change, with the device, output or session as object and the
    /// ``CaptureError`` under ``CaptureSessionErrorKey``; the same error is logged.
    public static let CaptureConfigurationError = Notification.Name("CaptureConfigurationError")
}

/// The `userInfo` key of the ``CaptureError`` in a runtime-error or configuration-error
/// notification (AVCaptureSessionErrorKey).
public let CaptureSessionErrorKey = CaptureSession.errorKey
/// The `userInfo` key of the ``InterruptionReason``'s raw value (an `Int`) in a was-interrupted
/// notification (AVCaptureSessionInterruptionReasonKey).
public let CaptureSessionInterruptionReasonKey = CaptureSession.interruptionReasonKey
/// The key of ``CaptureError/recordingSuccessfullyFinished`` in a recording error's
/// `userInfo` (AVErrorRecordingSuccessfullyFinishedKey).
public let ErrorRecordingSuccessfullyFinishedKey = "AVErrorRecordingSuccessfullyFinishedKey"
