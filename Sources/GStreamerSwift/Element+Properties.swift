import CGStreamer
import CGStreamerSys

extension Element {
    /// The element's readable and writable properties whose value differs from a new element
    /// of the same factory, in the textual form `set(_:_:)` takes (GStreamer's serialization;
    /// strings that need it are quoted). "name" and "parent" are left out, and so are
    /// construct-only properties and values GStreamer cannot serialize (objects, pointers).
    ///
    /// What a `GstDevice` configured on the element it created (e.g. pulsesrc's `device`), so
    /// that the same element can be made again later from plain data.
    public func configuredProperties() -> [String: String] {
        guard let fresh = gst_element_factory_make(factory, nil) else { return [:] }
        gst_object_ref_sink(UnsafeMutableRawPointer(fresh))
        defer { gst_object_unref(UnsafeMutableRawPointer(fresh)) }
        let instance = UnsafeMutableRawPointer(pointer.raw).assumingMemoryBound(to: GTypeInstance.self)
        guard let type = instance.pointee.g_class else { return [:] }
        let objectClass = UnsafeMutableRawPointer(type).assumingMemoryBound(to: GObjectClass.self)
        var count: guint = 0
        guard let specs = g_object_class_list_properties(objectClass, &count) else { return [:] }
        defer { g_free(specs) }
        let required = G_PARAM_READABLE.rawValue | G_PARAM_WRITABLE.rawValue
        func text(of object: UnsafeMutablePointer<GstElement>, _ spec: UnsafeMutablePointer<GParamSpec>) -> String? {
            var value = GValue()
            g_value_init(&value, spec.pointee.value_type)
            defer { g_value_unset(&value) }
            g_object_get_property(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GObject.self), spec.pointee.name, &value)
            guard let serialized = gst_value_serialize(&value) else { return nil }
            defer { g_free(serialized) }
            return String(cString: serialized)
        }
        var result: [String: String] = [:]
        for index in 0..<Int(count) {
            guard let spec = specs[index] else { continue }
            let flags = spec.pointee.flags.rawValue
            guard flags & required == required, flags & G_PARAM_CONSTRUCT_ONLY.rawValue == 0 else { continue }
            let name = String(cString: spec.pointee.name)
            guard name != "name", name != "parent", let value = text(of: pointer.raw, spec), value != text(of: fresh, spec) else { continue }
            result[name] = value
        }
        return result
    }
}
