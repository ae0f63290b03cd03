import CGStreamer
import CGStreamerSys

/// A device GstDeviceMonitor reports.
public struct MonitoredDevice: Sendable, Equatable {
    /// The device's display name.
    public var displayName: String
    /// Its class, e.g. "Video/Source".
    public var deviceClass: String
    /// Its caps, one structure per format.
    public var caps: [CapsStructure]
    /// Its properties (device.path, api.v4l2.cap.card, device.bus_path, …).
    public var properties: [String: CapsValue]
    /// The factory of the element an audio device makes for itself (`gst_device_create_element`:
    /// "pulsesrc", "alsasrc", "pipewiresrc"), nil for other devices or when it makes none.
    public var elementFactory: String?
    /// The properties the device set on that element (pulsesrc's `device`, alsasrc's `device`,
    /// pipewiresrc's `target-object`…), in the textual form `Element.set` takes: with the
    /// factory, enough to make the same source again without holding the device.
    public var elementProperties: [String: String]
    /// The GstDevice's GType name, which says which provider found it: "GstV4l2Device",
    /// "GstPipeWireDevice", "GstLibcameraDevice", "GstPulseDevice"… Empty when unknown.
    public var typeName: String

    /// A device as a provider would report it (recorded devices in tests).
    public init(displayName: String, deviceClass: String, typeName: String, caps: [CapsStructure] = [],
                properties: [String: CapsValue] = [:], elementFactory: String? = nil, elementProperties: [String: String] = [:]) {
        self.displayName = displayName
        self.deviceClass = deviceClass
        self.typeName = typeName
        self.caps = caps
        self.properties = properties
        self.elementFactory = elementFactory
        self.elementProperties = elementProperties
    }

    init(_ device: UnsafeMutablePointer<GstDevice>) {
        func take(_ text: UnsafeMutablePointer<gchar>?) -> String {
            guard let text else { return "" }
            defer { g_free(text) }
            return String(cString: text)
        }
        displayName = take(gst_device_get_display_name(device))
        typeName = device.withMemoryRebound(to: GTypeInstance.self, capacity: 1) { instance in
            instance.pointee.g_class.map { String(cString: g_type_name($0.pointee.g_type)) } ?? ""
        }
        deviceClass = take(gst_device_get_device_class(device))
        if let caps = gst_device_get_caps(device) {
            self.caps = CapsStructure.structures(of: caps)
            gst_caps_unref(caps)
        } else {
            self.caps = []
        }
        if let structure = gst_device_get_properties(device) {
            properties = CapsStructure(structure).fields
            gst_structure_free(structure)
        } else {
            properties = [:]
        }
        // Only audio sources need their element's settings to be made again later (pulsesrc's
        // `device`…); a camera is made again from its node. Making a v4l2src per camera event
        // costs time at every hot-plug and reading back its unset `extra-controls` warns.
        if deviceClass.hasPrefix("Audio"), let created = gst_device_create_element(device, nil) {
            gst_object_ref_sink(UnsafeMutableRawPointer(created))
            let element = Element(owning: created)
            elementFactory = element.factory
            elementProperties = element.configuredProperties()
        } else {
            elementFactory = nil
            elementProperties = [:]
        }
    }
}

/// Lists devices of a class and reports hot-plug through a `BusWatch`.
public final class DeviceMonitor: Sendable {
    private let pointer: CPointer<GstDeviceMonitor>

    /// Monitors devices whose class matches `deviceClass` (e.g. "Video/Source").
    ///
    /// With `showAll`, devices of providers that others hide are reported too: libcamera's and
    /// PipeWire's providers hide the v4l2 provider once loaded, whether or not they serve the
    /// cameras it finds, so a caller that dedupes for itself asks for every provider's devices.
    public init(deviceClass: String, showAll: Bool = false) {
        GStreamer.initialize()
        let monitor = gst_device_monitor_new()!
        _ = gst_device_monitor_add_filter(monitor, deviceClass, nil)
        if showAll { gst_device_monitor_set_show_all_devices(monitor, 1) }
        self.pointer = CPointer(monitor)
    }

    deinit {
        gst_device_monitor_stop(pointer.raw)
        gst_object_unref(UnsafeMutableRawPointer(pointer.raw))
    }

    /// The devices present now (probes once).
    public func devices() -> [MonitoredDevice] {
        guard let list = gst_device_monitor_get_devices(pointer.raw) else { return [] }
        defer { g_list_free_full(list) { gst_object_unref($0) } }
        var result: [MonitoredDevice] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            result.append(MonitoredDevice(current.pointee.data.assumingMemoryBound(to: GstDevice.self)))
            node = current.pointee.next
        }
        return result
    }

    /// Sets a property of the device provider `provider` (a factory name, e.g.
    /// "pipewiredeviceprovider") from its textual form, for every monitor made after it:
    /// providers are one object per factory, which each monitor starts when it starts. False
    /// when no such provider is installed or it has no such property, or the value does not
    /// convert.
    @discardableResult
    public static func setProviderProperty(_ property: String, _ value: String, onProvider provider: String) -> Bool {
        GStreamer.initialize()
        guard let instance = gst_device_provider_factory_get_by_name(provider) else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(instance)) }
        guard let spec = ck_object_find_property(UnsafeMutableRawPointer(instance), property) else { return false }
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        guard gst_value_deserialize(&gvalue, value) != 0 else { return false }
        instance.withMemoryRebound(to: GObject.self, capacity: 1) { g_object_set_property($0, property, &gvalue) }
        return true
    }

    /// Starts monitoring. Hot-plug arrives as `.deviceAdded` / `.deviceRemoved` on the
    /// returned watch's thread; keep the watch alive as long as you want events.
    public func start(handler: @escaping @Sendable (BusMessage) -> Void) -> BusWatch? {
        guard gst_device_monitor_start(pointer.raw) != 0 else { return nil }
        return BusWatch(bus: Bus(owning: gst_device_monitor_get_bus(pointer.raw)!), name: "capturekit-devices", handler: handler)
    }
}
