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

    func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {
        continuation.yield(.started)
    }

    func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection],
                    error: Error?) {
        continuation.yield(.finished(error as? CaptureError))
        continuation.finish()
    }
}
