import CaptureKit
import PropertyBased
import Testing

/// CaptureTime has CMTime's semantics for every value: no operation traps, equality agrees with
/// hashing and ordering, arithmetic and conversions follow CMTime's rules for special times.
@Suite("CaptureTime", .ownDevices)
struct CaptureTimeTests {
    /// Times from raw random words, biased towards what matters: small values and timescales,
    /// 0, negatives, the extremes, and every combination of flags.
    static func time(_ raw: [Int64], _ index: Int) -> CaptureTime {
        func pick(_ word: Int64, small: ClosedRange<Int64>) -> Int64 {
            switch word.magnitude % 8 {
            case 0: word
            case 1: [Int64.min, .max, 0, -1, 1, Int64(Int32.max), Int64(Int32.min)][Int(word.magnitude / 8 % 7)]
            default: small.lowerBound + Int64(word.magnitude / 8 % UInt64(small.count))
            }
        }
        let value = pick(raw[index], small: -1000...1000)
        let timescale = Int32(truncatingIfNeeded: pick(raw[index + 1], small: -2...1000))
        let word = raw[index + 2].magnitude
        let flags: CaptureTime.Flags = word % 4 == 0 ? .init(rawValue: UInt32(word / 4 % 32)) : .valid
        return CaptureTime(value: value, timescale: timescale, flags: flags)
    }

    static let words = Gen.int64().array(of: 9...9)

    @Test("no operation traps for any value; every value equals itself and hashes into a Set")
    func total() async {
        await propertyCheck(count: 2000, input: Self.words) { raw in
            let (a, b) = (Self.time(raw, 0), Self.time(raw, 3))
            _ = (a.seconds, a.nanoseconds, a.description, a + b, a - b, -a, a * Int32(truncatingIfNeeded: raw[6]),
                 a * Double(bitPattern: UInt64(bitPattern: raw[7])), a.convertScale(Int32(truncatingIfNeeded: raw[8])))
            #expect(a == a)
            #expect(!(a < a))
            #expect(Set([a, b, a]).count == (a == b ? 1 : 2))
        }
    }

