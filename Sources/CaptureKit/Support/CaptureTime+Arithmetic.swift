extension CaptureTime {
    /// The kinds of time in `CMTimeCompare`'s order.
    enum Kind: Int, Comparable {
        case negativeInfinity, numeric, indefinite, positiveInfinity, invalid

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    var kind: Kind {
        guard flags.contains(.valid) else { return .invalid }
        if flags.contains(.indefinite) { return .indefinite }
        if flags.contains(.positiveInfinity) { return .positiveInfinity }
        if flags.contains(.negativeInfinity) { return .negativeInfinity }
        return timescale > 0 ? .numeric : .invalid
    }

    public static func == (lhs: CaptureTime, rhs: CaptureTime) -> Bool {
        let kind = lhs.kind
        guard kind == rhs.kind else { return false }
        guard kind == .numeric else { return true }
        return Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }

    public static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool {
        let (left, right) = (lhs.kind, rhs.kind)
        guard left == .numeric, right == .numeric else { return left < right }
        return Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }

    /// Hashes the kind and, for numeric times, the value as a fraction in lowest terms, so
    /// that times equal under `==` (1/2 and 2/4) hash alike.
    public func hash(into hasher: inout Hasher) {
        let kind = kind
        hasher.combine(kind.rawValue)
        guard kind == .numeric else { return }
        let divisor = Self.gcd(value.magnitude, UInt64(timescale))
        hasher.combine(value / Int64(divisor))
        hasher.combine(Int64(timescale) / Int64(divisor))
    }

    public static func + (lhs: CaptureTime, rhs: CaptureTime) -> CaptureTime {
        if let special = special(lhs, rhs, opposite: false) { return special }
        return numericSum(lhs, rhs, negatingRight: false)
    }

    public static func - (lhs: CaptureTime, rhs: CaptureTime) -> CaptureTime {
        if let special = special(lhs, rhs, opposite: true) { return special }
        return numericSum(lhs, rhs, negatingRight: true)
    }

    public static prefix func - (time: CaptureTime) -> CaptureTime {
        switch time.kind {
        case .numeric:
            guard time.value != .min else { return .positiveInfinity }
            return CaptureTime(value: -time.value, timescale: time.timescale, flags: time.flags)
        case .positiveInfinity: return .negativeInfinity
        case .negativeInfinity: return .positiveInfinity
        case .indefinite, .invalid: return time
        }
    }

    public static func += (lhs: inout CaptureTime, rhs: CaptureTime) { lhs = lhs + rhs }
    public static func -= (lhs: inout CaptureTime, rhs: CaptureTime) { lhs = lhs - rhs }

    /// The time times `multiplier` (CMTimeMultiply): ±∞ when the value overflows; an infinity
    /// times 0 is ``invalid``.
    public static func * (time: CaptureTime, multiplier: Int32) -> CaptureTime {
        switch time.kind {
        case .numeric:
            let product = Int128(time.value) * Int128(multiplier)
            guard let value = Int64(exactly: product) else { return product > 0 ? .positiveInfinity : .negativeInfinity }
            return CaptureTime(value: value, timescale: time.timescale, flags: time.flags)
        case .positiveInfinity, .negativeInfinity:
            guard multiplier != 0 else { return .invalid }
            return multiplier > 0 ? time : -time
        case .indefinite, .invalid: return time
        }
    }

    /// The time times `multiplier` (CMTimeMultiplyByFloat64), at the time's own timescale.
    public static func * (time: CaptureTime, multiplier: Double) -> CaptureTime {
        switch time.kind {
        case .numeric:
            return CaptureTime(seconds: time.seconds * multiplier, preferredTimescale: time.timescale)
        case .positiveInfinity, .negativeInfinity:
            guard multiplier != 0, !multiplier.isNaN else { return .invalid }
            return multiplier > 0 ? time : -time
        case .indefinite, .invalid: return multiplier.isNaN ? .invalid : time
        }
    }

    /// The result of adding (or, `opposite`, subtracting) when either side is not numeric.
    private static func special(_ lhs: CaptureTime, _ rhs: CaptureTime, opposite: Bool) -> CaptureTime? {
        let left = lhs.kind
        let right = opposite ? (-rhs).kind : rhs.kind
        if left == .numeric && right == .numeric { return nil }
        if left == .invalid || right == .invalid { return .invalid }
        if (left == .positiveInfinity && right == .negativeInfinity) || (left == .negativeInfinity && right == .positiveInfinity) {
            return .invalid
        }
        if left == .indefinite || right == .indefinite { return .indefinite }
        return left == .positiveInfinity || right == .positiveInfinity ? .positiveInfinity : .negativeInfinity
    }

    /// Two numeric times added at their common timescale, or at the larger one (rounded) when
    /// the common one does not fit in 32 bits.
    private static func numericSum(_ lhs: CaptureTime, _ rhs: CaptureTime, negatingRight: Bool) -> CaptureTime {
        let (a, b) = (Int64(lhs.timescale), Int64(rhs.timescale))
        let common = a / Int64(gcd(UInt64(a), UInt64(b))) * b
        let timescale = common <= Int64(Int32.max) ? Int32(common) : max(lhs.timescale, rhs.timescale)
        let left = lhs.convertScale(timescale), right = rhs.convertScale(timescale)
        guard left.isNumeric, right.isNumeric else { return special(left, right, opposite: negatingRight) ?? .invalid }
        let sum = negatingRight ? Int128(left.value) - Int128(right.value) : Int128(left.value) + Int128(right.value)
        guard let value = Int64(exactly: sum) else { return sum > 0 ? .positiveInfinity : .negativeInfinity }
        let rounded = left.flags.contains(.hasBeenRounded) || right.flags.contains(.hasBeenRounded)
        return CaptureTime(value: value, timescale: timescale, flags: rounded ? [.valid, .hasBeenRounded] : .valid)
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }

    /// `numerator / denominator` (denominator > 0) rounded by `method`.
    static func divide(_ numerator: Int128, by denominator: Int128, _ method: RoundingMethod) -> Int128 {
        let quotient = numerator / denominator, remainder = numerator % denominator
        guard remainder != 0 else { return quotient }
        let awayFromZero = quotient + (numerator < 0 ? -1 : 1)
        switch method {
        case .roundTowardZero: return quotient
        case .roundAwayFromZero: return awayFromZero
        case .roundTowardPositiveInfinity: return numerator > 0 ? awayFromZero : quotient
        case .roundTowardNegativeInfinity: return numerator < 0 ? awayFromZero : quotient
        case .roundHalfAwayFromZero: return remainder.magnitude * 2 >= denominator.magnitude ? awayFromZero : quotient
        }
    }

    static func clamped(_ value: Int128) -> Int64 {
        Int64(exactly: value) ?? (value > 0 ? .max : .min)
    }
}
