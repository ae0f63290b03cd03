import Dispatch
import Synchronization

/// A session's serial executor: starting, stopping, committing a change to the running
/// pipeline, taking a failed branch out and interruption retries (requests) run on it one at a
/// time, in the order they were submitted, and so do the events their parts post (an idle
/// probe that ran, end of stream at a sink, a deadline).
///
/// It is a queue, not a lock, and it never waits for GStreamer. A request whose change needs
/// events to finish (a branch drained, a source idle) holds the executor: later requests wait
/// their turn, events go on running, and the event that finishes the change releases it.
/// Blocking calls (`startRunning()`, `commitConfiguration()`) submit their request and wait on
/// their own thread until it has finished; the async forms resume a continuation then, parking
/// no thread; bus messages and notification handlers submit theirs and return, so a
/// notification never waits behind a slow commit. A request that runs on the executor and makes
/// another blocking call (an observer of did-start that stops the session) starts it at once
/// instead of waiting for itself.
final class SessionExecutor: Sendable {
    /// Where everything runs: events are submitted here directly.
    private let events: DispatchQueue
    /// Requests: a queue that targets `events`, suspended while a request holds the executor.
    private let requests: DispatchQueue
    private static let identity = DispatchSpecificKey<ObjectIdentifier>()
    private let longest = Atomic<UInt64>(0)
    /// How many holds are in force; changed on the executor only.
    private let holds = Atomic<Int>(0)

    /// The longest a step (a request's or an event's) has taken so far, in nanoseconds: what a
    /// step costs every step behind it.
    var longestStep: UInt64 { longest.load(ordering: .relaxed) }

    init(label: String = "capturekit.session.executor") {
        events = DispatchQueue(label: label)
        requests = DispatchQueue(label: "\(label).requests", target: events)
        events.setSpecific(key: Self.identity, value: ObjectIdentifier(self))
    }

    /// Whether the calling code runs on this executor.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.identity) == ObjectIdentifier(self) }

    /// Runs the request `step` on the executor and waits for it on the calling thread (at once
    /// when already on it); with a hold in force after it, waits for the hold's release too.
    func run<T, E: Error>(_ step: () throws(E) -> T) throws(E) -> T {
        if isCurrent { return try step() }
        let result = requests.sync { () -> Result<T, E> in
            timed {
                do throws(E) {
                    return .success(try step())
                } catch {
                    return .failure(error)
                }
            }
        }
        if holds.load(ordering: .acquiring) > 0 { requests.sync {} }
        return try result.get()
    }

    /// Runs a request whose change may finish later: `step` gets a ``Transition``, on which it,
    /// or an event after it, settles the result and then ends the transition, once. The executor
    /// takes no other request until the end, and the caller waits for it on its own thread.
    /// Called on the executor (nested), it starts the step and returns the result as soon as it
    /// is settled, else `whenNested`.
    func run<T: Sendable, E: Error>(whenNested: T, until step: (Transition<T, E>) -> Void) throws(E) -> T {
        let transition = Transition<T, E>(executor: self)
        if isCurrent {
            hold()
            step(transition)
            return try transition.result?.get() ?? whenNested
        }
        requests.sync {
            timed {
                hold()
                step(transition)
            }
        }
        return try transition.wait().get()
    }

    /// Runs `step` as a request after the requests already submitted; returns at once.
    func submit(_ step: @escaping @Sendable () -> Void) {
        requests.async { self.timed(step) }
    }

    /// Runs `step` as a request that may finish later: the executor is held until `step`, or
    /// an event after it, calls `release`, once.
    func submit(until step: @escaping @Sendable (_ release: @escaping @Sendable () -> Void) -> Void) {
        requests.async { self.timed { self.hold(until: step) } }
    }

