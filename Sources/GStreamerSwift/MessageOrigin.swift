import CGStreamer

/// Where a bus message came from: the names of the objects holding its source, outermost
/// first, ending with the source's own. While the source is in a pipeline the path starts with
/// the pipeline's name; a source in a bin already taken out of its pipeline has a path that
/// starts with that bin's name.
public struct MessageOrigin: Sendable, Equatable {
    public let path: [String]

    public init(path: [String]) { self.path = path }

    /// The part of `pipeline` that holds the source: the name of the pipeline's child it is in
    /// (or is), "" for the pipeline itself; nil when the source is not in `pipeline`, and
    /// then `detachedPart` names the bin it is in.
    public func part(of pipelineName: String) -> String? {
        guard path.first == pipelineName else { return nil }
        return path.count > 1 ? path[1] : ""
    }

    /// The outermost holder of a source no longer in its pipeline.
    public var detachedPart: String? { path.first }

    /// The origin of `object`: its ancestors' names and its own.
    static func of(_ object: UnsafeMutablePointer<GstObject>) -> MessageOrigin {
        func name(_ object: UnsafeMutablePointer<GstObject>) -> String {
            Element.objectName(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstElement.self))
        }
        var names = [name(object)]
        var parent = gst_object_get_parent(object)
        while let current = parent {
            names.append(name(current))
            parent = gst_object_get_parent(current)
            gst_object_unref(UnsafeMutableRawPointer(current))
        }
        return MessageOrigin(path: names.reversed())
    }
}
