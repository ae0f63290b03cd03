import Dispatch
import Synchronization

/// Runs completion handlers on one serial queue in the order their requests were made,
/// whatever order the work finishes in (a flash still waits for its flash, a bracket for its
/// exposure, an error comes at once): a request takes a ticket, its handler runs after every
/// earlier ticket's.
final class CompletionSequencer: Sendable {
    private struct State {
        var issued: UInt64 = 0
        var due: UInt64 = 0
        var ready: [UInt64: @Sendable () -> Void] = [:]
    }

    private let queue: DispatchQueue
    private let state = Mutex(State())

    init(queue: DispatchQueue) { self.queue = queue }

    /// The next request's place in line.
    func ticket() -> UInt64 {
        state.withLock { state in
            defer { state.issued += 1 }
            return state.issued
        }
    }

    /// Runs `work` on the queue once every earlier ticket's work has run.
    func complete(_ ticket: UInt64, _ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.ready[ticket] = work }
        queue.async { self.flush() }
    }

    /// Gives up a ticket whose request never started (it threw), so later ones are not held.
    func cancel(_ ticket: UInt64) {
        complete(ticket) {}
    }

    /// On the queue: runs every handler whose turn has come, in order, outside the lock.
    private func flush() {
        while let work = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let work = state.ready.removeValue(forKey: state.due) else { return nil }
            state.due += 1
            return work
        }) {
            work()
        }
    }
}
