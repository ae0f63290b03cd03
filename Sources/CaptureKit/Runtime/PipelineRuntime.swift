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
            for input in graph.inputs {
                let format = input.format
                guard format.pixelFormat.gstFormat != nil else { continue }
                let device = input.device
                let sensor = device.source == .virtual ? VirtualCameraSensor(device: device, width: format.width, height: format.height) : nil
                var isTestPattern = false
                if case .testPattern = device.source { isTestPattern = true }
                // The auto-control loop meters every camera's frames (not the benchmarks' test
                // pattern): the virtual sensor's before it draws the moving square, others' at the tee.
                let loop = isTestPattern ? nil : AutoControlLoop(
                    device: device, width: format.width, height: format.height, pixelFormat: format.pixelFormat,
                    targetLuma: sensor?.targetLuma(pixelFormat: format.pixelFormat) ?? AutoControlLoop.middleGray)
                if let sensor {
                    sensor.install(on: try made["\(input.name)_caps"]!.staticPad("src"), loop: loop)
                    sensors[input.name] = sensor
                }
                let monitor = SubjectAreaMonitor(device: device, width: format.width, height: format.height, pixelFormat: format.pixelFormat)
                let teeLoop = sensor == nil ? loop : nil
                try made["\(input.name)_tee"]!.staticPad("sink").addBufferProbe { buffer in
                    let time = buffer.presentationTime.map { CaptureTime(nanoseconds: $0) }
                    if sensor == nil, let time { device.advanceZoomRamp(at: time) }
                    guard monitor.isActive || teeLoop != nil else { return .pass }
                    try? buffer.withBytes { bytes in
                        if monitor.isActive { monitor.inspect(bytes) }
                        teeLoop?.process(bytes, at: time)
                    }
                    return .pass
                }
            }
            self.sensors = sensors
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
        for input in graph.inputs where input.device.source != .virtual {
            input.device.setLiveElements(source: try? pipeline.element(named: "\(input.name)_src"),
                                         crop: try? pipeline.element(named: "\(input.name)_crop"))
        }
    }

    /// Stops the pipeline (NULL), the bus thread, and tells outputs their branches are gone.
    func stop() {
        for input in graph.inputs { input.device.setLiveElements(source: nil, crop: nil) }
        watch.withLock { $0?.stop(); $0 = nil }
        try? pipeline.setState(.null)
        for branch in graph.branches { branch.output.detach() }
    }
}
