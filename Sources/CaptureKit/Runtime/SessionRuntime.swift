import GStreamerSwift
import Synchronization

/// The one long-lived pipeline of a running session, changed in place while it plays.
///
/// Each source (an input port's elements, ending in a tee that stays for the session) and each
/// output's branch is its own bin. `apply(_:graph:)` diffs the plan it runs against the new one
/// and performs the operations: branches are added from new tee pads and brought to PLAYING,
/// removed at an idle probe on their tee pad, sources swapped behind their tee; the pipeline
/// keeps its clock and base time, so presentation times continue across every change.
///
/// Threading: `apply`, `stop` and the other changes are called one at a time, on the session's
/// executor (`SessionExecutor`), and finish there: a change that waits for the pipeline (a
/// branch to drain, a source to be idle) returns at once and finishes in the executor's event
/// that its probe or deadline posts, calling the `then` it was given. It never waits for a
/// streaming thread, nor for user code. The bus is read on a thread of its own.
final class SessionRuntime: Sendable {
    let pipeline: Pipeline
    let executor: SessionExecutor
    let live = Mutex(Live())
    private let watch = Mutex<BusWatch?>(nil)

    /// What runs now: the plan, and the running parts built from it.
    struct Live {
        var plan = PipelinePlan()
        var sources: [String: RunningSource] = [:]
        /// Every branch the pipeline has had, by key, in its phase (`BranchLifecycle`): joining
        /// (an error its elements post while changing state, a publisher that finds no server,
        /// is its output's), live, draining, or retired (late errors, one posted on the way to
        /// NULL say, concern no one).
        var branches: [String: BranchPart] = [:]
        /// Each branch built gets the next number: a probe's or deadline's event names the branch
        /// it was posted for, and one for a branch since rebuilt under its key changes nothing.
        var built = 0
        /// Run on the executor once no branch drains.
        var whenDrained: [@Sendable () -> Void] = []
        /// Outputs of branches taken out still finishing their own work (`afterDetach`): until
        /// they have, the branches count as draining.
        var detaching = 0

        /// The branch keyed `key` as it runs: joined and not yet taken out.
        func running(_ key: String) -> LiveBranch? {
            branches[key].flatMap { $0.lifecycle.phase == .live ? $0.running : nil }
        }

        /// Starts the branch keyed `key` joining, with a new gate and its output (none for a
        /// stage); a key already joining, live or draining is a programming error (`move`).
        mutating func join(_ key: String, output: (any OutputNode)?, gate: BranchGate) {
            move(key, .join)
            built += 1
            branches[key] = BranchPart(output: output, gate: gate, number: built)
        }

        /// Moves the branch keyed `key` on `event` and closes its gate when the move says so;
        /// when the move takes it out, returns whether that is overdue (else nil). A move the lifecycle does not
        /// have is a programming error: asserted in debug builds, logged and ignored in release
        /// ones.
        @discardableResult
        mutating func move(_ key: String, _ event: BranchLifecycle.Event) -> Bool? {
            do throws(BranchLifecycle.Transition) {
                let effects: [BranchLifecycle.Effect]
                if var part = branches[key] {
                    effects = try part.lifecycle.handle(event)
                    branches[key] = part
                } else {
                    _ = try BranchLifecycle.next(from: nil, on: event)
                    effects = []
                }
                var takeOut: Bool?
                for effect in effects {
                    switch effect {
                    case .closeGate: branches[key]?.gate.close()
                    case .takeOut(let overdue): takeOut = overdue
                    }
                }
                return takeOut
            } catch {
                CaptureLog.logger.critical("branch \(key): \(error)")
                assertionFailure("branch \(key): \(error)")
                return nil
            }
        }

        /// Whether a branch is draining.
        var isDraining: Bool { detaching > 0 || branches.values.contains { $0.lifecycle.isDraining } }
    }

