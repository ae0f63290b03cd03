import Dispatch
import Synchronization

/// A session's serial executor: starting, stopping, committing a change to the running
/// pipeline, taking a failed branch out and interruption retries run on it one at a time, in
/// the order they were submitted.
///
/// It is a queue, not a lock: blocking calls (`startRunning()`, `commitConfiguration()`) submit
/// their step and wait for it on their own thread; the async forms submit it and resume a
/// continuation, parking no thread; bus messages and notification handlers submit theirs and
/// return, so a notification never waits behind a slow commit. A step that runs on the executor
/// and makes another blocking call (an observer of a did-start notification that stops the
/// session) runs it at once instead of waiting for itself.
final class SessionExecutor: Sendable {
    private let queue: DispatchQueue
    private static let identity = DispatchSpecificKey<ObjectIdentifier>()
    private let longest = Atomic<UInt64>(0)

    /// The longest a step has held the executor so far, in nanoseconds: what a step that waits
    /// (for an idle probe, bounded) costs every step behind it.
    var longestStep: UInt64 { longest.load(ordering: .relaxed) }

    init(label: String = "capturekit.session.executor") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.identity, value: ObjectIdentifier(self))
    }

    /// Whether the calling code runs on this executor.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.identity) == ObjectIdentifier(self) }

    /// Runs `step` on the executor and waits for it on the calling thread (at once when already
    /// on it).
    func run<T, E: Error>(_ step: () throws(E) -> T) throws(E) -> T {
        if isCurrent { return try step() }
        return try queue.sync { () -> Result<T, E> in
            timed {
                do throws(E) {
                    return .success(try step())
                } catch {
                    return .failure(error)
                }
            }
        }.get()
    }

    /// Runs `step` on the executor after the steps already submitted; returns at once.
    func submit(_ step: @escaping @Sendable () -> Void) {
        queue.async { self.timed(step) }
    }

    /// Runs `step` on the executor no sooner than `deadline`.
    func submit(at deadline: DispatchTime, _ step: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: deadline) { self.timed(step) }
    }

    /// Runs a step, keeping the longest time one took.
    private func timed<T>(_ step: () -> T) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { longest.max(DispatchTime.now().uptimeNanoseconds - start, ordering: .relaxed) }
        return step()
    }

    /// Runs `step` on the executor and resumes the caller with its result, parking no thread
    /// while it waits its turn.
    func perform<T: Sendable, E: Error>(_ step: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            submit {
                do throws(E) {
                    continuation.resume(returning: .success(try step()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
