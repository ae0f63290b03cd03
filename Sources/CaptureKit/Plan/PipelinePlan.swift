/// A compiled session: elements with deterministic names, their properties, and links.
///
/// Pure data, built without GStreamer; `launchDescription` renders it as the
/// `gst-launch-1.0` line that runs the same pipeline (less CaptureKit's probes and callbacks).
public struct PipelinePlan: Sendable, Equatable {
    /// One element to make: `factory` named `name`, with properties in order.
    public struct Element: Sendable, Equatable {
        public var factory: String
        public var name: String
        public var properties: [Property]

        public init(_ factory: String, name: String, _ properties: [Property] = []) {
            self.factory = factory
            self.name = name
            self.properties = properties
        }
    }

    /// A property in textual form, converted to the property's type when built.
    public struct Property: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A link from one element's source to another's sink.
    public struct Link: Sendable, Equatable {
        public var from: String
        public var to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    public var elements: [Element]
    public var links: [Link]

    public init(elements: [Element] = [], links: [Link] = []) {
        self.elements = elements
        self.links = links
    }

    /// Appends elements linked one after another, the first linked from `upstream` if given.
    mutating func appendChain(_ chain: [Element], from upstream: String?) {
        var previous = upstream
        for element in chain {
            elements.append(element)
            if let previous { links.append(Link(from: previous, to: element.name)) }
            previous = element.name
        }
    }
}
