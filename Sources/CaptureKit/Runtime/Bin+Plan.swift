import GStreamerSwift

extension Bin {
    /// A bin named `name` holding `elements` (made, with their properties) and `links`.
    static func planned(_ name: String, elements: [PipelinePlan.Element], links: [PipelinePlan.Link]) throws(CaptureError) -> Bin {
        let bin = Bin(name: name)
        do throws(GStreamerError) {
            for planned in elements { bin.add(try Element(planned: planned)) }
            for link in links {
                let sink = try bin.pad(link.to, direction: "sink")
                if let decoder = try? bin.element(named: link.from), !link.from.contains("."), (try? decoder.staticPad("src")) == nil {
                    // A decoder (decodebin) adds its pads once it knows the stream: link its raw video.
                    decoder.onPadAdded { pad in
                        if pad.isRawVideo { try? pad.link(to: sink) }
                    }
                    continue
                }
                try bin.pad(link.from, direction: "src").link(to: sink)
            }
        } catch {
            throw .pipelineFailed(error)
        }
        return bin
    }

    /// The element with `role` in the part keyed `part`.
    func element(_ role: PipelinePlan.Role, in part: String) throws(GStreamerError) -> Element {
        try element(named: role.name(in: part))
    }

    /// The pad a link end names: `element.pad` (a static pad, or a request pad when it is a
    /// template such as `video_%u` or a request-only name such as hlssink2's `video`), or the
    /// element's always pad `src`/`sink`.
    func pad(_ end: String, direction: String) throws(GStreamerError) -> Pad {
        let parts = end.split(separator: ".", maxSplits: 1).map(String.init)
        let element = try element(named: parts[0])
        guard parts.count == 2 else { return try element.staticPad(direction) }
        if !parts[1].contains("%"), let pad = try? element.staticPad(parts[1]) { return pad }
        return try element.requestPad(parts[1])
    }
}

extension Element {
    /// The element a plan names, made with its properties.
    convenience init(planned: PipelinePlan.Element) throws(GStreamerError) {
        try self.init(factory: planned.factory, name: planned.name)
        for property in planned.properties { try set(property.name, property.value) }
    }
}
