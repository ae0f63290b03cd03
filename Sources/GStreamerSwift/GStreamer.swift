import CGStreamer
import CGStreamerSys
import Dispatch

/// Process-wide GStreamer set-up.
public enum GStreamer {
    private static let initialized: Bool = {
        gst_init(nil, nil)
        // Two criticals device plugins log for devices they cannot describe (ck_gst.h).
        ck_filter_provider_criticals()
        return true
    }()

    /// Initializes GStreamer once per process; cheap and thread-safe after the first call.
    public static func initialize() {
        _ = initialized
    }

    /// Starts `initialize()` on another thread, then loads the plugins that provide `factories`,
    /// and returns at once: a process that knows what it will run soon (a command line being
    /// parsed) overlaps loading the registry and those plugins with its own start-up. A later
    /// `initialize()` waits for the registry; an element made while its plugin is still loading
    /// waits for that plugin. Names no plugin provides are skipped.
    public static func initializeInBackground(loading factories: [String] = []) {
        DispatchQueue.global(qos: .userInitiated).async {
            initialize()
            for name in factories { load(factory: name) }
        }
    }

    /// Loads the plugin that provides the element factory `name`, if any.
    static func load(factory name: String) {
        guard let factory = gst_element_factory_find(name) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        // GstElementFactory and GstPluginFeature are both opaque here: the factory is its feature.
        if let loaded = gst_plugin_feature_load(factory) { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
    }

    /// Whether the plugin that provides the element factory `name` is loaded.
    static func isPluginLoaded(providing name: String) -> Bool {
        initialize()
        guard let factory = gst_element_factory_find(name) else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        guard let pluginName = gst_plugin_feature_get_plugin_name(factory),
              let plugin = gst_registry_find_plugin(gst_registry_get(), pluginName) else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
        return gst_plugin_is_loaded(plugin) != 0
    }

    /// The library version, e.g. "1.22.0".
    public static var version: String {
        initialize()
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }

    /// Gives memory the C allocator holds free back to the system (glibc's `malloc_trim`).
    /// Elements that ran threads (an encoder's workers) leave freed memory in those threads'
    /// arenas, which glibc keeps otherwise; call it after removing such elements.
    @discardableResult
    public static func releaseFreeMemory() -> Bool { ck_release_free_memory() != 0 }

    /// Whether an element factory is installed (`gst-inspect-1.0 NAME` would succeed).
    public static func hasElement(_ factory: String) -> Bool {
        initialize()
        guard let found = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }
}
