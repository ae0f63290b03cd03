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

    /// Builds and starts the pipeline, blocking until it runs. Throws when the graph cannot run
    /// (an output without an input, a missing element, a device that fails to start).
    public func startRunning() throws(CaptureError) {
        try transitions.withLock { _ throws(CaptureError) in
            guard !state.withLock({ $0.isRunning }) else { return }
            let runtime = try makeRuntime()
            state.withLock { $0.runtime = runtime }
            setConnectionsActive(true)
            setRunning(true)
        }
        NotificationCenter.default.post(name: Self.didStartRunningNotification, object: self)
    }

    /// Stops the pipeline, blocking until it has stopped. Stills still waiting fail with
    /// `captureCancelled`.
    public func stopRunning() {
        let stopped = transitions.withLock { _ -> Bool in
            guard let runtime = state.withLock({ state -> PipelineRuntime? in
                defer { state.runtime = nil }
                return state.runtime
            }) else { return false }
            runtime.stop()
            setConnectionsActive(false)
            setRunning(false)
            return true
        }
        if stopped { NotificationCenter.default.post(name: Self.didStopRunningNotification, object: self) }
    }

    /// `startRunning()` without blocking the caller's thread.
    public func startRunning() async throws(CaptureError) {
        let result: Result<Void, CaptureError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(CaptureError) {
                    try self.startRunning()
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// `stopRunning()` without blocking the caller's thread.
    public func stopRunning() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.stopRunning()
                continuation.resume()
            }
        }
    }

    /// Rebuilds the pipeline from the current graph when running.
    func applyGraphIfRunning() throws(CaptureError) {
        try transitions.withLock { _ throws(CaptureError) in
            guard let old = state.withLock({ $0.runtime }) else { return }
            old.stop()
            setConnectionsActive(false)
            do throws(CaptureError) {
                let runtime = try makeRuntime()
                state.withLock { $0.runtime = runtime }
                setConnectionsActive(true)
            } catch {
                state.withLock { $0.runtime = nil }
                setRunning(false)
                postRuntimeError(error)
                throw error
            }
        }
    }

    /// Compiles the current graph, builds its pipeline and starts it.
    private func makeRuntime() throws(CaptureError) -> PipelineRuntime {
        let (graph, plan) = try checkedPlan()
        let runtime = try makeRuntime(graph: graph, plan: plan)
        try runtime.start()
        return runtime
    }

    /// A runtime whose bus messages come to this session, tagged with a new generation so that
    /// a late message from a pipeline already replaced cannot stop its successor.
    private func makeRuntime(graph: SessionGraph, plan: PipelinePlan) throws(CaptureError) -> PipelineRuntime {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        return try PipelineRuntime(graph: graph, plan: plan) { [weak self] message in
            self?.handle(message, generation: generation)
        }
    }

    /// The current graph and its plan; throws when an output has nothing to take media from.
    private func checkedPlan() throws(CaptureError) -> (SessionGraph, PipelinePlan) {
        let graph = graph()
        for output in state.withLock({ $0.outputs }) where !graph.branches.contains(where: { $0.output === output }) {
            if output.connections.isEmpty || output.connections.allSatisfy({ $0.isEnabled }) {
                throw .noCompatibleInput(output: output.kind)
            }
        }
        return (graph, PipelineCompiler.compile(graph))
    }

    private func setConnectionsActive(_ active: Bool) {
        let graph = active ? graph() : nil
        for connection in connections {
            connection.setActive(active && graph!.branches.contains { $0.connection === connection })
        }
    }

    /// Bus messages, on the bus thread: failures and the end of a stream stop the session (on
    /// the notification queue, never here), then the error is posted.
    private func handle(_ message: BusMessage, generation: Int) {
        switch message {
        case .error(let source, let text, let debug):
            CaptureLog.logger.error("\(source): \(text) (\(debug ?? ""))")
            notifications.async {
                self.stopRunning(ifGeneration: generation)
                self.postRuntimeErrorNow(.pipelineFailed(element: source, message: text))
            }
        case .warning(let source, let text, _):
            CaptureLog.logger.warning("\(source): \(text)")
        case .endOfStream:
            notifications.async { self.stopRunning(ifGeneration: generation) }
        default:
            break
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
    var runtime: PipelineRuntime? { state.withLock { $0.runtime } }
}
