import GStreamerSwift

/// A source in the running pipeline: the bin of elements before its tee, and the per-source
/// state that lives as long as it does (a painter such as the virtual camera's sensor, the auto-control loop,
/// the subject-area monitor). Branches come and go without touching it.
struct RunningSource: Sendable {
    let plan: PipelinePlan.Source
    let input: SessionGraph.Input
    let bin: Bin
    let tee: Element
    let painter: (any FramePainter)?
    /// What the device's control changes are handed to while the source runs.
    let controls: SourceControls
    /// Out of the pipeline while its device is gone or busy; its tee and branches stay.
    var isSuspended = false

    /// Builds the source bin for `plan` (without its tee) with a ghost `src` pad, and installs
    /// the per-source probes: a painter (the virtual sensor) paints at the caps filter, the auto-control
    /// loop and the subject-area monitor meter what leaves the bin.
    static func make(_ plan: PipelinePlan.Source, input: SessionGraph.Input, tee: Element) throws(CaptureError) -> RunningSource {
        let head = plan.head
        let bin = try Bin.planned(PipelinePlan.Role.bin.name(in: plan.key), elements: head,
                                  links: PipelinePlan.Link.chain(head))
        let format = input.format
        let device = input.device
        var painter: (any FramePainter)?
        do throws(GStreamerError) {
            let exit = try bin.element(named: head[head.count - 1].name).staticPad("src")
            let ghost = try bin.addGhostPad(name: "src", target: exit)
            if !device.backend.endsStream {
                // A failing source (a camera unplugged) sends end of stream after its error; let
                // through, it would end every branch and then the session.
                ghost.addProbe(.eventDownstream) { _, data in data == .event(.endOfStream) ? .drop : .ok }
            }
            painter = try device.backend.prepare(bin, prefix: plan.key, device: device, format: format)
            if plan.mediaType == .video, format.pixelFormat.gstFormat != nil {
                // The auto-control loop meters every camera's frames (not the benchmarks' test
                // pattern): the virtual sensor's before it draws the moving square, others' as they leave.
                let loop = device.capabilities.metersFrames ? AutoControlLoop(
                    device: device, width: format.width, height: format.height, pixelFormat: format.pixelFormat,
                    targetLuma: painter?.targetLuma(pixelFormat: format.pixelFormat) ?? AutoControlLoop.middleGray) : nil
                if let painter {
                    painter.install(on: try bin.element(.caps, in: plan.key).staticPad("src"), loop: loop,
                                   source: try bin.element(.src, in: plan.key))
                }
                let monitor = SubjectAreaMonitor(device: device, width: format.width, height: format.height, pixelFormat: format.pixelFormat)
                let exitLoop = painter == nil ? loop : nil
                let paints = painter != nil
                ghost.addBufferProbe { buffer in
                    let time = buffer.presentationTime.map { CaptureTime(nanoseconds: $0) }
                    if !paints, let time { device.advanceZoomRamp(at: time) }
                    guard monitor.isActive || exitLoop != nil else { return .pass }
                    try? buffer.withBytes { bytes in
                        if monitor.isActive { monitor.inspect(bytes) }
                        exitLoop?.process(bytes, at: time)
                    }
                    return .pass
                }
            }
        } catch {
            throw .pipelineFailed(error)
        }
        // A camera's own automatic modes are read back at the frame rate while the source runs.
        let readback = plan.mediaType == .video ? device.backend.controller.flatMap { controller in
            controller.readsAutoValues ? AutoValueReadback(device: device, controller: controller, frameRate: input.frameRate) : nil
        } : nil
        let controls = SourceControls(source: try? bin.element(.src, in: plan.key), crop: try? bin.element(.crop, in: plan.key),
                                      backend: device.backend, readback: readback)
        if plan.mediaType == .video, device.completesByMetering { device.setRunningSource(controls) }
        return RunningSource(plan: plan, input: input, bin: bin, tee: tee, painter: painter, controls: controls)
    }
}

/// A running source's elements that control changes reach: the device element (its controls,
/// as its backend writes them) and the digital-zoom crop. Registered with the device while it runs.
final class SourceControls: RunningSourceControl {
    let source: Element?
    let crop: Element?
    let backend: any DeviceBackend
    /// Reads the camera's own automatic values while the source runs.
    let readback: AutoValueReadback?

    init(source: Element?, crop: Element?, backend: any DeviceBackend, readback: AutoValueReadback? = nil) {
        self.source = source
        self.crop = crop
        self.backend = backend
        self.readback = readback
    }

    func stopped() { readback?.cancel() }

    func writeControls(_ controls: [(name: String, value: String)]) throws(CaptureError) -> CaptureTime? {
        guard let source else { return nil }
        do {
            try backend.write(controls, to: source)
        } catch {
            throw .pipelineFailed(error, element: source.name)
        }
        return source.runningTime.map { CaptureTime(nanoseconds: $0) }
    }

    func readControl(_ name: String) -> String? { try? source?.get(name) }

    func setCrop(_ margins: DigitalZoom.Crop) throws(CaptureError) {
        guard let crop else { return }
        do {
            for (name, value) in [("left", margins.left), ("right", margins.right), ("top", margins.top), ("bottom", margins.bottom)] {
                try crop.set(name, .int(value))
            }
        } catch {
            throw .pipelineFailed(error, element: crop.name)
        }
    }
}
