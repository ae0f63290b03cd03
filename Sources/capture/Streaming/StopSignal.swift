import Dispatch
import Synchronization

/// When `capture stream` should end: Ctrl-C or --duration, whichever comes first. Fired from
/// the signal queue or a timer; awaited by the progress loop.
final class StopSignal: Sendable {
    private let fired = Atomic<Bool>(false)

    func fire() { fired.store(true, ordering: .releasing) }

    func fire(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in fire() }
    }

    var isFired: Bool { fired.load(ordering: .acquiring) }
}
