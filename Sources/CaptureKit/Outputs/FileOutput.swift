import Foundation

/// An output that records to a file (AVCaptureFileOutput): ``MovieFileOutput``.
///
/// Recording delegates receive the output as a `FileOutput`, as AVFoundation's do; compare it
/// with `===`, or cast it to `MovieFileOutput`.
public protocol FileOutput: CaptureOutput {
    /// The file being recorded to; nil when not recording.
    var outputFileURL: URL? { get }
    /// Whether a recording is under way (paused ones included).
    var isRecording: Bool { get }
    /// How much has been recorded so far.
    var recordedDuration: CaptureTime { get }
    /// How many bytes the file holds so far.
    var recordedFileSize: Int64 { get }
    /// The longest recording; `.invalid` for no limit.
    var maxRecordedDuration: CaptureTime { get set }
    /// The largest file in bytes; 0 for no limit.
    var maxRecordedFileSize: Int64 { get set }
    /// The free disk space below which recording stops, in bytes.
    var minFreeDiskSpaceLimit: Int64 { get set }
    /// Starts recording to `outputFileURL`; the delegate hears did-start and did-finish on the
    /// output's own queue.
    func startRecording(to outputFileURL: URL, recordingDelegate delegate: any FileOutputRecordingDelegate)
    /// Stops the recording; the delegate hears did-finish once the file is complete.
    func stopRecording()
    /// Whether the recording is paused.
    var isRecordingPaused: Bool { get }
    /// Pauses the recording: nothing goes into the file until `resumeRecording()`, and the file
    /// has no gap for the pause.
    func pauseRecording()
    /// Resumes a paused recording from the next key frame.
    func resumeRecording()
}
