import GStreamerSwift

/// A source chain built directly on the GStreamer layer, the benchmarks' reference: the parts
/// (a factory and its typed properties) linked in order into an appsink that
/// does not sync.
enum DirectChain {
    typealias Part = (factory: String, properties: [(String, PropertyValue)])

    /// The pipeline, not yet started, and its appsink (with `sinkCaps` when given).
    static func make(_ parts: [Part], sinkCaps: String? = nil, name: String = "direct") throws -> (Pipeline, Element) {
        let pipeline = Pipeline(name: name)
        let elements = try parts.enumerated().map { index, part in
            let element = try Element(factory: part.factory, name: "e\(index)")
            for (property, value) in part.properties { try element.set(property, value) }
            return element
        }
        let sink = try Element(factory: "appsink", name: "sink")
        try sink.set("sync", false)
        if let sinkCaps { try sink.set("caps", .caps(sinkCaps)) }
        for element in elements + [sink] { pipeline.add(element) }
        for (upstream, downstream) in zip(elements, elements.dropFirst() + [sink]) { try upstream.link(to: downstream) }
        return (pipeline, sink)
    }
}
