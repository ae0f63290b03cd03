import Foundation
import GStreamerSwift

extension SessionRuntime {
    /// Adds a source: its tee at the top level (it stays while the session runs the port), the
    /// source bin linked into it, both brought to the pipeline's state.
    func addSource(_ plan: PipelinePlan.Source, input: SessionGraph.Input) throws(CaptureError) {
        let tee: Element
        do {
            tee = try Element(factory: plan.tee.factory, name: plan.tee.name)
            for property in plan.tee.properties { try tee.set(property.name, property.value) }
        } catch {
            throw .pipelineFailed(error)
        }
        let source = try RunningSource.make(plan, input: input, tee: tee)
        pipeline.add(tee)
        pipeline.add(source.bin)
        do {
            try source.bin.element.staticPad("src").link(to: try tee.staticPad("sink"))
        } catch {
            throw .pipelineFailed(error)
        }
        tee.syncStateWithParent()
        source.bin.element.syncStateWithParent()
        live.withLock { $0.sources[plan.key] = source }
    }

    /// Swaps the elements before a source's tee (a camera switch or a format change). The old
    /// bin's pad is blocked first, so no frame is half-pushed into the tee; taking the bin to
    /// NULL flushes it (which releases the block), then the new bin is linked in its place.
    /// Branches and their tee pads are untouched, and the new source timestamps in the same
    /// running time, so presentation times continue.
    func replaceSource(_ plan: PipelinePlan.Source, input: SessionGraph.Input) throws(CaptureError) {
        guard let old = live.withLock({ $0.sources[plan.key] }) else { return try addSource(plan, input: input) }
        let fresh = try RunningSource.make(plan, input: input, tee: old.tee)
        if old.input.device != input.device { old.input.device.setLiveElements(source: nil, crop: nil) }
        let teeSink: Pad
        do {
            teeSink = try old.tee.staticPad("sink")
        } catch {
            throw .pipelineFailed(error)
        }
        if let exit = try? old.bin.element.staticPad("src") {
            let blocked = DispatchSemaphore(value: 0)
            exit.addProbe(.blockDownstream) { _, _ in
                blocked.signal()
                return .ok
            }
            // A source that sends nothing (not yet playing, or stalled) has nothing in flight.
            if pipeline.currentState == .playing { _ = blocked.wait(timeout: .now() + .milliseconds(500)) }
            pipeline.remove(old.bin)
            exit.unlink(from: teeSink)
        }
        pipeline.add(fresh.bin)
        do {
            try fresh.bin.element.staticPad("src").link(to: teeSink)
        } catch {
            throw .pipelineFailed(error)
        }
        fresh.bin.element.syncStateWithParent()
        live.withLock { $0.sources[plan.key] = fresh }
    }

    /// Removes a source bin and its tee (its branches were removed before).
    func removeSource(_ key: String) {
        guard let source = live.withLock({ $0.sources.removeValue(forKey: key) }) else { return }
        source.input.device.setLiveElements(source: nil, crop: nil)
        pipeline.remove(source.bin)
        pipeline.remove(source.tee)
    }
}
