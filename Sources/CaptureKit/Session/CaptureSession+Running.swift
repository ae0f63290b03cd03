import Dispatch
import Foundation
import GStreamerSwift

/// Notifications go through `NotificationCenter.default` with the session as object. Did start /
/// did stop are posted on the thread that called `startRunning` / `stopRunning` (a CaptureKit
/// thread when the pipeline ended by itself); runtime errors on the session's own serial
/// notification queue, never on a GStreamer thread, so an observer may call `stopRunning()` or
/// `startRunning()` from there.
extension CaptureSession {
    /// Posted when the pipeline fails while running; `userInfo[CaptureSession.errorKey]` is a
    /// `CaptureError.pipelineFailed` naming the element and carrying GStreamer's message.
    public static let runtimeErrorNotification = Notification.Name("CaptureSessionRuntimeError")
    /// Posted after the session started running.
    public static let didStartRunningNotification = Notification.Name("CaptureSessionDidStartRunning")
    /// Posted after the session stopped running.
    public static let didStopRunningNotification = Notification.Name("CaptureSessionDidStopRunning")
    /// The `userInfo` key of the error in a runtime-error notification.
    public static let errorKey = "CaptureSessionErrorKey"
    /// The `userInfo` key of the output whose branch failed, in a runtime-error notification
    /// with code `branchFailed` (the session keeps running its other outputs).
    public static let outputKey = "CaptureSessionOutputKey"

    /// Builds and starts the pipeline, blocking until it runs. Throws when the graph cannot run
    /// (an output without an input, a missing element, a device that fails to start), once what
    /// was built is stopped again. The `startRunning()` of ``Checked`` and of the session run it.
    func checkedStartRunning() throws(CaptureError) {
        let nested = executor.isCurrent
        let started = try executor.run(whenNested: false) { (transition: Transition<Bool, CaptureError>) in
            start(transition, nested: nested)
        }
        if started { NotificationCenter.default.post(name: Self.didStartRunningNotification, object: self) }
    }

    /// The start's request on the executor: settles whether the caller announces the start
    /// (false when it was running already, or when `nested`, where it is announced here).
    func start(_ transition: Transition<Bool, CaptureError>, nested: Bool) {
        guard state.withLock({ $0.runState == .idle || $0.runState == .failed }) else { return transition.finish(.success(false)) }
        setRunState(.starting)
        let graph: SessionGraph, plan: PipelinePlan
        do throws(CaptureError) {
            (graph, plan) = try checkedPlan()
        } catch {
            setRunState(.failed)
            return transition.finish(.failure(error))
        }
        let runtime = makeRuntime()
        // Stored before it starts: an error a branch posts while starting (a publisher that
        // finds no server) finds the branch's output, and is not lost.
        state.withLock { $0.runtime = runtime }
        // A failure is settled at once (a nested caller gets it now), and the request ends
        // once what was built has stopped.
        runtime.start(plan, graph: graph, failing: { error in transition.settle(.failure(error)) }) { [self] error in
            if let error {
                state.withLock { $0.runtime = nil }
                setRunState(.failed)
                return transition.finish(.failure(error))
            }
            setConnectionsActive(true)
            setRunState(.running)
            // Nested (an observer on the executor), the start is announced where it ends.
            if nested { NotificationCenter.default.post(name: Self.didStartRunningNotification, object: self) }
            transition.finish(.success(!nested))
        }
    }

    /// Stops the pipeline, blocking until it has stopped (recordings finished). Stills still
    /// waiting fail with `captureCancelled`.
    public func stopRunning() {
        let nested = executor.isCurrent
        let stopped = executor.run(whenNested: false) { (transition: Transition<Bool, Never>) in
            guard let runtime = state.withLock({ state -> SessionRuntime? in
                guard state.isRunning else { return nil }
                defer { state.runtime = nil }
                return state.runtime
            }) else { return transition.finish(.success(false)) }
            setRunState(.stopping)
            runtime.stop { [self] in
                if state.withLock({ $0.interruption != nil }) { setInterruptionEnded() }
                setConnectionsActive(false)
                setRunState(.idle)
                // Nested (the pipeline's end, an error, an observer), the stop is announced where it ends.
                if nested { NotificationCenter.default.post(name: Self.didStopRunningNotification, object: self) }
                transition.finish(.success(!nested))
            }
        }
        if stopped { NotificationCenter.default.post(name: Self.didStopRunningNotification, object: self) }
    }

    /// Changes the running pipeline to the current graph: only the branches and sources that
    /// differ are touched. A change that cannot be made stops the session (runtime error).
    func applyGraphIfRunning() throws(CaptureError) {
        try executor.run(whenNested: ()) { (transition: Transition<Void, CaptureError>) in
            guard let runtime = state.withLock({ $0.runState == .running ? $0.runtime : nil }) else { return transition.finish(.success(())) }
            setRunState(.reconfiguring)
            let failed: @Sendable (CaptureError) -> Void = { [self] error in
                var posted = error
                posted.wasPostedAsRuntimeError = true
                transition.settle(.failure(posted))
                runtime.stop { [self] in
                    state.withLock { $0.runtime = nil }
                    setConnectionsActive(false)
                    setRunState(.failed)
                    postRuntimeError(error)
                    transition.end()
                }
            }
            let graph: SessionGraph, plan: PipelinePlan
            do throws(CaptureError) {
                (graph, plan) = try checkedPlan()
            } catch {
                return failed(error)
            }
            runtime.apply(plan, graph: graph) { [self] error in
                if let error { return failed(error) }
                setConnectionsActive(true)
                setRunState(.running)
                transition.finish(.success(()))
            }
        }
    }

