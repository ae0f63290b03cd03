import CaptureKit
import Foundation

/// A segmented recording's events, as an async sequence the command waits on: each closed
/// segment, then the recording's end.
final class SegmentEvents: SegmentedMovieFileOutputDelegate {
    enum Event: Sendable {
        case finished(MovieSegment, MovieSegment.EndReason, CaptureError?)
        case recordingFinished(CaptureError?)
    }

    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    private let log: @Sendable (String) -> Void

    /// `log` gets a line for each segment deleted.
    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        (events, continuation) = AsyncStream<Event>.makeStream()
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didDelete segment: URL, reason: String) {
        log("deleted \(segment.path) (\(reason))")
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinish segment: MovieSegment, reason: MovieSegment.EndReason, error: CaptureError?) {
        continuation.yield(.finished(segment, reason, error))
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) {
        continuation.yield(.recordingFinished(error))
        continuation.finish()
    }
}
