import GStreamerSwift
import Synchronization

/// A plan instantiated as a GStreamer pipeline: elements made and linked one by one, the
/// virtual cameras' sensors installed and the bus read on a thread of its own when built;
/// outputs attached when started.
final class PipelineRuntime: Sendable {
    let plan: PipelinePlan
    let pipeline: Pipeline
    let sensors: [String: VirtualCameraSensor]
    let graph: SessionGraph
    private let watch = Mutex<BusWatch?>(nil)

    /// Builds the pipeline for `graph` (compiled to `plan`), leaving it in the NULL state (no
    /// device is opened yet), and starts reading its bus: `onMessage` runs on the bus thread.
    init(graph: SessionGraph, plan: PipelinePlan, onMessage: @escaping @Sendable (BusMessage) -> Void) throws(CaptureError) {
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
                let sensor = VirtualCameraSensor(device: input.device, width: input.format.width, height: input.format.height)
                sensor.install(on: try made["\(input.name)_caps"]!.staticPad("src"))
                sensors[input.name] = sensor
            }
            self.sensors = sensors
            // Every input's frames pass the subject-area monitor before the tee (raw formats only).
            for input in graph.inputs where input.format.pixelFormat.gstFormat != nil {
                let monitor = SubjectAreaMonitor(device: input.device, width: input.format.width, height: input.format.height,
                                                 pixelFormat: input.format.pixelFormat)
                try made["\(input.name)_tee"]!.staticPad("sink").addBufferProbe { buffer in
                    if monitor.isActive { try? buffer.withBytes { monitor.inspect($0) } }
                    return .pass
                }
            }
        } catch {
            throw .pipelineFailed(element: nil, message: error.description)
        }
        watch.withLock { $0 = BusWatch(pipeline: pipeline, handler: onMessage) }
    }

    /// Attaches the outputs, sets the pipeline PLAYING and waits for it.
    func start() throws(CaptureError) {
        for branch in graph.branches {
            try branch.output.attach(RunningBranch(prefix: branch.name, pipeline: pipeline, connection: branch.connection))
        }
        do {
            try pipeline.setState(.playing)
        } catch {
            stop()
            throw .pipelineFailed(element: nil, message: error.description)
        }
        for input in graph.inputs {
            if case .v4l2 = input.device.source { input.device.setLiveSource(try? pipeline.element(named: "\(input.name)_src")) }
        }
    }

    /// Stops the pipeline (NULL), the bus thread, and tells outputs their branches are gone.
    func stop() {
        for input in graph.inputs { input.device.setLiveSource(nil) }
        watch.withLock { $0?.stop(); $0 = nil }
        try? pipeline.setState(.null)
        for branch in graph.branches { branch.output.detach() }
    }
}