    /// One branch's phase, the gate its feeds pass frames through, its output (none for an
    /// encoded stage), and its running parts once joined.
    struct BranchPart {
        var lifecycle = BranchLifecycle()
        let output: (any OutputNode)?
        let gate: BranchGate
        /// Which branch built under its key this is (`Live.built`).
        let number: Int
        var running: LiveBranch?
        /// What its output is told when it is out (set when it starts draining).
        var drainError: CaptureError?
    }

    /// Makes an empty pipeline and starts reading its bus: `onMessage` runs on the bus thread.
    /// Changes that wait for the pipeline finish in events posted to `executor`.
    init(executor: SessionExecutor, onMessage: @escaping @Sendable (BusMessage, MessageOrigin) -> Void) {
        self.executor = executor
        pipeline = Pipeline(name: "capturekit")
        // On the failing element's thread, before its error flows back up: the branch's feeds
        // drop from now on, so the tee it hangs from (a source's, or an encoded stage's shared
        // by other outputs) never sees the error. The bus thread then takes the branch out.
        pipeline.bus.setErrorSyncHandler { [weak self] element, origin in
            guard let self, case .branch(let key, let output) = owner(of: origin), !output.takesError(fromElement: element) else { return }
            _ = live.withLock { $0.move(key, .failed) }
        }
        watch.withLock { $0 = BusWatch(pipeline: pipeline, routing: onMessage) }
    }

    /// The plan the pipeline runs.
    var plan: PipelinePlan { live.withLock { $0.plan } }

    /// Builds everything in `plan` and sets the pipeline PLAYING. On a failure, `failing` is
    /// told the error at once and the runtime stops; `then` runs once it has (with the error),
    /// or once it plays (nil).
    func start(_ plan: PipelinePlan, graph: SessionGraph, failing: @escaping @Sendable (CaptureError) -> Void,
               then done: @escaping @Sendable (CaptureError?) -> Void) {
        apply(plan, graph: graph) { [self] error in
            if let error {
                failing(error)
                return stop { done(error) }
            }
            do throws(GStreamerError) {
                try pipeline.setState(.playing)
            } catch {
                failing(.pipelineFailed(error))
                return stop { done(.pipelineFailed(error)) }
            }
            done(nil)
        }
    }

    /// Turns the pipeline into one running `plan`: only what differs is touched. The branches
    /// to remove start draining first; the other operations run, in order, once they are out.
    /// `then` gets the error of the operation that could not be made (the pipeline is then
    /// part way), or nil.
    func apply(_ plan: PipelinePlan, graph: SessionGraph, then done: @escaping @Sendable (CaptureError?) -> Void) {
        // Branches that stay serve their new connections before a new camera's first frame.
        let operations = live.withLock { live in
            for node in graph.branches { live.running(node.name)?.slot?.connection = node.connection }
            return live.plan.diff(to: plan)
        }
        CaptureLog.logger.debug("runtime: \(operations.count) operation(s)\(operations.isEmpty ? "" : ": ")\(operations.map(\.summary).joined(separator: ", "))")
        var rest: [PlanOperation] = []
        for operation in operations {
            if case .removeBranch(let key) = operation { removeBranch(key, error: .captureCancelled) } else { rest.append(operation) }
        }
        whenDrained { [self, rest] in perform(rest[...], plan: plan, graph: graph, then: done) }
    }

    /// Performs `operations` in order; one that waits for the pipeline (a source taken out at
    /// an idle moment) goes on from the event that finishes it.
    private func perform(_ operations: ArraySlice<PlanOperation>, plan: PipelinePlan, graph: SessionGraph,
                         then done: @escaping @Sendable (CaptureError?) -> Void) {
        var remaining = operations
        while let operation = remaining.popFirst() {
            do throws(CaptureError) {
                switch operation {
                case .removeBranch(let key): removeBranch(key, error: .captureCancelled)
                case .removeSource(let key): removeSource(key)
                case .replaceSource(let source):
                    let input = try graph.input(named: source.key)
                    return replaceSource(source, input: input) { [self, remaining] error in
                        if let error { return done(error) }
                        perform(remaining, plan: plan, graph: graph, then: done)
                    }
                case .addSource(let source): try addSource(source, input: graph.input(named: source.key))
                case .setProperty(let element, let name, let value): try setProperty(element, name, value)
                case .addBranch(let branch):
                    try addBranch(branch, graph: graph)
                    let output = graph.branches.first { $0.name == branch.key }?.output
                    let waits = output?.afterAttach { [self, remaining] error in
                        executor.post { [self] in
                            if let error { return done(error) }
                            perform(remaining, plan: plan, graph: graph, then: done)
                        }
                    }
                    if waits == true { return }
                }
            } catch {
                CaptureLog.logger.debug("runtime: \(operation.summary) failed: \(error)")
                return done(error)
            }
        }
        live.withLock { $0.plan = plan }
        done(nil)
    }

