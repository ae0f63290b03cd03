/// Compiles a session graph into a pipeline plan. A pure function: no GStreamer call.
///
/// Names are deterministic: `inputN_src`, `inputN_caps`, `inputN_tee` for the Nth input,
/// `outputM_…` for the Mth output's branch, so plans can be compared and golden-tested.
enum PipelineCompiler {
    static func compile(_ graph: SessionGraph) -> PipelinePlan {
        var plan = PipelinePlan()
        for (index, input) in graph.inputs.enumerated() {
            plan.appendChain(sourceChain(input), from: nil)
            let tee = "\(input.name)_tee"
            let source = SourceFormat(width: input.format.width, height: input.format.height, frameRate: input.frameRate,
                                      pixelFormat: input.format.pixelFormat.gstFormat == nil ? .i420 : input.format.pixelFormat)
            for branch in graph.branches where branch.input == index {
                plan.appendChain(branch.output.branch(prefix: branch.name, source: source), from: tee)
            }
        }
        return plan
    }

    /// The source part: device element, caps filter for the format, decoder when the device
    /// sends JPEG, and the tee every output branches from.
    static func sourceChain(_ input: SessionGraph.Input) -> [PipelinePlan.Element] {
        let name = input.name
        let caps = input.format.caps(frameRate: input.frameRate)
        var chain: [PipelinePlan.Element]
        switch input.device.source {
        case .virtual:
            chain = [.init("videotestsrc", name: "\(name)_src", [.init("is-live", "true"), .init("pattern", "black")])]
        case .testPattern(let pattern, let isLive, let frameCount):
            var properties: [PipelinePlan.Property] = [.init("is-live", isLive ? "true" : "false"), .init("pattern", pattern)]
            if let frameCount { properties.append(.init("num-buffers", String(frameCount))) }
            chain = [.init("videotestsrc", name: "\(name)_src", properties)]
        case .v4l2(let path):
            var properties: [PipelinePlan.Property] = [.init("device", path)]
            if let controls = input.device.extraControls { properties.append(.init("extra-controls", controls)) }
            chain = [.init("v4l2src", name: "\(name)_src", properties)]
        case .virtualMicrophone, .microphone: return AudioSource.sourceChain(prefix: name, device: input.device, format: input.format) + [.init("tee", name: "\(name)_tee", [.init("allow-not-linked", "true")])]
        }
        chain.append(.init("capsfilter", name: "\(name)_caps", [.init("caps", caps)]))
        if input.format.pixelFormat == .mjpeg {
            chain.append(.init("jpegdec", name: "\(name)_decode"))
        }
        if input.device.zoomsInPipeline {
            // Digital zoom: crop around the centre, scale back to the format's size.
            let crop = DigitalZoom.crop(width: input.format.width, height: input.format.height, factor: input.device.videoZoomFactor)
            chain.append(.init("videocrop", name: "\(name)_crop", [.init("left", "\(crop.left)"), .init("right", "\(crop.right)"),
                                                                   .init("top", "\(crop.top)"), .init("bottom", "\(crop.bottom)")]))
            chain.append(.init("videoscale", name: "\(name)_zoom"))
            chain.append(.init("capsfilter", name: "\(name)_zoomcaps",
                               [.init("caps", "video/x-raw,width=\(input.format.width),height=\(input.format.height)")]))
        }
        chain.append(.init("tee", name: "\(name)_tee", [.init("allow-not-linked", "true")]))
        return chain
    }
}