    /// Holds the executor from within a step (on the executor only) until `step`, or an event
    /// after it, calls `release`, once: requests wait, events run.
    func hold(until step: (_ release: @escaping @Sendable () -> Void) -> Void) {
        hold()
        let once = Atomic<Bool>(false)
        step { if !once.exchange(true, ordering: .acquiringAndReleasing) { self.release() } }
    }

    /// Runs the request `step` no sooner than `deadline`.
    func submit(at deadline: DispatchTime, _ step: @escaping @Sendable () -> Void) {
        requests.asyncAfter(deadline: deadline) { self.timed(step) }
    }

    /// Runs the event `step` on the executor, even while a request holds it.
    func post(_ step: @escaping @Sendable () -> Void) {
        events.async { self.timed(step) }
    }

    /// Runs the event `step` no sooner than `deadline`, even while a request holds the executor.
    func post(at deadline: DispatchTime, _ step: @escaping @Sendable () -> Void) {
        events.asyncAfter(deadline: deadline) { self.timed(step) }
    }

    /// Runs the request `step` on the executor and resumes the caller once it has finished
    /// (with the hold it took, if any, released), parking no thread while it waits its turn.
    func perform<T: Sendable, E: Error>(_ step: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            submit {
                let result: Result<T, E>
                do throws(E) {
                    result = .success(try step())
                } catch {
                    result = .failure(error)
                }
                // Behind the hold: the request after this one runs once it is released.
                if self.holds.load(ordering: .relaxed) > 0 {
                    self.requests.async { continuation.resume(returning: result) }
                } else {
                    continuation.resume(returning: result)
                }
            }
        }
        return try result.get()
    }

    /// Runs a request whose change may finish later, as ``run(whenNested:until:)`` does, and
    /// resumes the caller with its result once the transition has ended, parking no thread.
    func perform<T: Sendable, E: Error>(until step: @escaping @Sendable (Transition<T, E>) -> Void) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            submit {
                let transition = Transition<T, E>(executor: self) { continuation.resume(returning: $0) }
                self.hold()
                step(transition)
            }
        }
        return try result.get()
    }

    /// Holds the executor: requests wait until `release()`. On the executor only.
    private func hold() {
        if holds.add(1, ordering: .acquiringAndReleasing).newValue == 1 { requests.suspend() }
    }

    /// Ends a hold. On the executor only.
    fileprivate func release() {
        if holds.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { requests.resume() }
    }

    /// Runs a step, keeping the longest time one took.
    private func timed<T>(_ step: () -> T) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { longest.max(DispatchTime.now().uptimeNanoseconds - start, ordering: .relaxed) }
        return step()
    }
}

/// A request's change under way on a ``SessionExecutor``: its result, settled once (the first
/// settles it), and its end, which releases the executor's hold and wakes a waiting caller.
final class Transition<T: Sendable, E: Error>: Sendable {
    private let executor: SessionExecutor
    private let value = Mutex<Result<T, E>?>(nil)
    private let ended = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// Told the result at the end, for an async caller.
    private let onEnd: (@Sendable (Result<T, E>) -> Void)?

    fileprivate init(executor: SessionExecutor, ended: (@Sendable (Result<T, E>) -> Void)? = nil) {
        self.executor = executor
        onEnd = ended
    }

    /// The result, once settled.
    var result: Result<T, E>? { value.withLock { $0 } }

    /// Settles the result, unless it is settled already.
    func settle(_ result: Result<T, E>) {
        value.withLock { current in if current == nil { current = result } }
    }

    /// Ends the transition (on the executor): requests after it may run. Once; it must have been
    /// settled.
    func end() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        precondition(result != nil, "a transition ended without a result")
        executor.release()
        done.signal()
        if let onEnd, let result { onEnd(result) }
    }

    /// Settles the result and ends the transition.
    func finish(_ result: Result<T, E>) {
        settle(result)
        end()
    }

    /// Waits for the end (on the caller's own thread, never the executor's).
    fileprivate func wait() -> Result<T, E> {
        done.wait()
        return value.withLock { $0! }
    }
}
