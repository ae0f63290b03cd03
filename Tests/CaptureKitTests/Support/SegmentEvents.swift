import CaptureKit
import Foundation
import Synchronization

/// A segmented output's delegate that keeps what it heard, in order.
final class SegmentEvents: SegmentedMovieFileOutputDelegate {
    enum Event: Equatable {
        case started(MovieSegment)
        case finished(MovieSegment, MovieSegment.EndReason, CaptureError?)
        case recordingFinished(CaptureError?)
        case eventStarted(RecordingEvent)
        case eventFinished(RecordingEvent)
    }

    private let heard = Mutex<[Event]>([])

    var all: [Event] { heard.withLock { $0 } }

    /// The segments finished so far, in order, with their reasons.
    var finished: [(MovieSegment, MovieSegment.EndReason)] {
        all.compactMap { if case .finished(let segment, let reason, _) = $0 { (segment, reason) } else { nil } }
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didStart segment: MovieSegment) {
        heard.withLock { $0.append(.started(segment)) }
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinish segment: MovieSegment, reason: MovieSegment.EndReason, error: CaptureError?) {
        heard.withLock { $0.append(.finished(segment, reason, error)) }
    }

    /// The events finished so far, in order.
    var events: [RecordingEvent] {
        all.compactMap { if case .eventFinished(let event) = $0 { event } else { nil } }
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didStartEvent event: RecordingEvent) {
        heard.withLock { $0.append(.eventStarted(event)) }
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishEvent event: RecordingEvent) {
        heard.withLock { $0.append(.eventFinished(event)) }
    }

    func segmentedOutput(_ output: SegmentedMovieFileOutput, didFinishRecording error: CaptureError?) {
        heard.withLock { $0.append(.recordingFinished(error)) }
    }

    /// Waits for did-finish-recording: its error, or nil (the outer optional) when it did not
    /// come within `seconds`.
    func recordingFinished(within seconds: Double) async throws -> CaptureError?? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let error = all.lazy.compactMap({ if case .recordingFinished(let error) = $0 { .some(error) } else { nil } }).first { return error }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
