import CGStreamer
import CGStreamerSys

/// A typed value of a caps or structure field.
public indirect enum CapsValue: Sendable, Equatable, CustomStringConvertible {
    case int(Int)
    case bool(Bool)
    case double(Double)
    case string(String)
    case fraction(Int, Int)
    case intRange(Int, Int)
    case fractionRange(min: CapsValue, max: CapsValue)
    case list([CapsValue])
    /// Any other type, in GStreamer's serialized form.
    case other(String)

    public var description: String {
        switch self {
        case .int(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value
        case .fraction(let n, let d): "\(n)/\(d)"
        case .intRange(let lo, let hi): "[ \(lo), \(hi) ]"
        case .fractionRange(let lo, let hi): "[ \(lo), \(hi) ]"
        case .list(let values): "{ " + values.map(\.description).joined(separator: ", ") + " }"
        case .other(let text): text
        }
    }

    init(_ value: UnsafePointer<GValue>) {
        let typeName = String(cString: g_type_name(value.pointee.g_type))
        switch typeName {
        case "gint": self = .int(Int(g_value_get_int(value)))
        case "guint": self = .int(Int(g_value_get_uint(value)))
        case "gboolean": self = .bool(g_value_get_boolean(value) != 0)
        case "gdouble": self = .double(g_value_get_double(value))
        case "gchararray": self = .string(g_value_get_string(value).map { String(cString: $0) } ?? "")
        case "GstFraction":
            self = .fraction(Int(gst_value_get_fraction_numerator(value)), Int(gst_value_get_fraction_denominator(value)))
        case "GstIntRange":
            self = .intRange(Int(gst_value_get_int_range_min(value)), Int(gst_value_get_int_range_max(value)))
        case "GstFractionRange":
            self = .fractionRange(min: CapsValue(gst_value_get_fraction_range_min(value)),
                                  max: CapsValue(gst_value_get_fraction_range_max(value)))
        case "GstValueList", "GstValueArray":
            let isList = typeName == "GstValueList"
            let count = isList ? gst_value_list_get_size(value) : gst_value_array_get_size(value)
            self = .list((0..<count).map { index in
                CapsValue(isList ? gst_value_list_get_value(value, index) : gst_value_array_get_value(value, index))
            })
        default:
            if let text = gst_value_serialize(value) {
                defer { g_free(text) }
                self = .other(String(cString: text))
            } else {
                self = .other(typeName)
            }
        }
    }
}

/// One structure of caps (or device properties): a name and typed fields.
public struct CapsStructure: Sendable, Equatable {
    /// e.g. "video/x-raw", "image/jpeg".
    public var name: String
    public var fields: [String: CapsValue]
    /// Caps features other than system memory (e.g. "memory:DMABuf"), if any.
    public var features: String?

    public init(name: String, fields: [String: CapsValue], features: String? = nil) {
        self.name = name
        self.fields = fields
        self.features = features
    }

    init(_ structure: UnsafePointer<GstStructure>) {
        name = String(cString: gst_structure_get_name(structure))
        var fields: [String: CapsValue] = [:]
        for index in 0..<gst_structure_n_fields(structure) {
            let field = gst_structure_nth_field_name(structure, guint(index))!
            if let value = gst_structure_get_value(structure, field) {
                fields[String(cString: field)] = CapsValue(value)
            }
        }
        self.fields = fields
        features = nil
    }

    /// Every structure of a caps string ("video/x-raw,format=BGRA;image/jpeg").
    public static func parse(caps text: String) throws(GStreamerError) -> [CapsStructure] {
        GStreamer.initialize()
        guard let caps = gst_caps_from_string(text) else { throw .invalidCaps(text) }
        defer { gst_caps_unref(caps) }
        return structures(of: caps)
    }

    static func structures(of caps: UnsafeMutablePointer<GstCaps>) -> [CapsStructure] {
        (0..<gst_caps_get_size(caps)).map { index in
            var structure = CapsStructure(gst_caps_get_structure(caps, index))
            if let features = gst_caps_get_features(caps, index),
               gst_caps_features_is_any(features) == 0,
               gst_caps_features_contains(features, "memory:SystemMemory") == 0,
               let text = gst_caps_features_to_string(features) {
                structure.features = String(cString: text)
                g_free(text)
            }
            return structure
        }
    }
}
