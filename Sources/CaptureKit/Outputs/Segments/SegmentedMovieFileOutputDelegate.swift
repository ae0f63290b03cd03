import Foundation

/// Told when each segment of a ``SegmentedMovieFileOutput``'s recording starts and finishes.
///
/// Threading: the methods run on the queue given to
/// ``SegmentedMovieFileOutput/startRecording(to:delegate:queue:)`` (the output's own serial
/// queue when none was given), one at a time and in order, never on a GStreamer thread: a
/// segment's did-start comes before its did-finish, which comes before the next one's
/// did-start.
public protocol SegmentedMovieFileOutputDelegate: AnyObject {
    /// The segment's file was opened and its first fragment is being written.
    func segmentedOutput(_ output: SegmentedMovieFileOutput, didStart segment: MovieSegment)
    /// The segment's file is closed and final, with why: a boundary (the next one starts with
    /// the next frame), the recording's stop, or a failure (`error` says which).
    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinish segment: MovieSegment, reason: MovieSegment.EndReason, error: CaptureError?)
    /// The recording ended: no more segments. `error` is nil after
    /// ``SegmentedMovieFileOutput/stopRecording()``.
    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?)
    /// A closed segment in the folder was deleted: by the ``SegmentedMovieFileOutput/retention``
    /// (`reason` "retention") or to make room on a full disk ("the disk was full").
    func segmentedOutput(_ output: SegmentedMovieFileOutput, didDelete segment: URL, reason: String)
    /// An event began (``SegmentedMovieFileOutput/triggerEvent(_:bounds:)``): its clip, when clips are
    /// written, is open and holds the pre-roll.
    func segmentedOutput(_ output: SegmentedMovieFileOutput, didStartEvent event: RecordingEvent)
    /// An event ended, its post-roll after its last trigger past (or the recording ended): its
    /// clip is closed and final.
    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishEvent event: RecordingEvent)
}

extension SegmentedMovieFileOutputDelegate {
    public func segmentedOutput(_ output: SegmentedMovieFileOutput, didStartEvent event: RecordingEvent) {}
    public func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishEvent event: RecordingEvent) {}
    public func segmentedOutput(_ output: SegmentedMovieFileOutput, didDelete segment: URL, reason: String) {}
    public func segmentedOutput(_ output: SegmentedMovieFileOutput, didStart segment: MovieSegment) {}
    public func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinish segment: MovieSegment, reason: MovieSegment.EndReason, error: CaptureError?) {}
}
