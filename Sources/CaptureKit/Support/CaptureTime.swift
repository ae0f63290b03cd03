/// A rational time, with CMTime's semantics: `value / timescale` seconds when numeric, or one of
/// the special times — ``invalid``, ``indefinite``, ``positiveInfinity`` and ``negativeInfinity``
/// — told apart by ``flags``.
///
/// Every operation is defined for every value and never traps:
/// - Equality and ordering follow `CMTimeCompare`: numeric times compare by their rational value
///   (1/2 == 2/4), and `negativeInfinity` < every numeric time < `indefinite` <
///   `positiveInfinity` < `invalid`; each special time equals itself. Hashing agrees with `==`.
/// - Arithmetic follows `CMTimeAdd`/`CMTimeSubtract`: invalid if either side is invalid (or for
///   +∞ − +∞ and +∞ + −∞), indefinite if either side is, infinite if either side is; numeric sums
///   use the common timescale when it fits in 32 bits (else the larger one, rounded, with
///   ``Flags/hasBeenRounded``) and become ±∞ when the value overflows 64 bits.
/// - ``seconds`` is NaN for invalid and indefinite times and ±∞ for the infinities;
///   ``nanoseconds`` clamps to `Int64`'s range (0 for invalid and indefinite times).
///
/// A timescale of 0 or less makes a time invalid, so `CaptureTime(value: 0, timescale: 0)`
/// (what `CaptureDevice.currentExposureDuration` and `defaultFrameDuration` are) is ``invalid``.
public struct CaptureTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// What kind of time a value is (CMTimeFlags, same bits).
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Set on every time but ``CaptureTime/invalid``.
        public static let valid = Flags(rawValue: 1 << 0)
        /// The value was rounded when it was converted to another timescale.
        public static let hasBeenRounded = Flags(rawValue: 1 << 1)
        public static let positiveInfinity = Flags(rawValue: 1 << 2)
        public static let negativeInfinity = Flags(rawValue: 1 << 3)
        /// A time that exists but is not known, e.g. the duration of a live stream.
        public static let indefinite = Flags(rawValue: 1 << 4)
    }

    /// How to round when a time changes timescale (CMTimeRoundingMethod).
    public enum RoundingMethod: Sendable, Hashable {
        /// To the nearest value; halves away from zero (the default).
        case roundHalfAwayFromZero
        case roundTowardZero
        case roundAwayFromZero
        case roundTowardPositiveInfinity
        case roundTowardNegativeInfinity
    }

    public var value: Int64
    public var timescale: Int32
    public var flags: Flags

    /// `value / timescale` seconds; invalid unless `timescale` is greater than 0.
    public init(value: Int64, timescale: Int32) {
        self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [])
    }

    /// A time from its parts, as CMTime holds them.
    public init(value: Int64, timescale: Int32, flags: Flags) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
    }

    /// A time in nanoseconds (timescale 1_000_000_000), GStreamer's unit; beyond `Int64.max`
    /// nanoseconds (GStreamer's GST_CLOCK_TIME_NONE among them) it is ``indefinite``.
    public init(nanoseconds: UInt64) {
        if let value = Int64(exactly: nanoseconds) {
            self.init(value: value, timescale: 1_000_000_000)
        } else {
            self = .indefinite
        }
    }

    /// `seconds` at `preferredTimescale` (CMTimeMakeWithSeconds), rounded to the nearest unit:
    /// NaN gives ``invalid``, ±∞ and values beyond 64 bits give the infinities, and a timescale
    /// of 0 or less gives ``invalid``.
    public init(seconds: Double, preferredTimescale: Int32) {
        guard preferredTimescale > 0, !seconds.isNaN else {
            self = .invalid
            return
        }
        let scaled = (seconds * Double(preferredTimescale)).rounded()
        guard scaled.magnitude < 0x1p63, let value = Int64(exactly: scaled) else {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        let exact = Double(value) == seconds * Double(preferredTimescale)
        self.init(value: value, timescale: preferredTimescale, flags: exact ? .valid : [.valid, .hasBeenRounded])
    }

    public static let zero = CaptureTime(value: 0, timescale: 1)
    /// Not a time (kCMTimeInvalid).
    public static let invalid = CaptureTime(value: 0, timescale: 0, flags: [])
    /// A time that exists but is unknown (kCMTimeIndefinite).
    public static let indefinite = CaptureTime(value: 0, timescale: 0, flags: [.valid, .indefinite])
    public static let positiveInfinity = CaptureTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity])
    public static let negativeInfinity = CaptureTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity])

    /// Whether this is a time at all (CMTIME_IS_VALID).
    public var isValid: Bool { kind != .invalid }
    /// Whether this is a number of seconds: valid, finite and known (CMTIME_IS_NUMERIC).
    public var isNumeric: Bool { kind == .numeric }
    public var isIndefinite: Bool { kind == .indefinite }
    public var isPositiveInfinity: Bool { kind == .positiveInfinity }
    public var isNegativeInfinity: Bool { kind == .negativeInfinity }

    /// The time in seconds: NaN when invalid or indefinite, ±∞ for the infinities.
    public var seconds: Double {
        switch kind {
        case .numeric: Double(value) / Double(timescale)
        case .positiveInfinity: .infinity
        case .negativeInfinity: -.infinity
        case .indefinite, .invalid: .nan
        }
    }

    /// The time in nanoseconds, rounded half away from zero and clamped to `Int64`'s range
    /// (±∞ give `Int64.max` / `Int64.min`; invalid and indefinite times give 0).
    public var nanoseconds: Int64 {
        switch kind {
        case .numeric: Self.clamped(Self.divide(Int128(value) * 1_000_000_000, by: Int128(timescale), .roundHalfAwayFromZero))
        case .positiveInfinity: .max
        case .negativeInfinity: .min
        case .indefinite, .invalid: 0
        }
    }

    /// The same time at `newTimescale` (CMTimeConvertScale): rounded by `method`, flagged
    /// ``Flags/hasBeenRounded`` when that lost precision; special times are unchanged, and a
    /// timescale of 0 or less gives ``invalid``.
    public func convertScale(_ newTimescale: Int32, method: RoundingMethod = .roundHalfAwayFromZero) -> CaptureTime {
        guard kind == .numeric else { return self }
        guard newTimescale > 0 else { return .invalid }
        let numerator = Int128(value) * Int128(newTimescale)
        let scaled = Self.divide(numerator, by: Int128(timescale), method)
        guard let result = Int64(exactly: scaled) else { return scaled > 0 ? .positiveInfinity : .negativeInfinity }
        let rounded = flags.contains(.hasBeenRounded) || numerator % Int128(timescale) != 0
        return CaptureTime(value: result, timescale: newTimescale, flags: rounded ? [.valid, .hasBeenRounded] : .valid)
    }

    public var description: String {
        switch kind {
        case .numeric: "\(value)/\(timescale)"
        case .positiveInfinity: "+infinity"
        case .negativeInfinity: "-infinity"
        case .indefinite: "indefinite"
        case .invalid: "invalid"
        }
    }
}
