import Foundation
import GStreamerSwift

extension SessionRuntime {
    /// Adds a source: its tee at the top level (it stays while the session runs the port), the
    /// source bin linked into it, both brought to the pipeline's state.
    func addSource(_ plan: PipelinePlan.Source, input: SessionGraph.Input) throws(CaptureError) {
        let tee: Element
        do {
            tee = try Element(planned: plan.tee)
        } catch {
            throw .pipelineFailed(error)
        }
        let source = try RunningSource.make(plan, input: input, tee: tee)
        pipeline.add(tee)
        tee.syncStateWithParent()
        try putIn(source)
    }

    /// Swaps the elements before a source's tee (a camera switch or a format change): the old
    /// bin is taken out, the new one linked in its place. Branches and their tee pads are
    /// untouched, and the new source timestamps in the same running time, so presentation
    /// times continue.
    func replaceSource(_ plan: PipelinePlan.Source, input: SessionGraph.Input) throws(CaptureError) {
        guard let old = live.withLock({ $0.sources[plan.key] }) else { return try addSource(plan, input: input) }
        let fresh = try RunningSource.make(plan, input: input, tee: old.tee)
        old.input.device.clearRunningSource(old.controls)
        if !old.isSuspended { takeOut(old) }
        try putIn(fresh)
    }

    /// Whether the source keyed `key` is out of the pipeline while its device is gone or busy.
    func isSuspended(source key: String) -> Bool {
        live.withLock { $0.sources[key]?.isSuspended ?? false }
    }

    /// Takes a source's bin out of the pipeline and leaves its tee and branches waiting (a
    /// device gone or busy); `resumeSource` puts a new one in.
    func suspendSource(_ key: String) {
        guard let source = live.withLock({ live -> RunningSource? in
            guard let source = live.sources[key], !source.isSuspended else { return nil }
            live.sources[key]?.isSuspended = true
            return source
        }) else { return }
        source.input.device.clearRunningSource(source.controls)
        takeOut(source)
    }

    /// Builds a suspended source again and links it to its tee; `flowing` runs (on the
    /// streaming thread) when its first frame leaves the bin.
    func resumeSource(_ key: String, input: SessionGraph.Input, flowing: @escaping @Sendable () -> Void) throws(CaptureError) {
        guard let old = live.withLock({ $0.sources[key] }), old.isSuspended else { return }
        let fresh = try RunningSource.make(old.plan, input: input, tee: old.tee)
        if let exit = try? fresh.bin.element.staticPad("src") {
            exit.addProbe(.buffer) { _, _ in
                flowing()
                return .remove
            }
        }
        try putIn(fresh)
    }

    /// Unlinks a source bin from its tee and removes it. The last element's pad is blocked
    /// first by an idle probe (at once between two frames, without waiting for the next), so no
    /// frame or event is half-pushed into the tee; taking the bin to NULL flushes that pad
    /// before it stops the source (a bin changes its children sink first), which releases the
    /// block. (Blocking the bin's ghost pad instead deadlocks: the bin deactivates its own pads
    /// only after its children stopped, and the source waits for its thread.)
    private func takeOut(_ source: RunningSource) {
        guard let teeSink = try? source.tee.staticPad("sink"), let exit = try? source.bin.element.staticPad("src"),
              let last = source.plan.head.last, let inner = try? source.bin.element(named: last.name).staticPad("src") else { return }
        let blocked = DispatchSemaphore(value: 0)
        inner.addProbe(.idle) { _, _ in
            blocked.signal()
            return .ok
        }
        // A source that sends nothing (not yet playing, failed, or stalled) has nothing in flight:
        // past 200 ms without an idle moment it is taken out as it is.
        if pipeline.currentState == .playing, blocked.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            CaptureLog.logger.debug("source \(source.plan.key): no idle moment within 200 ms; taken out with nothing in flight")
        }
        pipeline.remove(source.bin)
        exit.unlink(from: teeSink)
    }

    /// Adds a source bin, links it to its tee and brings it to the pipeline's state.
    private func putIn(_ source: RunningSource) throws(CaptureError) {
        pipeline.add(source.bin)
        do {
            try source.bin.element.staticPad("src").link(to: try source.tee.staticPad("sink"))
        } catch {
            throw .pipelineFailed(error)
        }
        source.bin.element.syncStateWithParent()
        live.withLock { $0.sources[source.plan.key] = source }
    }

    /// Removes a source bin and its tee (its branches were removed before).
    func removeSource(_ key: String) {
        guard let source = live.withLock({ $0.sources.removeValue(forKey: key) }) else { return }
        source.input.device.clearRunningSource(source.controls)
        if !source.isSuspended { pipeline.remove(source.bin) }
        pipeline.remove(source.tee)
    }
}
