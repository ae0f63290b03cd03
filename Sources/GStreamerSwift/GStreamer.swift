import CGStreamer
import CGStreamerSys

/// Process-wide GStreamer set-up.
public enum GStreamer {
    private static let initialized: Bool = {
        gst_init(nil, nil)
        return true
    }()

    /// Initializes GStreamer once per process; cheap and thread-safe after the first call.
    public static func initialize() {
        _ = initialized
    }

    /// The library version, e.g. "1.22.0".
    public static var version: String {
        initialize()
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }

    /// Whether an element factory is installed (`gst-inspect-1.0 NAME` would succeed).
    public static func hasElement(_ factory: String) -> Bool {
        initialize()
        guard let found = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }
}