    @Test("ordering is total and agrees with equality; equal times hash alike")
    func ordering() async {
        await propertyCheck(count: 2000, input: Self.words) { raw in
            let (a, b, c) = (Self.time(raw, 0), Self.time(raw, 3), Self.time(raw, 6))
            #expect([a < b, a == b, b < a].filter { $0 }.count == 1, "\(a) vs \(b)")
            if a < b && b < c { #expect(a < c, "\(a) < \(b) < \(c)") }
            if a == b { #expect(a.hashValue == b.hashValue, "\(a) == \(b)") }
        }
    }

    @Test("a numeric time equals itself at any finer timescale and hashes alike; seconds agree")
    func scaledCopies() async {
        await propertyCheck(count: 1000, input: Gen.int64(in: -1_000_000_000...1_000_000_000), Gen.int32(in: 1...100_000), Gen.int32(in: 1...1000)) { value, timescale, factor in
            let time = CaptureTime(value: value, timescale: timescale)
            let finer = CaptureTime(value: value * Int64(factor), timescale: timescale * factor)
            #expect(time == finer && time.hashValue == finer.hashValue)
            #expect(time.seconds == finer.seconds)
            #expect(time.nanoseconds == finer.nanoseconds)
            #expect(time.convertScale(timescale * factor) == finer && !time.convertScale(timescale * factor).flags.contains(.hasBeenRounded))
        }
    }

    @Test("numeric arithmetic is exact where it fits: (a + b) - b == a, a + b == b + a, in seconds too")
    func arithmetic() async {
        await propertyCheck(count: 1000, input: Gen.int64(in: -1_000_000...1_000_000), Gen.int32(in: 1...10_000),
                            Gen.int64(in: -1_000_000...1_000_000), Gen.int32(in: 1...10_000)) { v1, t1, v2, t2 in
            let a = CaptureTime(value: v1, timescale: t1), b = CaptureTime(value: v2, timescale: t2)
            #expect(a + b == b + a)
            #expect((a + b) - b == a)
            #expect(a - a == .zero)
            #expect(abs((a + b).seconds - (a.seconds + b.seconds)) < 1e-9)
            #expect(-(-a) == a && a + (-a) == .zero)
            #expect(a * Int32(3) == a + a + a)
        }
    }

    @Test("special times follow CMTime: order, sums, conversions")
    func specialTimes() {
        let one = CaptureTime(value: 1, timescale: 1)
        #expect(CaptureTime.negativeInfinity < one && one < .indefinite && CaptureTime.indefinite < .positiveInfinity
                && CaptureTime.positiveInfinity < .invalid)
        #expect(CaptureTime.invalid == CaptureTime(value: 5, timescale: 0) && CaptureTime.invalid != .zero)
        #expect(CaptureTime(value: 0, timescale: 0) == .invalid && !CaptureTime(value: 3, timescale: -1).isValid)
        #expect(CaptureTime.positiveInfinity + .negativeInfinity == .invalid)
        #expect(CaptureTime.positiveInfinity - .positiveInfinity == .invalid)
        #expect(CaptureTime.indefinite + one == .indefinite && CaptureTime.positiveInfinity + one == .positiveInfinity)
        #expect(one - .positiveInfinity == .negativeInfinity && CaptureTime.invalid + .positiveInfinity == .invalid)
        #expect(CaptureTime.positiveInfinity * Int32(-2) == .negativeInfinity && CaptureTime.positiveInfinity * Int32(0) == .invalid)
        #expect(CaptureTime.invalid.seconds.isNaN && CaptureTime.indefinite.seconds.isNaN && CaptureTime.negativeInfinity.seconds == -.infinity)
        #expect(CaptureTime.positiveInfinity.nanoseconds == .max && CaptureTime.invalid.nanoseconds == 0)
        #expect(CaptureTime(value: .max, timescale: 1) + one == .positiveInfinity, "overflow saturates")
        #expect(CaptureTime(value: .max, timescale: 1).nanoseconds == .max, "clamped, not trapped")
        #expect(CaptureTime(nanoseconds: .max) == .indefinite, "GST_CLOCK_TIME_NONE")
        #expect(CaptureTime(seconds: .nan, preferredTimescale: 600) == .invalid)
        #expect(CaptureTime(seconds: 1e300, preferredTimescale: 600) == .positiveInfinity)
        #expect(CaptureTime(seconds: 0.5, preferredTimescale: 600) == CaptureTime(value: 300, timescale: 600))
        #expect(CaptureTime(seconds: 1.0 / 7, preferredTimescale: 600).flags.contains(.hasBeenRounded))
        #expect(CaptureTime(value: 1, timescale: 3).convertScale(10, method: .roundTowardZero) == CaptureTime(value: 3, timescale: 10))
        #expect(CaptureTime(value: -1, timescale: 3).convertScale(10, method: .roundTowardNegativeInfinity) == CaptureTime(value: -4, timescale: 10))
        #expect(CaptureTime(value: 1, timescale: 2).convertScale(1) == one, "halves away from zero")
        #expect(CaptureTime(value: 1, timescale: 1_000_000_007) + CaptureTime(value: 1, timescale: 1_000_000_009) > .zero,
                "a common timescale beyond 32 bits rounds to the larger one")
        #expect([CaptureTime.invalid, .indefinite, .positiveInfinity, .negativeInfinity, one].map(\.description)
                == ["invalid", "indefinite", "+infinity", "-infinity", "1/1"])
    }

    @Test("the seed's sentinels are invalid times: they equal only each other, convert and hash without trapping")
    func sentinels() {
        let current = CaptureDevice.currentExposureDuration
        #expect(!current.isValid && current == CaptureDevice.defaultFrameDuration)
        #expect(current != CaptureTime(value: 1, timescale: 60) && current != .zero)
        #expect(current.nanoseconds == 0 && current.seconds.isNaN)
        #expect(Set([current, .zero, CaptureTime(value: 1, timescale: 60)]).count == 3)
    }
}
