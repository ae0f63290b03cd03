import GStreamerSwift
@_spi(Plan) @testable import CaptureKit

/// A standalone pipeline made from plan elements linked one after another (no tee), the way the
/// runtime makes its elements: for testing a source chain and a branch chain on their own.
struct PlanPipeline {
    let pipeline: Pipeline
    private let elements: [String: Element]

    init(_ chain: [PipelinePlan.Element]) throws {
        pipeline = Pipeline(name: "plan-test")
        var made: [Element] = []
        for planned in chain {
            let element = try Element(planned: planned)
            pipeline.add(element)
            made.append(element)
        }
        for (upstream, downstream) in zip(made, made.dropFirst()) { try upstream.link(to: downstream) }
        elements = Dictionary(uniqueKeysWithValues: made.map { ($0.name, $0) })
    }

    subscript(name: String) -> Element { elements[name]! }
}
