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
                try bin.element(.queue, in: plan.key).staticPad("src")
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
                guard let tee = sourceTee ?? stage?.tee else { throw .noSuchElement(name: PipelinePlan.Role.tee.name(in: source)) }
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
            _ = live.withLock { $0.move(plan.key, .joinFailed) }
            pipeline.remove(bin)
            for feed in feeds { feed.release() }
            if let output = node?.output { detach(output, error: .captureCancelled) }
            throw .pipelineFailed(error)
        }
        live.withLock { live in
            live.branches[plan.key]?.running = LiveBranch(plan: plan, bin: bin, feeds: feeds, output: node?.output, slot: slot, tee: stageTee)
            live.move(plan.key, .joined)
        }
    }

    /// Starts taking a branch out: unlinks it from its tees at an idle probe on each tee pad
    /// (between two frames), sending end of stream into it first when it must finish (a muxer),
    /// and catches that at its sinks. Each probe posts an event (`BranchLifecycle`); when every
    /// feed and sink has answered, or at the deadline (2 s, or 7 s for a branch that finishes),
    /// `retire` takes the branch out and tells its output (whose waiting work fails with `error`).
    /// A failed branch (`finish` false) is not finished. Returns at once.
    func removeBranch(_ key: String, error: CaptureError, finish: Bool = true) {
        guard let (branch, number) = live.withLock({ live -> (LiveBranch, Int)? in
            guard let branch = live.running(key), let number = live.branches[key]?.number else { return nil }
            return (branch, number)
        }) else { return }
        let finishes = finish && branch.plan.finishesWithEndOfStream
        let sinks = finishes ? branch.plan.sinks.compactMap { try? branch.bin.element(named: $0.name).staticPad("sink") } : []
        let takeOut = live.withLock { live in
            live.branches[key]?.drainError = error
            return live.move(key, .drain(feeds: branch.feeds.count, sinks: sinks.count))
        }
        if takeOut != nil { return retire(key) }
        let executor = executor
        let post: @Sendable (BranchLifecycle.Event) -> Void = { [weak self] event in
            executor.post { [weak self] in self?.drained(key, number: number, event) }
        }
        // End of stream stops at the sink's pad: everything before it is written, and a sink
        // that saw it would post EOS, which a pipeline left with no other sink would take as its
        // own end.
        for sink in sinks {
            sink.addProbe(.eventDownstream) { _, data in
                guard data == .event(.endOfStream) else { return .ok }
                post(.sinkFinished)
                return .drop
            }
        }
        for feed in branch.feeds {
            feed.teePad.addProbe(.idle) { _, _ in
                _ = feed.linked.unlink(from: feed.entry)
                if finishes { feed.entry.send(.endOfStream()) }
                post(.feedUnlinked)
                return .remove
            }
        }
        // A feed whose source stalled, or a sink that never sees end of stream (its file may
        // then lack its end: the output's did-finish says what the file holds), does not keep
        // the branch: at the deadline it is taken out all the same.
        executor.post(at: .now() + (sinks.isEmpty ? .seconds(2) : .seconds(7))) { post(.deadline) }
    }

    /// On the executor: a probe's or the deadline's event for the branch numbered `number`
    /// under `key` (none for one since rebuilt or gone).
    private func drained(_ key: String, number: Int, _ event: BranchLifecycle.Event) {
        guard let (phase, overdue) = live.withLock({ live -> (BranchLifecycle.Phase, Bool?)? in
            guard let part = live.branches[key], part.number == number else { return nil }
            return (part.lifecycle.phase, live.move(key, event))
        }) else { return }
        guard let overdue else { return }
        if overdue, case .draining(let feeds, let sinks) = phase {
            CaptureLog.logger.warning("branch \(key): \(feeds) feed(s) not unlinked and \(sinks) sink(s) without end of stream at the deadline; removing the branch anyway")
        }
        retire(key)
    }

    /// Takes a drained branch out: removes its bin, gives the tees their pads back, tells its
    /// output, then runs what waited for no branch to drain.
    private func retire(_ key: String) {
        guard let (branch, error) = live.withLock({ live -> (LiveBranch, CaptureError)? in
            guard let part = live.branches[key], let branch = part.running else { return nil }
            live.branches[key]?.running = nil
            return (branch, part.drainError ?? .captureCancelled)
        }) else { return }
        pipeline.remove(branch.bin)
        for feed in branch.feeds { feed.release() }
        if let output = branch.output { detach(output, error: error) }
        // The branch's threads (an encoder's workers, a queue's) freed their memory into arenas
        // glibc keeps: without this, resident memory grew by ~600 KB a recording.
        GStreamer.releaseFreeMemory()
        runWhenDrained()
    }

    /// Tells `output` its branch is gone; until it has finished its own work (`afterDetach`:
    /// a WHEP server its port), the runtime counts as draining.
    func detach(_ output: any OutputNode, error: CaptureError) {
        output.detach(error: error)
        // Counted before the answer can come: it comes as an event, after this step.
        live.withLock { $0.detaching += 1 }
        let waits = output.afterDetach { [self] in
            executor.post { [self] in
                live.withLock { $0.detaching -= 1 }
                runWhenDrained()
            }
        }
        if !waits { live.withLock { $0.detaching -= 1 } }
    }

    /// Runs what waited for no branch to drain, if none does now.
    func runWhenDrained() {
        let waiting = live.withLock { live -> [@Sendable () -> Void] in
            guard !live.isDraining else { return [] }
            defer { live.whenDrained = [] }
            return live.whenDrained
        }
        for then in waiting { then() }
    }
}
