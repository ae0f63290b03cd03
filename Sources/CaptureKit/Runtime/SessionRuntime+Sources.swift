import Foundation
import GStreamerSwift
import Synchronization

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
    /// times continue. `then` gets the error, or nil, once the new source is in (after the old
    /// one's idle moment).
    func replaceSource(_ plan: PipelinePlan.Source, input: SessionGraph.Input, then done: @escaping @Sendable (CaptureError?) -> Void) {
        let fresh: RunningSource
        let old: RunningSource
        do throws(CaptureError) {
            guard let running = live.withLock({ $0.sources[plan.key] }) else {
                try addSource(plan, input: input)
                return done(nil)
            }
            old = running
            fresh = try RunningSource.make(plan, input: input, tee: old.tee)
        } catch {
            return done(error)
        }
        old.input.device.clearRunningSource(old.controls)
        let putIn: @Sendable () -> Void = { [self] in
            do throws(CaptureError) {
                try self.putIn(fresh)
                done(nil)
            } catch {
                done(error)
            }
        }
        if old.isSuspended { putIn() } else { takeOut(old, then: putIn) }
    }

    /// Whether the source keyed `key` is out of the pipeline while its device is gone or busy.
    func isSuspended(source key: String) -> Bool {
        live.withLock { $0.sources[key]?.isSuspended ?? false }
    }

    /// Takes a source's bin out of the pipeline and leaves its tee and branches waiting (a
    /// device gone or busy); `resumeSource` puts a new one in. `then` runs once it is out.
    func suspendSource(_ key: String, then done: @escaping @Sendable () -> Void) {
        guard let source = live.withLock({ live -> RunningSource? in
            guard let source = live.sources[key], !source.isSuspended else { return nil }
            live.sources[key]?.isSuspended = true
            return source
        }) else { return done() }
        source.input.device.clearRunningSource(source.controls)
        takeOut(source, then: done)
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

    /// Unlinks a source bin from its tee and removes it, then runs `then`. The last element's
    /// pad is blocked first by an idle probe (at once between two frames, without waiting for
    /// the next), so no frame or event is half-pushed into the tee; the probe posts an event,
    /// and the bin is taken out there. Taking the bin to NULL flushes that pad before it stops
    /// the source (a bin changes its children sink first), which releases the block. (Blocking
    /// the bin's ghost pad instead deadlocks: the bin deactivates its own pads only after its
    /// children stopped, and the source waits for its thread.)
    private func takeOut(_ source: RunningSource, then done: @escaping @Sendable () -> Void) {
        guard let teeSink = try? source.tee.staticPad("sink"), let exit = try? source.bin.element.staticPad("src"),
              let last = source.plan.head.last, let inner = try? source.bin.element(named: last.name).staticPad("src") else { return done() }
        // Run once, by the probe's event or the deadline's, whichever is first. The probe stays
        // on the old bin's pad, so it holds the step only until it has run (else the bin would
        // hold itself through it).
        let pipeline = pipeline
        let out = Mutex<(@Sendable () -> Void)?>({
            pipeline.remove(source.bin)
            exit.unlink(from: teeSink)
            done()
        })
        let takeOut: @Sendable () -> Bool = {
            guard let step = out.withLock({ step in defer { step = nil }; return step }) else { return false }
            step()
            return true
        }
        guard pipeline.currentState == .playing else { return _ = takeOut() }
        let executor = executor
        inner.addProbe(.idle) { _, _ in
            executor.post { _ = takeOut() }
            return .ok
        }
        // A source that sends nothing (failed, or stalled) has nothing in flight: past 200 ms
        // without an idle moment it is taken out as it is.
        executor.post(at: .now() + .milliseconds(200)) {
            if takeOut() {
                CaptureLog.logger.debug("source \(source.plan.key): no idle moment within 200 ms; taken out with nothing in flight")
            }
        }
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
