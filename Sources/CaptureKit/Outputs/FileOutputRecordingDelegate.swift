import Foundation

/// Told when a `MovieFileOutput`'s recording starts and finishes
/// (AVCaptureFileOutputRecordingDelegate).
///
/// Threading: both methods run on the queue given to
/// `MovieFileOutput.startRecording(to:recordingDelegate:queue:)` (the output's own serial queue
/// when none was given), one at a time and in order: did-start (when the first frame is in the
/// file) before did-finish, never on a GStreamer thread.
public protocol FileOutputRecordingDelegate: AnyObject {
    /// The recording's first frame went into the file.
    func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection])
    /// The recording ended and the file is closed. `error` is nil after `stopRecording()`;
    /// otherwise it tells why it ended (``CaptureError/Code/maximumDurationReached``,
    /// ``CaptureError/Code/maximumFileSizeReached``, ``CaptureError/Code/diskFull``,
    /// ``CaptureError/Code/sessionStopped``, ``CaptureError/Code/recordingFailed``, …) and its
    /// ``CaptureError/recordingSuccessfullyFinished`` whether the file is nevertheless complete.
    /// It is always a ``CaptureError`` (`error as? CaptureError`).
    func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection],
                    error: Error?)
    /// The recording paused (`pauseRecording()`): nothing more goes into the file until it resumes.
    func fileOutput(_ output: FileOutput, didPauseRecordingTo fileURL: URL, from connections: [CaptureConnection])
    /// The paused recording resumed: its first key frame after the pause is in the file, right
    /// after the last frame before it.
    func fileOutput(_ output: FileOutput, didResumeRecordingTo fileURL: URL, from connections: [CaptureConnection])
}

extension FileOutputRecordingDelegate {
    public func fileOutput(_ output: FileOutput, didPauseRecordingTo fileURL: URL, from connections: [CaptureConnection]) {}
    public func fileOutput(_ output: FileOutput, didResumeRecordingTo fileURL: URL, from connections: [CaptureConnection]) {}
    public func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {}
}
