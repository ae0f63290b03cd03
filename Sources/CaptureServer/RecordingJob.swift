import CaptureKit
import Foundation
import Synchronization

/// One recording of the server's: its file, and its delegate, which keeps what the movie
/// output reports (on the output's own queue: did-start, then did-finish) for whoever waits.
final class RecordingJob: FileOutputRecordingDelegate, Sendable {
    enum Phase {
        case starting
        case recording
        case finished(CaptureError?)
    }

    let url: URL
    let started = Date()
    private let phase = Mutex(Phase.starting)
    private let waiters = Mutex<[CheckedContinuation<CaptureError?, Never>]>([])
    private let startWaiters = Mutex<[CheckedContinuation<CaptureError?, Never>]>([])

    init(url: URL) {
        self.url = url
    }

    var name: String { url.lastPathComponent }

    var isFinished: Bool {
        if case .finished = phase.withLock({ $0 }) { return true }
        return false
    }

    func fileOutput(_ output: FileOutput, didStartRecordingTo fileURL: URL, from connections: [CaptureConnection]) {
        phase.withLock { $0 = .recording }
        for waiter in startWaiters.withLock({ waiters in defer { waiters = [] }; return waiters }) { waiter.resume(returning: nil) }
    }

    func fileOutput(_ output: FileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [CaptureConnection],
                    error: Error?) {
        // CaptureKit's recordings end with CaptureErrors only.
        let error = error as? CaptureError
        phase.withLock { $0 = .finished(error) }
        for waiter in startWaiters.withLock({ waiters in defer { waiters = [] }; return waiters }) { waiter.resume(returning: error ?? .sessionNotRunning) }
        for waiter in waiters.withLock({ waiters in defer { waiters = [] }; return waiters }) { waiter.resume(returning: error) }
    }

    /// Waits until the first frame is in the file: nil, or the error that ended the recording.
    func waitUntilStarted() async -> CaptureError? {
        await withCheckedContinuation { continuation in
            let now: CaptureError?? = phase.withLock { phase in
                switch phase {
                case .starting:
                    startWaiters.withLock { $0.append(continuation) }
                    return nil
                case .recording: return .some(nil)
                case .finished(let error): return .some(error ?? .sessionNotRunning)
                }
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Waits until the file is closed: the error that ended it, nil after a stop.
    func waitUntilFinished() async -> CaptureError? {
        await withCheckedContinuation { continuation in
            let now: CaptureError?? = phase.withLock { phase in
                if case .finished(let error) = phase { return .some(error) }
                waiters.withLock { $0.append(continuation) }
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}
