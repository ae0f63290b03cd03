import CaptureKit
import Foundation
import Synchronization
import Testing

/// A recording delegate that keeps what it heard, in order, with the thread it heard it on.
final class RecordingEvents: FileOutputRecordingDelegate {
    enum Event: Equatable {
        case started(URL)
        case finished(URL, CaptureError?)
    }

    private let events = Mutex<[Event]>([])
    private let finishedSignal = DispatchSemaphore(value: 0)

    var all: [Event] { events.withLock { $0 } }

    func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {
        events.withLock { $0.append(.started(fileURL)) }
    }

    func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection], error: Error?) {
        events.withLock { $0.append(.finished(outputFileURL, error.map { $0 as? CaptureError ?? CaptureError(code: .recordingFailed, message: "not a CaptureError: \($0)") })) }
        finishedSignal.signal()
    }

    /// Waits for did-finish and returns its error; fails the test when it did not come or came
    /// without one.
    func finishError(within seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) async throws -> CaptureError {
        let finished = try #require(await finished(within: seconds), "no did-finish in \(seconds) s", sourceLocation: sourceLocation)
        return try #require(finished, "did-finish without an error", sourceLocation: sourceLocation)
    }

    /// Waits for did-start; false when it did not come in `seconds`.
    func started(within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if all.contains(where: { if case .started = $0 { true } else { false } }) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits (off the cooperative pool) for did-finish; nil when it did not come in `seconds`.
    func finished(within seconds: Double) async -> CaptureError?? {
        let signal = finishedSignal
        let came = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: signal.wait(timeout: .now() + seconds) == .success) }
        }
        guard came else { return nil }
        return events.withLock { events in
            guard case .finished(_, let error) = events.last else { return nil }
            return .some(error)
        }
    }
}
