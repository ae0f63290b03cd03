import Foundation
import GStreamerSwift

extension SessionRuntime {
    /// Builds a branch's bin, lets its output attach its callbacks, then adds it, brings it to
    /// the pipeline's state and only then links a new tee pad to each entry: on a playing
    /// pipeline the branch joins at the next frame, with the running time everyone else has.
    /// (Linked before it plays, a branch answers the tee's next frame with FLUSHING, which the
    /// tee hands back to a live source, and the source stops for good.)
    func addBranch(_ plan: PipelinePlan.Branch, graph: SessionGraph) throws(CaptureError) {
        let node = graph.branches.first { $0.name == plan.key }
        guard node != nil || plan.tee != nil else {
            throw .pipelineFailed(element: plan.key, message: "no output '\(plan.key)' in the session graph")
        }
        let bin = try Bin.planned(plan.key, elements: plan.elements, links: plan.links)
        var entries: [(source: String, pad: Pad)] = []
        let stageTee: Element?
        do throws(GStreamerError) {
            for (index, entry) in plan.entries.enumerated() {
                let target = try bin.pad(entry.element, direction: "sink")
                entries.append((entry.source, try bin.addGhostPad(name: plan.entries.count == 1 ? "sink" : "sink_\(index)", target: target)))
            }
            stageTee = try plan.tee.map { tee throws(GStreamerError) in try bin.element(named: tee.name) }
            if let stageTee {
                // Encoding yields to capture: an encoder's worker threads run at a lower priority,
                // so a saturated encoder drops frames at its leaky queue rather than starve the
                // sources' threads.
                try bin.element(named: "\(plan.key)_queue").staticPad("src")
                    .lowerEncoderWorkerPriority(until: stageTee.staticPad("sink"), toNice: EncodedStage.niceness)
            }
        } catch {
            throw .pipelineFailed(error)
        }
        let slot = node.map { ConnectionSlot($0.connection) }
        if let node, let slot { try node.output.attach(RunningBranch(prefix: plan.key, bin: bin, pipeline: pipeline, slot: slot)) }
        let gate = BranchGate()
        live.withLock { $0.join(plan.key, output: node?.output, gate: gate) }
        pipeline.add(bin)
        bin.element.syncStateWithParent()
        var feeds: [LiveBranch.Feed] = []
        do throws(GStreamerError) {
            for (source, entry) in entries {
                let (sourceTee, stage) = live.withLock { ($0.sources[source]?.tee, $0.running(source).flatMap { $0.tee == nil ? nil : $0 }) }
                guard let tee = sourceTee ?? stage?.tee else { throw .noSuchElement(name: "\(source)_tee") }
                let teePad = try tee.requestPad("src_%u")
                if node != nil { teePad.addBufferProbe { _ in gate.isOpen ? .pass : .drop } }
                var feed = LiveBranch.Feed(tee: tee, teePad: teePad, entry: entry, linked: teePad)
                if let stage {
                    // A stage's tee is inside its bin: the entry links to a ghost pad of it.
                    feed.linked = try stage.bin.addGhostPad(name: "\(plan.key)_\(teePad.name)", target: teePad)
                    feed.stage = stage.bin
                }
                feeds.append(feed)
                try feed.linked.link(to: entry)
                // Joining an encoded stage: ask its encoder for a key frame now rather than at
                // the next interval (the branch waits for one).
                if stage != nil { entry.push(.forceKeyUnit()) }
            }
        } catch {
            // Errors the half-added branch posts on its way out concern no one.
            live.withLock { $0.move(plan.key, .joinFailed) }
            pipeline.remove(bin)
            for feed in feeds { feed.release() }
            node?.output.detach(error: .captureCancelled)
            throw .pipelineFailed(error)
        }
        live.withLock { live in
            live.branches[plan.key]?.running = LiveBranch(plan: plan, bin: bin, feeds: feeds, output: node?.output, slot: slot, tee: stageTee)
            live.move(plan.key, .joined)
        }
    }

    /// Unlinks a branch from its tees at an idle probe on each tee pad (between two frames),
    /// sends end of stream into it first when it must finish (a muxer) and waits for that to
    /// reach its sink, then takes it to NULL, removes it, releases the pads and tells its output
    /// (whose waiting work fails with `error`). A failed branch (`finish` false) is not waited on.
    func removeBranch(_ key: String, error: CaptureError, finish: Bool = true) {
        guard let branch = live.withLock({ live -> LiveBranch? in
            guard let branch = live.running(key) else { return nil }
            live.move(key, .drain)
            return branch
        }) else { return }
        let finished = DispatchSemaphore(value: 0)
        let finishes = finish && branch.plan.finishesWithEndOfStream
        let sinks = finishes ? branch.plan.sinks.compactMap { try? branch.bin.element(named: $0.name).staticPad("sink") } : []
        // End of stream stops at the sink's pad: everything before it is written, and a sink
        // that saw it would post EOS, which a pipeline left with no other sink would take as its
        // own end.
        for sink in sinks {
            sink.addProbe(.eventDownstream) { _, data in
                guard data == .event(.endOfStream) else { return .ok }
                finished.signal()
                return .drop
            }
        }
        let unlinked = DispatchSemaphore(value: 0)
        for feed in branch.feeds {
            feed.teePad.addProbe(.idle) { _, _ in
                _ = feed.linked.unlink(from: feed.entry)
                if finishes { feed.entry.send(.endOfStream()) }
                unlinked.signal()
                return .remove
            }
        }
        // A feed whose idle probe has not run in 2 s (its source stalled) is logged and the branch
        // removed all the same; a sink without end of stream in 5 s likewise (its file may lack
        // its end: the output's did-finish says what the file holds).
        for _ in branch.feeds where unlinked.wait(timeout: .now() + .seconds(2)) == .timedOut {
            CaptureLog.logger.warning("branch \(key): a feed was not unlinked within 2 s; removing the branch anyway")
        }
        for _ in sinks where finished.wait(timeout: .now() + .seconds(5)) == .timedOut {
            CaptureLog.logger.warning("branch \(key): no end of stream reached a sink within 5 s; removing the branch anyway")
        }
        pipeline.remove(branch.bin)
        for feed in branch.feeds { feed.release() }
        live.withLock { live in
            live.branches[key]?.running = nil
            live.move(key, .drained)
        }
        branch.output?.detach(error: error)
        // The branch's threads (an encoder's workers, a queue's) freed their memory into arenas
        // glibc keeps: without this, resident memory grew by ~600 KB a recording.
        GStreamer.releaseFreeMemory()
    }
}
