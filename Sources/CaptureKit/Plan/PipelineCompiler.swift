/// Compiles a session graph into a pipeline plan. A pure function of the graph and the
/// environment it is given: no GStreamer call, no look at the machine.
///
/// Names are deterministic: `inputN_src`, `inputN_caps`, `inputN_tee` for the Nth input,
/// `outputM_…` for the branch of the output the session numbered M when it was added (never
/// its position), so plans can be compared, diffed and golden-tested.
enum PipelineCompiler {
    /// What the compiler is told about the machine: the session's context decides it once.
    struct Environment: Sendable, Equatable {
        /// The H.264 encoder encoded stages use; nil when there is none (outputs that need
        /// one get no stage).
        var videoEncoder: VideoEncoder?
        /// The element that shows a preview's `.window` or `.kms` picture on this display; a
        /// sink missing here opens nothing (the preview gets a fakesink and says why).
        var windowSinks: [PreviewSink: String] = [:]
    }

    static func compile(_ graph: SessionGraph, environment: Environment) -> PipelinePlan {
        var graph = graph
        graph.environment = environment
        var plan = PipelinePlan()
        for input in graph.inputs {
            plan.sources.append(.init(key: input.name, mediaType: input.mediaType, device: input.device.uniqueID, elements: sourceChain(input)))
        }
        var stages: [PipelinePlan.Branch] = []
        for var branch in graph.branches {
            let input = graph.inputs[branch.input]
            let format = SourceFormat(input)
            if let wanted = branch.output.videoEncoding, let encoder = environment.videoEncoder {
                let settings = wanted.resolved(for: format)
                let key = EncodedStage.key(source: input.name, encoder: encoder, settings: settings)
                if !stages.contains(where: { $0.key == key }) {
                    stages.append(EncodedStage.plan(key: key, source: input.name, format: format, encoder: encoder, settings: settings))
                }
                branch.stage = key
            }
            plan.branches.append(branch.output.plan(branch, graph: graph))
        }
        // Stages first: their tees exist before the branches that take from them.
        plan.branches = stages + plan.branches
        return plan
    }

    /// The source part: the device's own elements for its format (from its backend), then the
    /// tee every output branches from.
    static func sourceChain(_ input: SessionGraph.Input) -> [PipelinePlan.Element] {
        input.device.backend.sourceElements(prefix: input.name, device: input.device, format: input.format)
            + [.init("tee", .tee, in: input.name, [.init("allow-not-linked", true)])]
    }

    /// What every camera source has after its device element: the caps filter for the format
    /// at the device's paced rate (a rate change is a live caps change, which the source
    /// renegotiates between two frames; a new format rebuilds the source), a decoder when the
    /// device sends JPEG, and the digital-zoom crop for cameras that zoom in the pipeline.
    static func formatElements(prefix name: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        let caps = PipelinePlan.Property("caps", .caps(format.caps(frameRate: device.pacedFrameRate)), live: true, rebuildKey: format.description)
        var chain: [PipelinePlan.Element] = [.init("capsfilter", .caps, in: name, [caps])]
        if format.pixelFormat == .mjpeg {
            chain.append(.init("jpegdec", .decode, in: name))
        }
        if device.zoomsInPipeline {
            // Digital zoom: crop around the centre, scale back to the format's size.
            let crop = DigitalZoom.crop(width: format.width, height: format.height, factor: device.videoZoomFactor)
            chain.append(.init("videocrop", .crop, in: name, [.init("left", .int(crop.left), live: true), .init("right", .int(crop.right), live: true),
                                                                   .init("top", .int(crop.top), live: true), .init("bottom", .int(crop.bottom), live: true)]))
            chain.append(.init("videoscale", .zoom, in: name))
            chain.append(.init("capsfilter", .zoomcaps, in: name,
                               [.init("caps", .caps("video/x-raw,width=\(format.width),height=\(format.height)"))]))
        }
        return chain
    }
}
