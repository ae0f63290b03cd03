import CaptureKit
import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM while recording: instead of ending the process, each stops the recording
/// so that the file is finished (its index written) and the command exits normally.
final class InterruptTrap: Sendable {
    private struct State {
        var interrupted = false
        var movie: MovieFileOutput?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "capture.record.signals")
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    /// Takes over `signals` (their default action is ignored from now on).
    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.interrupt() }
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
    func stops(_ movie: MovieFileOutput) {
        let already = state.withLock { state -> Bool in
            state.movie = movie
            return state.interrupted
        }
        if already { movie.stopRecording() }
    }

    private func interrupt() {
        let movie = state.withLock { state -> MovieFileOutput? in
            state.interrupted = true
            return state.movie
        }
        // Returns once the file is closed; did-finish then ends the command's wait.
        movie?.stopRecording()
    }
}
