import CaptureKit
import Foundation

/// The recording's did-start and did-finish, as an async sequence the command waits on.
final class RecordingEvents: FileOutputRecordingDelegate {
    enum Event: Sendable {
        case started
        case finished(CaptureError?)
    }

    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    init() {
        (events, continuation) = AsyncStream<Event>.makeStream()
    }

    func fileOutput(_ output: MovieFileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {
        continuation.yield(.started)
    }

    func fileOutput(_ output: MovieFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection],
                    error: CaptureError?) {
        continuation.yield(.finished(error))
        continuation.finish()
    }
}
