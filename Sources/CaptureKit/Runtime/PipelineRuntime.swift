import GStreamerSwift
import Synchronization

/// A plan instantiated as a GStreamer pipeline: elements made and linked one by one and the
/// virtual cameras' sensors installed when built (possibly ahead of time, in the NULL state, so
/// that `startRunning` only has to play it); outputs attached and the bus read on a thread of
/// its own when started.
final class PipelineRuntime: Sendable {
    let plan: PipelinePlan
    let pipeline: Pipeline
    let sensors: [String: VirtualCameraSensor]
    let graph: SessionGraph
    private let watch = Mutex<BusWatch?>(nil)

    /// Builds the pipeline for `graph` (compiled to `plan`), leaving it in the NULL state:
    /// no device is opened yet.
    init(graph: SessionGraph, plan: PipelinePlan) throws(CaptureError) {
        self.graph = graph
        self.plan = plan
        pipeline = Pipeline(name: "capturekit")
        do throws(GStreamerError) {
            var made: [String: Element] = [:]
            for planned in plan.elements {
                let element = try Element(factory: planned.factory, name: planned.name)
                for property in planned.properties { try element.set(property.name, property.value) }
                pipeline.add(element)
                made[planned.name] = element
            }
            for link in plan.links {
                try made[link.from]!.link(to: made[link.to]!)
            }
            var sensors: [String: VirtualCameraSensor] = [:]
            for input in graph.inputs where input.device.source == .virtual {
                let sensor = VirtualCameraSensor(width: input.format.width, height: input.format.height)
                sensor.install(on: try made["\(input.name)_caps"]!.staticPad("src"))
                sensors[input.name] = sensor
            }
            self.sensors = sensors
        } catch {
            throw .pipelineFailed(element: nil, message: error.description)
        }
    }

    /// Attaches the outputs, starts reading the bus (`onMessage` runs on the bus thread), sets
    /// the pipeline PLAYING and waits for it.
    func start(onMessage: @escaping @Sendable (BusMessage) -> Void) throws(CaptureError) {
        for branch in graph.branches {
            try branch.output.attach(RunningBranch(prefix: branch.name, pipeline: pipeline, connection: branch.connection))
        }
        watch.withLock { $0 = BusWatch(pipeline: pipeline, handler: onMessage) }
        do {
            try pipeline.setState(.playing)
        } catch {
            stop()
            throw .pipelineFailed(element: nil, message: error.description)
        }
    }

    /// Whether this runtime was built for the same plan and the same output and connection objects.
    func matches(_ other: SessionGraph, plan otherPlan: PipelinePlan) -> Bool {
        plan == otherPlan && graph.identity == other.identity
    }

    /// Stops the pipeline (NULL), the bus thread, and tells outputs their branches are gone.
    func stop() {
        watch.withLock { $0?.stop(); $0 = nil }
        try? pipeline.setState(.null)
        for branch in graph.branches { branch.output.detach() }
    }
}
