/// A value for an element's property, typed: ``Element/set(_:_:)`` checks it against the type
/// the property declares (an integer for an integer property, a nick for an enum) and its range,
/// and a mismatch is an error naming the property, the value and the type, never a silent
/// conversion.
///
/// Integer, boolean and float literals make ``int(_:)``, ``bool(_:)`` and ``double(_:)`` values;
/// text says what it is: a ``string(_:)``, an enum's ``nick(_:)``, ``caps(_:)``, or GStreamer's
/// own ``serialized(_:)`` form of a value read back from an element.
public enum PropertyValue: Sendable, Hashable, CustomStringConvertible {
    /// Any integer property (int, uint, long, ulong, int64, uint64), within its type and range.
    case int(Int)
    case bool(Bool)
    /// A double or float property (which also take an ``int(_:)``).
    case double(Double)
    case string(String)
    /// An enum's value by nick ("downstream"), or flags' nicks joined by "+".
    case nick(String)
    /// Caps in their textual form ("video/x-raw,format=GRAY8").
    case caps(String)
    case fraction(Int, Int)
    /// GStreamer's serialization of a value of any type (`gst_value_serialize`), as
    /// ``Element/get(_:)`` and ``Element/configuredProperties()`` give it, or a structure.
    case serialized(String)

    /// The value as `gst-launch-1.0` writes it (before any shell quoting).
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .double(let value): String(value)
        case .string(let text), .nick(let text), .caps(let text), .serialized(let text): text
        case .fraction(let numerator, let denominator): "\(numerator)/\(denominator)"
        }
    }
}

extension PropertyValue: ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
