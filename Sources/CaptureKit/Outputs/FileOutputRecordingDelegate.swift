import Foundation

/// Told when a `MovieFileOutput`'s recording starts and finishes
/// (AVCaptureFileOutputRecordingDelegate).
///
/// Threading: both methods run on the queue given to
/// `MovieFileOutput.startRecording(to:recordingDelegate:queue:)` (the output's own serial queue
/// when none was given), one at a time and in order: did-start (when the first frame is in the
/// file) before did-finish, never on a GStreamer thread.
public protocol FileOutputRecordingDelegate: AnyObject, Sendable {
    /// The recording's first frame went into the file.
    func fileOutput(_ output: MovieFileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection])
    /// The recording ended and the file is closed. `error` is nil after `stopRecording()`;
    /// otherwise it tells why it ended (``CaptureError/Code/maximumDurationReached``,
    /// ``CaptureError/Code/maximumFileSizeReached``, ``CaptureError/Code/diskFull``,
    /// ``CaptureError/Code/sessionStopped``, ``CaptureError/Code/recordingFailed``, …) and its
    /// ``CaptureError/recordingSuccessfullyFinished`` whether the file is nevertheless complete.
    func fileOutput(_ output: MovieFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection],
                    error: CaptureError?)
}

extension FileOutputRecordingDelegate {
    public func fileOutput(_ output: MovieFileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {}
}
