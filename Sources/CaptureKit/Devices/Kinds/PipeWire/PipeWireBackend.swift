import GStreamerSwift

/// A camera read through PipeWire: `pipewiresrc` on the node, converted and scaled to the
/// format. A PipeWire consumer whose caps leave out the node's current format waits for ever,
/// so the converters stay (they pass buffers through when the caps already match). A node that
/// sends no timestamps (a `pipewiresink` of another program) gets the running time it arrives at.
struct PipeWireBackend: DeviceBackend {
    /// The node's `node.name`, stable across daemon restarts (its serial is not).
    let node: String
    let mediaType = MediaType.video
    var deviceType: CaptureDevice.DeviceType { .external }
    var route: String { "pipewire" }

    /// PipeWire shares the camera, and its controls with it: CaptureKit leaves them to the
    /// daemon's owner and zooms digitally.
    var capabilities: DeviceCapabilities { .automaticOnly }

    /// Where the camera portal granted access, the source reads through the PipeWire
    /// connection it handed over (`fd`, which the element duplicates).
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        let remote = CameraPortal.remote.withLock { $0 }.map { [PipelinePlan.Property("fd", .int(Int($0)))] } ?? []
        return [.init("pipewiresrc", .src, in: prefix, [.init("target-object", .string(node)), .init("client-name", .string("capturekit")),
                                                              .init("do-timestamp", true)] + remote),
         .init("videoconvert", .pwconvert, in: prefix),
         .init("videoscale", .pwscale, in: prefix)]
            + PipelineCompiler.formatElements(prefix: prefix, device: device, format: format)
    }

    /// The converters absorb a downstream change of caps (a branch added, a format switched);
    /// a RECONFIGURE reaching `pipewiresrc` would make it renegotiate the PipeWire stream, which
    /// PipeWire 0.3's element does by freeing buffers still in use downstream.
    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> (any FramePainter)? {
        try bin.element(.pwconvert, in: prefix).staticPad("sink").addProbe(.eventUpstream) { _, data in
            data == .event(.reconfigure) ? .drop : .ok
        }
        return nil
    }
}
