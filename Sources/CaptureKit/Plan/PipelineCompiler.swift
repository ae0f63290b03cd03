/// Compiles a session graph into a pipeline plan. A pure function: no GStreamer call.
///
/// Names are deterministic: `inputN_src`, `inputN_caps`, `inputN_tee` for the Nth input,
/// `outputM_…` for the branch of the output the session numbered M when it was added (never
/// its position), so plans can be compared, diffed and golden-tested.
enum PipelineCompiler {
    static func compile(_ graph: SessionGraph) -> PipelinePlan {
        var plan = PipelinePlan()
        for input in graph.inputs {
            plan.sources.append(.init(key: input.name, mediaType: input.mediaType, device: input.device.uniqueID, elements: sourceChain(input)))
        }
        for branch in graph.branches {
            let input = graph.inputs[branch.input]
            let source = SourceFormat(width: input.format.width, height: input.format.height, frameRate: input.frameRate,
                                      pixelFormat: input.format.pixelFormat.gstFormat == nil ? .i420 : input.format.pixelFormat)
            plan.branches.append(.init(key: branch.name, chain: branch.output.branch(prefix: branch.name, source: source), source: input.name))
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
            if let controls = input.device.extraControls { properties.append(.init("extra-controls", controls, live: true)) }
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
            chain.append(.init("videocrop", name: "\(name)_crop", [.init("left", "\(crop.left)", live: true), .init("right", "\(crop.right)", live: true),
                                                                   .init("top", "\(crop.top)", live: true), .init("bottom", "\(crop.bottom)", live: true)]))
            chain.append(.init("videoscale", name: "\(name)_zoom"))
            chain.append(.init("capsfilter", name: "\(name)_zoomcaps",
                               [.init("caps", "video/x-raw,width=\(input.format.width),height=\(input.format.height)")]))
        }
        chain.append(.init("tee", name: "\(name)_tee", [.init("allow-not-linked", "true")]))
        return chain
    }
}
