import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM while recording or streaming: instead of ending the process, the first
/// runs the command's stop action (a recording is finished, its index written; a stream ends)
/// and the command exits normally; a second ends the process at once, as it would have
/// (ffmpeg's Ctrl-C twice).
final class InterruptTrap: Sendable {
    private struct State {
        var interrupted = false
        var action: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "capture.record.signals")
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    /// Takes over `signals` (their default action is ignored from now on).
    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            // Signals that come together are merged: `data` counts them. The handler holds its
            // source until deinit cancels it.
            source.setEventHandler { [weak self] in
                for _ in 0..<max(1, source.data) { self?.interrupt(number) }
            }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Whether a signal came.
    var interrupted: Bool { state.withLock { $0.interrupted } }

    /// From now on a signal stops `movie`'s recording; when one came already, stops it at once.
    /// A signal that comes once the recording has stopped (a limit), while its file is given its
    /// index, stops that: the file is left in fragments, playable.
    func stops(_ movie: MovieFileOutput) {
        onInterrupt {
            if movie.isFinalizing { movie.stopFinalizing() } else { movie.stopRecording() }
        }
    }

    /// From now on a signal runs `action` (on the trap's queue); when one came already, runs it
    /// at once.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            state.action = action
            return state.interrupted
        }
        if already { action() }
    }

    private func interrupt(_ number: Int32) {
        let (again, action) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            defer { state.interrupted = true }
            return (state.interrupted, state.action)
        }
        if again {
            signal(number, SIG_DFL)
            raise(number)
            return
        }
        // A recording's returns once the file is closed; did-finish then ends the command's wait.
        action?()
    }
}
