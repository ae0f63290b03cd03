import CGStreamer
import CGStreamerSys

/// What GStreamer's registry says about an element factory, without making an element.
public enum ElementFactory {
    /// The names of the properties elements of factory `name` have (nil when there is no such
    /// factory): what an element can be told, which may differ between versions of its plugin.
    /// Only the element class is initialised; no element is made, so nothing is opened.
    public static func propertyNames(of name: String) -> Set<String>? {
        GStreamer.initialize()
        guard let factory = gst_element_factory_find(name) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        guard let loaded = gst_plugin_feature_load(factory) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
        let type = gst_element_factory_get_element_type(factory)
        guard type != 0, let typeClass = g_type_class_ref(type) else { return nil }
        defer { g_type_class_unref(typeClass) }
        var count: guint = 0
        guard let specs = g_object_class_list_properties(typeClass.assumingMemoryBound(to: GObjectClass.self), &count) else { return [] }
        defer { g_free(specs) }
        return Set((0..<Int(count)).compactMap { specs[$0].map { String(cString: $0.pointee.name) } })
    }
}