    /// Runs `then` on the executor once no branch is draining: at once when none is.
    func whenDrained(_ then: @escaping @Sendable () -> Void) {
        let now = live.withLock { live -> Bool in
            guard live.isDraining else { return true }
            live.whenDrained.append(then)
            return false
        }
        if now { then() }
    }

    /// Finishes the branches that end with end of stream (a recording's file is finished),
    /// then stops the pipeline (NULL), the bus thread, and tells outputs their branches are
    /// gone; `then` runs once all that is done.
    func stop(then done: @escaping @Sendable () -> Void) {
        let finishing = live.withLock { live in
            live.branches.keys.filter { live.running($0)?.plan.finishesWithEndOfStream == true }
        }
        for key in finishing { removeBranch(key, error: .sessionStopped) }
        whenDrained { [self] in
            let (sources, outputs) = live.withLock { live in
                defer { live = Live() }
                return (Array(live.sources.values), live.branches.keys.compactMap { live.running($0)?.output })
            }
            for source in sources { source.input.device.clearRunningSource(source.controls) }
            watch.withLock { $0?.stop(); $0 = nil }
            try? pipeline.setState(.null)
            // Stopped once every output has finished its own work (a WHEP server its port): at
            // once when none has any, else at the event of the last to finish.
            for output in outputs { detach(output, error: .captureCancelled) }
            whenDrained(done)
        }
    }

    /// Takes a failed branch out of the pipeline and the plan (a later commit builds it again);
    /// its output's waiting work fails with `error`. `then` runs once it is out.
    func dropBranch(_ key: String, error: CaptureError, then done: @escaping @Sendable () -> Void) {
        removeBranch(key, error: error, finish: false)
        live.withLock { $0.plan.branches.removeAll { $0.key == key } }
        whenDrained(done)
    }

    /// Who owns the element a message came from, by which part of the pipeline holds it (the
    /// source's bin or tee, a branch's bin), never by its name: a source, a branch, a branch
    /// already taken out (or anything in a bin out of the pipeline), or none of them.
    func owner(of origin: MessageOrigin) -> Owner {
        guard let part = origin.part(of: pipeline.name) else { return .retired(key: origin.detachedPart ?? "") }
        return live.withLock { live in
            if let branch = live.branches[part] {
                if !branch.lifecycle.ownsErrors { return .retired(key: part) }
                // A stage's failure (its encoder) is the pipeline's: every output on it is affected.
                if let output = branch.output { return .branch(key: part, output: output) }
            }
            if let key = live.sources.first(where: { $0.value.bin.name == part || $0.value.tee.name == part })?.key { return .source(key: key) }
            return .pipeline
        }
    }

    enum Owner {
        case source(key: String)
        case branch(key: String, output: any OutputNode)
        /// A branch already taken out.
        case retired(key: String)
        case pipeline
    }

    private func setProperty(_ element: String, _ name: String, _ value: PropertyValue) throws(CaptureError) {
        do {
            try pipeline.element(named: element).set(name, value)
        } catch {
            throw .pipelineFailed(error)
        }
    }
}

extension SessionGraph {
    /// The input whose source plan is keyed `name`.
    func input(named name: String) throws(CaptureError) -> Input {
        guard let input = inputs.first(where: { $0.name == name }) else {
            throw .pipelineFailed(element: name, message: "no input '\(name)' in the session graph")
        }
        return input
    }
}
