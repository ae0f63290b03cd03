import GStreamerSwift

/// A compiled session: one source plan per input port, each ending in a tee, and one branch
/// plan per output, keyed by the output's stable identity.
///
/// Pure data, built without GStreamer; `launchDescription` renders it as the
/// `gst-launch-1.0` line that runs the same pipeline (less CaptureKit's probes and callbacks),
/// and `diff(to:)` tells a running pipeline what to change. SPI: the public face is
/// `CaptureSession.pipelineDescription`.
@_spi(Plan) public struct PipelinePlan: Sendable, Equatable {
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

        /// A `queue` giving its part a thread of its own, dropping the oldest after `seconds`
        /// (never blocking the tee it hangs off).
        static func leakyQueue(_ role: Role, in part: String, seconds: Int = 1) -> Element {
            Element("queue", role, in: part, [
                Property("leaky", .nick("downstream")), Property("max-size-buffers", 0), Property("max-size-bytes", 0),
                Property("max-size-time", .int(seconds * 1_000_000_000)),
            ])
        }

        /// Whether `other` is the same element (factory and name), whatever its properties.
        func isSameElement(as other: Element) -> Bool { factory == other.factory && name == other.name }
    }

    /// A property and its typed value (checked against the property's declared type when
    /// built: see `PropertyValue`). A `live`
    /// property may be changed on a running element, as long as its `rebuildKey` stays (a
    /// source's caps: the frame rate changes live, a new size or pixel format rebuilds);
    /// changing any other rebuilds its part.
    public struct Property: Sendable, Equatable {
        public var name: String
        public var value: PropertyValue
        public var live: Bool
        /// The part of a live value a running element cannot take: when it differs, the part
        /// is rebuilt. Not rendered.
        public var rebuildKey: String?

        public init(_ name: String, _ value: PropertyValue, live: Bool = false, rebuildKey: String? = nil) {
            self.name = name
            self.value = value
            self.live = live
            self.rebuildKey = rebuildKey
        }
    }

    /// A link from an element's source pad to another's sink pad. Either end may name its pad
    /// (`mux.video_%u`, a request pad); without one, GStreamer picks compatible pads.
    public struct Link: Sendable, Equatable {
        public var from: String
        public var to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }

        /// The links of `elements` one after another.
        static func chain(_ elements: [Element]) -> [Link] {
            zip(elements, elements.dropFirst()).map { Link(from: $0.name, to: $1.name) }
        }
    }

    /// What one input port delivers: its elements linked in order, the last a tee named
    /// `key_tee` that every branch of the port hangs off.
    public struct Source: Sendable, Equatable {
        /// The port's key, `inputN`: the element names' prefix.
        public var key: String
        public var mediaType: MediaType
        /// The device's uniqueID: another device is another source even when the elements
        /// match (two virtual cameras).
        public var device: String
        public var elements: [Element]

        /// The tee at the end of the chain.
        public var tee: Element { elements[elements.count - 1] }
        /// The elements before the tee: what a source replacement swaps.
        public var head: [Element] { Array(elements.dropLast()) }
    }

    /// One output's branch: its elements and their links, and an entry per port it takes
    /// media from.
    public struct Branch: Sendable, Equatable {
        /// Where media enters the branch: from the tee of `source` into `element` (a name, or
        /// `name.pad` for a request pad such as a muxer's `audio_%u`).
        public struct Entry: Sendable, Equatable {
            public var source: String
            public var element: String
        }

        /// The output's stable key, `outputN`, N given when it was added to the session: the
        /// element names' prefix.
        public var key: String
        public var elements: [Element]
        public var links: [Link]
        public var entries: [Entry]
        /// Whether the branch must see end of stream before it is removed (a muxer finishing
        /// its file); others are unlinked at once.
        public var finishesWithEndOfStream: Bool
        /// Parts that join and leave the running branch on their own, each hanging off one of
        /// its tees (a WebRTC viewer): described here and made by the branch's output from this
        /// description, never by ``PipelinePlan/diff(to:)``, which leaves them out.
        public var viewers: [Viewer] = []

        /// A part of a running branch that its output adds and removes (a WebRTC viewer): its
        /// elements, and its links, the first from one of the branch's tees.
        public struct Viewer: Sendable, Equatable {
            public var key: String
            public var elements: [Element]
            public var links: [Link]
        }

        init(key: String, elements: [Element], links: [Link], entries: [Entry], finishesWithEndOfStream: Bool) {
            self.key = key
            self.elements = elements
            self.links = links
            self.entries = entries
            self.finishesWithEndOfStream = finishesWithEndOfStream
        }

        /// The branch's own tee when it is a stage other branches take from (an encoded stage);
        /// nil for an output's branch.
        public var tee: Element? {
            elements.last.flatMap { $0.factory == "tee" && $0.name == Role.tee.name(in: key) ? $0 : nil }
        }

        /// The elements nothing in the branch links from: its sinks, where end of stream ends.
        public var sinks: [Element] {
            let upstream = Set(links.map { PipelinePlan.elementName($0.from) })
            return elements.filter { !upstream.contains($0.name) }
        }

        /// A chain: elements linked one after another, entered at the first from `source`.
        init(key: String, chain: [Element], source: String, finishesWithEndOfStream: Bool = false) {
            self.key = key
            elements = chain
            links = Link.chain(chain)
            entries = [Entry(source: source, element: chain[0].name)]
            self.finishesWithEndOfStream = finishesWithEndOfStream
        }
    }

    public var sources: [Source]
    public var branches: [Branch]

    init(sources: [Source] = [], branches: [Branch] = []) {
        self.sources = sources
        self.branches = branches
    }

    /// Every element, sources first, each followed by its branches.
    public var elements: [Element] {
        orderedParts.flatMap { $0.elements }
    }

    /// Every link: sources' chains, tees into branches, branches' own links.
    public var links: [Link] {
        var links: [Link] = []
        for source in sources {
            links += Link.chain(source.elements)
        }
        for branch in branches {
            for entry in branch.entries {
                if let tee = teeName(of: entry.source) {
                    links.append(Link(from: tee, to: entry.element))
                }
            }
            links += branch.links
            links += branch.viewers.flatMap(\.links)
        }
        return links
    }

    /// The tee a part keyed `key` ends in: a source's, or a stage's.
    func teeName(of key: String) -> String? {
        sources.first { $0.key == key }?.tee.name ?? branches.first { $0.key == key }?.tee?.name
    }

    /// Sources and branches in rendering order: each source, then the branches entering
    /// from it (by their first entry), then branches whose source is missing.
    var orderedParts: [(elements: [Element], links: [Link])] {
        var parts: [(elements: [Element], links: [Link])] = []
        var placed = Set<String>()
        for source in sources {
            parts.append((source.elements, Link.chain(source.elements)))
            for branch in branches where branch.entries.first?.source == source.key {
                parts.append((branch.elements, [Link(from: source.tee.name, to: branch.entries[0].element)] + branch.links))
                parts += branch.viewers.map { ($0.elements, $0.links) }
                placed.insert(branch.key)
            }
        }
        for branch in branches where !placed.contains(branch.key) {
            let entry = branch.entries.first.flatMap { entry in teeName(of: entry.source).map { Link(from: $0, to: entry.element) } }
            parts.append((branch.elements, (entry.map { [$0] } ?? []) + branch.links))
            parts += branch.viewers.map { ($0.elements, $0.links) }
        }
        return parts
    }
}