    /// A runtime whose bus messages come to this session, tagged with a new generation so that
    /// a late message from a pipeline already stopped cannot stop its successor.
    private func makeRuntime() -> SessionRuntime {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        return SessionRuntime(executor: executor) { [weak self] message, origin in
            self?.handle(message, from: origin, generation: generation)
        }
    }

    /// The current graph and its plan; throws when an output has nothing to take media from.
    private func checkedPlan() throws(CaptureError) -> (SessionGraph, PipelinePlan) {
        let graph = graph()
        for output in state.withLock({ $0.outputs }) where output.wantsBranch && !graph.branches.contains(where: { $0.output === output }) {
            if output.connections.isEmpty || output.connections.allSatisfy({ $0.isEnabled }) {
                throw .noCompatibleInput(output: output.kind)
            }
        }
        return (graph, PipelineCompiler.compile(graph, environment: context.compilerEnvironment(for: graph)))
    }

    private func setConnectionsActive(_ active: Bool) {
        let graph = active ? graph() : nil
        for connection in connections {
            let branched = graph?.branches.contains { $0.ports.contains { $0.connection === connection } } == true
            let waiting = connection.output.map { !(($0 as? any OutputNode)?.wantsBranch ?? true) } == true && connection.isEnabled
            connection.setActive(active && (branched || waiting))
        }
    }

    /// Bus messages, on the bus thread: handled on the session's executor, never here, and
    /// posted on the notification queue. An error is routed by the part of the pipeline that
    /// holds its element (`origin`): one in an output's branch removes that branch and is
    /// posted naming the output, the others keep running; any other error, or the end of the
    /// stream, stops the session.
    /// A source whose device is gone or busy interrupts the session instead (see
    /// `isInterrupted`).
    private func handle(_ message: BusMessage, from origin: MessageOrigin, generation: Int) {
        switch message {
        case .error(let source, let text, let debug, let reason):
            CaptureLog.logger.error("\(source): \(text) (\(debug ?? ""))")
            let owner = state.withLock { $0.generation == generation ? $0.runtime : nil }?.owner(of: origin)
            // A part of the output it deals with itself (one WHEP viewer): the branch runs on.
            if case .branch(_, let output) = owner, output.takesError(fromElement: source) { return }
            if case .branch(let key, let output) = owner {
                executor.submit(until: { release in
                    self.branchFailed(key, output: output, element: source, message: text, reason: reason, generation: generation, then: release)
                })
                return
            }
            // A branch already taken out (a publisher whose server went away errs again on its
            // way to NULL): its output has been told.
            if case .retired = owner { return }
            if case .source(let key) = owner, [.deviceNotFound, .deviceBusy, .deviceFailed].contains(reason) {
                executor.submit { self.interrupt(source: key, reason: reason, generation: generation) }
                return
            }
            executor.submit {
                // An interrupted source's errors are the interruption's: an unplugged camera posts
                // more after the one that interrupted the session ("failed to allocate a buffer",
                // "streaming stopped"), and a source resumed on a device still gone (vivid's
                // disconnect control leaves its node in place) fails in ways that name no device
                // ("not-negotiated"). The session stays interrupted and keeps retrying.
                if case .source(let key) = owner, let interruption = self.state.withLock({ $0.interruption }), interruption.source == key {
                    if self.runtime?.isSuspended(source: key) == false {
                        self.interrupt(source: key, reason: interruption.reason.isBusy ? .deviceBusy : .deviceFailed, generation: generation)
                    }
                    return
                }
                self.stopRunning(ifGeneration: generation)
                self.postRuntimeError(.pipelineFailed(element: source, message: text))
            }
        case .warning(let source, let text, _):
            CaptureLog.logger.warning("\(source): \(text)")
        case .endOfStream:
            CaptureLog.logger.info("end of stream: the session stops")
            executor.submit { self.stopRunning(ifGeneration: generation) }
        default:
            break
        }
    }

    /// On the executor: takes a failed branch out of the running pipeline, fails its output's
    /// waiting work with the error, and posts it with the output on the notification queue.
    /// A full disk is `diskFull`, anything else `branchFailed`.
    /// Holds the executor until the branch is out; `then` releases it.
    private func branchFailed(_ key: String, output: any OutputNode, element: String, message: String, reason: BusErrorReason, generation: Int,
                              then done: @escaping @Sendable () -> Void) {
        let error = CaptureError(code: reason == .noSpaceLeft ? .diskFull : .branchFailed, message: "output '\(output.kind)' (\(key)) failed in '\(element)': \(message); the session keeps running",
                                 element: element)
        guard let runtime = state.withLock({ $0.generation == generation && $0.isRunning ? $0.runtime : nil }) else { return done() }
        runtime.dropBranch(key, error: error) { [self] in
            notifications.async {
                NotificationCenter.default.post(name: Self.runtimeErrorNotification, object: self,
                                                userInfo: [Self.errorKey: error, Self.outputKey: output])
            }
            done()
        }
    }

    /// Stops the session if it still runs the pipeline of `generation`.
    private func stopRunning(ifGeneration generation: Int) {
        guard state.withLock({ $0.generation == generation && $0.runtime != nil }) else { return }
        stopRunning()
    }

    func postRuntimeError(_ error: CaptureError) {
        notifications.async { self.postRuntimeErrorNow(error) }
    }

    private func postRuntimeErrorNow(_ error: CaptureError) {
        NotificationCenter.default.post(name: Self.runtimeErrorNotification, object: self, userInfo: [Self.errorKey: error])
    }

    /// The running pipeline's runtime, for outputs and tests.
    var runtime: SessionRuntime? { state.withLock { $0.runtime } }
}
