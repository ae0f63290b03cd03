import Foundation
import GStreamerSwift

extension VideoPreview {
    var wantsBranch: Bool { sink != .none }

    /// `queue ! [videoflip] ! [videocrop] ! videoscale ! videoconvert ! caps ! [labels] ! sink`:
    /// the picture turned for the connection's orientation and mirroring, fitted to the view's
    /// size by gravity (videoscale's borders for `.resizeAspect`, a centred crop for
    /// `.resizeAspectFill`, a stretch for `.resize`), then shown. The leaky queue drops frames
    /// a slow display cannot take, so the preview never holds the camera back.
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        branch(prefix: prefix, source: source, windowSinks: [:])
    }

    /// The chain, its window sink the one `windowSinks` names (the compiler's environment).
    func branch(prefix: String, source: SourceFormat, windowSinks: [PreviewSink: String]) -> [PipelinePlan.Element] {
        let (gravity, bounds, sink, overlay) = state.withLock { ($0.gravity, $0.bounds, $0.sink, $0.overlay != nil) }
        let (orientation, mirrored) = connection?.orientationState ?? (.landscapeRight, false)
        let turned = orientation == .portrait || orientation == .portraitUpsideDown
        let shown = turned ? (width: source.height, height: source.width) : (width: source.width, height: source.height)
        let view = Self.viewSize(bounds: bounds, shown: shown)

        var chain: [PipelinePlan.Element] = [
            .init("queue", .queue, in: prefix, [.init("leaky", .nick("downstream")), .init("max-size-buffers", 2)]),
        ]
        let direction = orientation.videoFlipDirection(mirrored: mirrored)
        if direction != "identity" {
            chain.append(.init("videoflip", .flip, in: prefix, [.init("video-direction", .nick(direction))]))
        }
        if gravity == .resizeAspectFill, let crop = Self.fillCrop(shown: shown, view: view) {
            chain.append(.init("videocrop", .crop, in: prefix, [
                .init("left", .int(crop.left)), .init("right", .int(crop.right)), .init("top", .int(crop.top)), .init("bottom", .int(crop.bottom)),
            ]))
        }
        chain.append(.init("videoscale", .scale, in: prefix, [.init("add-borders", .bool(gravity == .resizeAspect ))]))
        chain.append(.init("videoconvert", .convert, in: prefix))
        let format: String? = switch sink {
        case .frames(.bgra): "BGRA"
        case .frames(.jpeg): overlay ? "BGRx" : "I420"
        default: overlay ? "BGRx" : nil
        }
        let caps = "video/x-raw" + (format.map { ",format=\($0)" } ?? "") + ",width=\(view.width),height=\(view.height),pixel-aspect-ratio=1/1"
        chain.append(.init("capsfilter", .caps, in: prefix, [.init("caps", .caps(caps))]))
        if overlay {
            for index in 0..<PreviewOverlay.maximumLabels {
                chain.append(.init("textoverlay", .label(index), in: prefix, [
                    .init("silent", true), .init("halignment", .nick("left")), .init("valignment", .nick("top")),
                    .init("font-desc", .string("Sans Bold 12")), .init("shaded-background", true), .init("xpad", 0), .init("ypad", 0),
                ]))
            }
        }
        chain += sinkElements(prefix: prefix, sink: sink, overlay: overlay, windowSink: windowSinks[sink])
        return chain
    }

    /// The chain as a branch of the first port's tee, linked in order; a label (`textoverlay`)
    /// takes the picture at its `video_sink` pad (its `text_sink` is for text buffers).
    func plan(_ branch: SessionGraph.Branch, graph: SessionGraph) -> PipelinePlan.Branch {
        let input = graph.inputs[branch.input]
        let chain = self.branch(prefix: branch.name, source: SourceFormat(input), windowSinks: graph.environment.windowSinks)
        let links = zip(chain, chain.dropFirst()).map { from, to in
            PipelinePlan.Link(from: from.name, to: to.factory == "textoverlay" ? "\(to.name).video_sink" : to.name)
        }
        return PipelinePlan.Branch(key: branch.name, elements: chain, links: links,
                                   entries: [.init(source: branch.stage ?? input.name, element: chain[0].name)], finishesWithEndOfStream: false)
    }

    private func sinkElements(prefix: String, sink: PreviewSink, overlay: Bool, windowSink: String?) -> [PipelinePlan.Element] {
        let timing: [PipelinePlan.Property] = [.init("sync", false), .init("async", false)]
        let appsink: [PipelinePlan.Property] = timing + [
            .init("emit-signals", false), .init("enable-last-sample", false), .init("max-buffers", 1), .init("drop", true),
            .init("wait-on-eos", false),
        ]
        switch sink {
        case .window, .kms:
            // Nothing opens the display: a fakesink, and ``failure`` says why once attached, so
            // the session starts and runs on without the picture.
            return [.init(windowSink ?? "fakesink", .sink, in: prefix, timing)]
        case .frames(.bgra):
            return [.init("appsink", .sink, in: prefix, appsink)]
        case .frames(.jpeg):
            return (overlay ? [.init("videoconvert", .jpegconvert, in: prefix)] : [])
                + [.init("jpegenc", .jpeg, in: prefix, [.init("quality", 80)]), .init("appsink", .sink, in: prefix, appsink)]
        case .none:
            return [.init("fakesink", .sink, in: prefix, timing)]
        }
    }

    func attach(_ branch: RunningBranch) throws(CaptureError) {
        let sinkElement = try branch.element(.sink)
        let overlay = state.withLock { $0.overlay != nil }
        var labels: [GStreamerSwift.Element] = []
        if overlay {
            for index in 0..<PreviewOverlay.maximumLabels { labels.append(try branch.element(.label(index))) }
            let size = Self.size(ofCaps: (try? branch.element(.caps).get("caps")) ?? "")
            try branch.pad(.caps, "src").addBufferProbe { [weak self] buffer in
                self?.drawOverlay(&buffer, width: size.width, height: size.height)
                return .pass
            }
        }
        try branch.pad(.sink, "sink").addBufferProbe { [weak self] _ in
            self?.shown.add(1, ordering: .relaxed)
            return .pass
        }
        let factory = sinkElement.factory
        state.withLock {
            $0.sinkName = factory == "fakesink" ? nil : factory
            $0.labels = labels
            $0.failure = factory != "fakesink" || $0.sink == .none ? nil
                : CaptureError(code: .branchFailed, message: "preview (\(branch.prefix)) shows nothing: \(WindowSink.unavailable($0.sink)); the session keeps running",
                               element: sinkElement.name)
            $0.layouts = LayoutCache()
        }
        showLabels()
        if factory == "appsink" {
            let slot = branch.slot
            AppSink.setHandlers(.init(newSample: { [weak self] sample in
                self?.deliver(sample, from: slot.connection)
            }), on: sinkElement)
        }
    }

    /// The branch is gone: with `branchFailed` (the window was closed, the display went away)
    /// the preview says why in ``failure``.
    func detach(error: CaptureError) {
        state.withLock {
            $0.labels = []
            if error.code != .captureCancelled { $0.failure = error }
        }
    }

    /// A connection's orientation or mirroring changed: a running preview turns its picture.
    func connectionOrientationChanged() { owner.branchChanged() }

    /// The width and height a caps filter's caps fix (`width=(int)320` or `width=320`, escaped
    /// or not, as a caps property reads; 0 when they do not).
    static func size(ofCaps escaped: String) -> (width: Int, height: Int) {
        let caps = escaped.replacingOccurrences(of: "\\", with: "")
        func field(_ name: String) -> Int {
            guard let range = caps.range(of: "\(name)=") else { return 0 }
            let rest = caps[range.upperBound...].drop { !$0.isNumber }
            return Int(rest.prefix { $0.isNumber }) ?? 0
        }
        return (field("width"), field("height"))
    }

    /// The view's size in pixels: `bounds` rounded to even numbers, or the picture's size as
    /// shown when `bounds` is empty.
    static func viewSize(bounds: CGRect, shown: (width: Int, height: Int)) -> (width: Int, height: Int) {
        guard bounds.width >= 1, bounds.height >= 1 else { return shown }
        return (max(2, Int(bounds.width.rounded()) / 2 * 2), max(2, Int(bounds.height.rounded()) / 2 * 2))
    }

    /// The pixels `.resizeAspectFill` crops from each side of the picture as shown, so that
    /// what remains has the view's aspect; nil when nothing is cropped.
    static func fillCrop(shown: (width: Int, height: Int), view: (width: Int, height: Int)) -> (left: Int, right: Int, top: Int, bottom: Int)? {
        let shownAspect = Double(shown.width) / Double(shown.height), viewAspect = Double(view.width) / Double(view.height)
        if shownAspect > viewAspect {
            let excess = shown.width - Int((Double(shown.height) * viewAspect).rounded())
            return excess < 2 ? nil : (excess / 2, excess - excess / 2, 0, 0)
        }
        let excess = shown.height - Int((Double(shown.width) / viewAspect).rounded())
        return excess < 2 ? nil : (0, 0, excess / 2, excess - excess / 2)
    }
}
