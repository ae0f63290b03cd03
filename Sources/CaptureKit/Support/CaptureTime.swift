/// A rational time value, like CMTime: `value / timescale` seconds.
public struct CaptureTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var value: Int64
    public var timescale: Int32

    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = timescale
    }

    /// A time in nanoseconds (timescale 1_000_000_000), GStreamer's unit.
    public init(nanoseconds: UInt64) {
        self.init(value: Int64(nanoseconds), timescale: 1_000_000_000)
    }

    public static let zero = CaptureTime(value: 0, timescale: 1)

    /// The time in seconds.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The time in nanoseconds.
    public var nanoseconds: Int64 {
        Int64((Double(value) * 1_000_000_000 / Double(timescale)).rounded())
    }

    public static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }

    public static func == (lhs: CaptureTime, rhs: CaptureTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(nanoseconds) }

    public var description: String { "\(value)/\(timescale)" }
}
