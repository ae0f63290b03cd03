import CGStreamer
import CGStreamerSys

/// A GStreamer element. Owns one reference, released in `deinit`.
public final class Element: Sendable {
    let pointer: CPointer<GstElement>

    /// The element's name, unique within its pipeline.
    public let name: String
    /// The factory it was made from, e.g. "videotestsrc".
    public let factory: String

    /// The version of the plugin that provides the element ("0.0.3" for Debian 12's libcamera).
    public var pluginVersion: String? {
        ck_element_plugin_version(pointer.raw).map { String(cString: $0) }
    }

    /// Makes an element from an installed factory.
    public init(factory: String, name: String) throws(GStreamerError) {
        GStreamer.initialize()
        guard let element = gst_element_factory_make(factory, name) else {
            throw .missingElement(factory: factory)
        }
        gst_object_ref_sink(UnsafeMutableRawPointer(element))
        self.pointer = CPointer(element)
        self.name = name
        self.factory = factory
    }

    /// Wraps an element reference the caller already owns (transfer full).
    init(owning element: UnsafeMutablePointer<GstElement>) {
        self.pointer = CPointer(element)
        self.name = Element.objectName(element)
        self.factory = gst_element_get_factory(element).map { factory in
            Element.objectName(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstElement.self))
        } ?? ""
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(pointer.raw))
    }

    static func objectName(_ object: UnsafeMutablePointer<GstElement>) -> String {
        guard let cName = gst_object_get_name(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstObject.self)) else {
            return ""
        }
        defer { g_free(cName) }
        return String(cString: cName)
    }

    /// Sets a property to `value`, which must be of the kind the property declares (see
    /// ``PropertyValue``) and within its range.
    public func set(_ property: String, _ value: PropertyValue) throws(GStreamerError) {
        guard let spec = ck_object_find_property(UnsafeMutableRawPointer(pointer.raw), property) else {
            throw .noSuchProperty(element: name, property: property)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        let kind = ck_property_kind(spec)
        let fits: Bool
        switch value {
        case .int(let integer) where kind == CK_PROPERTY_INTEGER:
            fits = ck_value_set_integer(&gvalue, gint64(integer)) != 0
        case .bool(let flag) where kind == CK_PROPERTY_BOOLEAN:
            g_value_set_boolean(&gvalue, flag ? 1 : 0)
            fits = true
        case .double(let number) where kind == CK_PROPERTY_FLOAT:
            ck_value_set_floating(&gvalue, number)
            fits = true
        case .int(let integer) where kind == CK_PROPERTY_FLOAT:
            ck_value_set_floating(&gvalue, Double(integer))
            fits = true
        case .string(let text) where kind == CK_PROPERTY_STRING:
            g_value_set_string(&gvalue, text)
            fits = true
        case .fraction(let numerator, let denominator) where kind == CK_PROPERTY_FRACTION:
            gst_value_set_fraction(&gvalue, gint(numerator), gint(denominator))
            fits = true
        case .nick(let text) where kind == CK_PROPERTY_ENUM || kind == CK_PROPERTY_FLAGS,
             .caps(let text) where kind == CK_PROPERTY_CAPS,
             .serialized(let text):
            fits = gst_value_deserialize(&gvalue, text) != 0
        default:
            fits = false
        }
        // g_param_value_validate answers whether it had to change the value to fit the range.
        guard fits, g_param_value_validate(spec, &gvalue) == 0 else {
            throw .invalidPropertyValue(element: name, property: property, value: value.description,
                                        expectedType: String(cString: ck_param_spec_type_name(spec)))
        }
        g_object_set_property(pointer.cast(to: GObject.self), property, &gvalue)
    }

    /// Reads a property in its textual form.
    public func get(_ property: String) throws(GStreamerError) -> String {
        guard let spec = ck_object_find_property(UnsafeMutableRawPointer(pointer.raw), property) else {
            throw .noSuchProperty(element: name, property: property)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        g_object_get_property(pointer.cast(to: GObject.self), property, &gvalue)
        guard let text = gst_value_serialize(&gvalue) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Links this element to `downstream`, optionally through a caps filter.
    public func link(to downstream: Element, caps: String? = nil) throws(GStreamerError) {
        var ok: gboolean
        if let caps {
            guard let parsed = gst_caps_from_string(caps) else { throw .invalidCaps(caps) }
            defer { gst_caps_unref(parsed) }
            ok = gst_element_link_filtered(pointer.raw, downstream.pointer.raw, parsed)
        } else {
            ok = gst_element_link(pointer.raw, downstream.pointer.raw)
        }
        guard ok != 0 else { throw .linkFailed(from: name, to: downstream.name, caps: caps) }
    }

    /// A static pad of the element ("src", "sink").
    public func staticPad(_ name: String) throws(GStreamerError) -> Pad {
        guard let pad = gst_element_get_static_pad(pointer.raw, name) else {
            throw .noSuchPad(element: self.name, pad: name)
        }
        return Pad(owning: pad)
    }

    /// Replaces the tags a tag-setter element (jifmux, mp4mux) writes with the next buffer.
    /// Call it on the element's streaming thread before the buffer reaches it.
    public func replaceTags(_ tags: TagList) {
        guard ck_is_tag_setter(UnsafeMutableRawPointer(pointer.raw)) != 0 else { return }
        let setter = OpaquePointer(pointer.raw)
        gst_tag_setter_reset_tags(setter)
        gst_tag_setter_merge_tags(setter, tags.pointer.raw, GST_TAG_MERGE_REPLACE_ALL)
    }

    /// Changes state; live elements changing to PAUSED answer `.noPreroll`.
    @discardableResult
    public func setState(_ state: State) -> StateChangeResult {
        StateChangeResult(gst_element_set_state(pointer.raw, state.gstState))
    }
}

extension Element {
    /// GStreamer's error domains, for `postError`.
    public enum ErrorDomain: Sendable {
        case core, library, resource, stream
    }

    /// Posts a resource error for `reason` from this element, as a device source that lost its
    /// device (or found it busy) would: what the virtual camera's fault injection does.
    public func postDeviceError(_ reason: BusErrorReason, message: String) {
        post(quark: gst_resource_error_quark(), code: reason.resourceCode, message: message)
    }

    /// Posts an error message from this element on its bus, as a failing element would.
    public func postError(domain: ErrorDomain, message: String) {
        let quark: GQuark = switch domain {
        case .core: gst_core_error_quark()
        case .library: gst_library_error_quark()
        case .resource: gst_resource_error_quark()
        case .stream: gst_stream_error_quark()
        }
        post(quark: quark, code: 1, message: message)
    }

    private func post(quark: GQuark, code: Int32, message: String) {
        let error = g_error_new_literal(quark, code, message)
        let gstMessage = gst_message_new_error(UnsafeMutableRawPointer(pointer.raw).assumingMemoryBound(to: GstObject.self), error, nil)
        g_error_free(error)
        _ = gst_element_post_message(pointer.raw, gstMessage)
    }
}

extension Element {
    /// The running time of the element's pipeline now, in nanoseconds; nil when it has no clock.
    public var runningTime: UInt64? {
        guard let clock = gst_element_get_clock(pointer.raw) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(pointer.raw)
        return now >= base ? UInt64(now - base) : 0
    }
}
