import Testing
@testable import CaptureKit

@Suite("WhiteBalance colour science", .ownDevices)
struct WhiteBalanceTests {
    typealias Math = WhiteBalanceMath
    typealias Chromaticity = CaptureDevice.WhiteBalanceChromaticityValues
    typealias Gains = CaptureDevice.WhiteBalanceGains

    static let illuminantA = Chromaticity(x: 0.44757, y: 0.40745)
    static let d65 = Chromaticity(x: 0.31271, y: 0.32902)
    static let d50 = Chromaticity(x: 0.34567, y: 0.35850)

    func distance(_ a: Chromaticity, _ b: Chromaticity) -> Float {
        max(abs(a.x - b.x), abs(a.y - b.y))
    }

    func uvDistance(_ a: Chromaticity, _ b: Chromaticity) -> Double {
        let p = Math.uv(x: Double(a.x), y: Double(a.y)), q = Math.uv(x: Double(b.x), y: Double(b.y))
        return ((p.u - q.u) * (p.u - q.u) + (p.v - q.v) * (p.v - q.v)).squareRoot()
    }

    func relativeDifference(_ a: Gains, _ b: Gains) -> Float {
        max(abs(a.redGain / b.redGain - 1), abs(a.greenGain / b.greenGain - 1), abs(a.blueGain / b.blueGain - 1))
    }

    // MARK: Published values

    @Test("illuminant A is the Planckian radiator at 2856 K, on the locus")
    func publishedIlluminantA() {
        let xy = Math.chromaticity(forTemperature: 2856, tint: 0)
        // Published (0.44757, 0.40745); the 5 nm sum gives (0.44754, 0.40743).
        #expect(distance(xy, Self.illuminantA) < 1e-4)
        let values = Math.temperatureAndTint(for: Self.illuminantA)
        #expect(abs(values.temperature - 2856) < 2)
        #expect(abs(values.tint) < 0.1) // Δuv ≈ 4 × 10⁻⁶
    }

    @Test("D65 is about 6504 K and lies above the locus: positive (green) tint")
    func publishedD65() {
        let values = Math.temperatureAndTint(for: Self.d65)
        #expect(abs(values.temperature - 6504) < 15)
        // D65's Δuv is +0.0032 (above the locus, towards green), so tint = 3000 × 0.0032 ≈ +9.6.
        #expect(values.tint > 9 && values.tint < 10.3)
    }

    @Test("D50 is about 5003 K, also slightly green")
    func publishedD50() {
        let values = Math.temperatureAndTint(for: Self.d50)
        #expect(abs(values.temperature - 5003) < 15)
        #expect(values.tint > 9 && values.tint < 10.3) // Δuv ≈ +0.0032
    }

    @Test("the locus agrees with Kim et al. (2002)'s cubic-spline approximation")
    func kimApproximation() {
        func kim(_ t: Double) -> (x: Double, y: Double) {
            let x = t <= 4000
                ? -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
                : -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
            let y = t <= 2222
                ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
                : t <= 4000
                ? -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
                : 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
            return (x, y)
        }
        for t in stride(from: 1667.0, through: 25000, by: 250) {
            let p = Math.planckianLocus(at: t), xy = Math.xy(u: p.u, v: p.v), k = kim(t)
            #expect(max(abs(xy.x - k.x), abs(xy.y - k.y)) < 1e-3, "at \(t) K")
        }
    }

    // MARK: Tint convention

    @Test("tint moves perpendicular to the locus by tint / 3000 in uv, positive towards green")
    func tintScaleAndSign() {
        for t: Float in [2500, 4000, 6500, 9000] {
            let onLocus = Math.chromaticity(forTemperature: t, tint: 0)
            let green = Math.chromaticity(forTemperature: t, tint: 30)
            let magenta = Math.chromaticity(forTemperature: t, tint: -30)
            #expect(abs(uvDistance(onLocus, green) - 0.01) < 1e-5)
            #expect(abs(uvDistance(onLocus, magenta) - 0.01) < 1e-5)
            // Green lies above the locus in uv (higher v), magenta below.
            let v0 = Math.uv(x: Double(onLocus.x), y: Double(onLocus.y)).v
            #expect(Math.uv(x: Double(green.x), y: Double(green.y)).v > v0)
            #expect(Math.uv(x: Double(magenta.x), y: Double(magenta.y)).v < v0)
            // A green illuminant needs less green gain relative to red and blue.
            #expect(Math.gains(for: green).greenGain < Math.gains(for: onLocus).greenGain)
        }
    }

    // MARK: Round trips

    @Test("xy → temperature and tint → xy, 2000…10000 K, tint −50, 0, 50")
    func temperatureRoundTrip() {
        for t in stride(from: Float(2000), through: 10000, by: 250) {
            for tint: Float in [-50, 0, 50] {
                let xy = Math.chromaticity(forTemperature: t, tint: tint)
                let values = Math.temperatureAndTint(for: xy)
                #expect(abs(values.temperature - t) < 0.5, "\(t) K, tint \(tint): \(values)")
                #expect(abs(values.tint - tint) < 0.01, "\(t) K, tint \(tint): \(values)")
                let back = Math.chromaticity(forTemperature: values.temperature, tint: values.tint)
                #expect(distance(back, xy) < 1e-5, "\(t) K, tint \(tint)")
            }
        }
    }

    @Test("gains → xy → gains")
    func gainsRoundTrip() {
        let samples: [Gains] = [
            Gains(redGain: 1, greenGain: 1, blueGain: 1),
            Gains(redGain: 1, greenGain: 1.5, blueGain: 2.5),
            Gains(redGain: 1, greenGain: 1.9399, blueGain: 5.1559),
            Gains(redGain: 2, greenGain: 1, blueGain: 1.3),
            Gains(redGain: 1.2, greenGain: 1.7, blueGain: 1),
            Gains(redGain: 1.6408, greenGain: 1.4385, blueGain: 1),
            Gains(redGain: 3.9, greenGain: 1, blueGain: 2.2),
            Gains(redGain: 1, greenGain: 40, blueGain: 900),
        ]
        for gains in samples {
            let back = Math.gains(for: Math.chromaticity(for: gains))
            #expect(relativeDifference(back, gains) < 1e-3, "\(gains) → \(back)")
        }
        // Unnormalised gains come back scaled so the smallest is 1.
        let scaled = Math.gains(for: Math.chromaticity(for: Gains(redGain: 2, greenGain: 3, blueGain: 5)))
        #expect(relativeDifference(scaled, Gains(redGain: 1, greenGain: 1.5, blueGain: 2.5)) < 1e-4)
    }

    // MARK: Device gains

    @Test("D65 is the native white: gains (1, 1, 1)")
    func d65Gains() {
        let exact = Math.gains(for: Chromaticity(x: 0.3127, y: 0.3290))
        #expect(relativeDifference(exact, Gains(redGain: 1, greenGain: 1, blueGain: 1)) < 1e-5)
        let published = Math.gains(for: Self.d65)
        #expect(relativeDifference(published, Gains(redGain: 1, greenGain: 1, blueGain: 1)) < 1e-3)
        let xy = Math.chromaticity(for: Gains(redGain: 1, greenGain: 1, blueGain: 1))
        #expect(distance(xy, Chromaticity(x: 0.3127, y: 0.3290)) < 1e-6)
    }

    @Test("tungsten (3200 K) light is red-heavy: red gain 1, blue the largest")
    func tungstenGains() {
        // In linear sRGB a 3200 K black body is (r, g, b) ≈ (1.680, 0.866, 0.326): red is the
        // strongest channel, so it needs the least gain, and after normalising the smallest gain
        // to 1 red is exactly 1; green is boosted (r/g ≈ 1.94) and blue most (r/b ≈ 5.16).
        let gains = Math.gains(for: Math.chromaticity(forTemperature: 3200, tint: 0))
        #expect(gains.redGain == 1)
        #expect(abs(gains.greenGain - 1.940) < 0.01)
        #expect(abs(gains.blueGain - 5.156) < 0.02)
        #expect(gains.blueGain > gains.greenGain && gains.greenGain > gains.redGain)
    }

    @Test("shade (10000 K) light is blue-heavy: blue gain 1, red the largest")
    func shadeGains() {
        // In linear sRGB a 10000 K black body is ≈ (0.872, 0.995, 1.431): blue is strongest.
        let gains = Math.gains(for: Math.chromaticity(forTemperature: 10000, tint: 0))
        #expect(gains.blueGain == 1)
        #expect(abs(gains.redGain - 1.641) < 0.01)
        #expect(abs(gains.greenGain - 1.438) < 0.01)
    }

    @Test("blue-to-red gain ratio falls as the light gets bluer")
    func monotonicGains() {
        var previous = Float.infinity
        for t in stride(from: Float(2000), through: 20000, by: 500) {
            let gains = Math.gains(for: Math.chromaticity(forTemperature: t, tint: 0))
            let ratio = gains.blueGain / gains.redGain
            #expect(ratio < previous, "at \(t) K")
            previous = ratio
        }
    }

    @Test("gains are always finite, at least 1, and at most the maximum")
    func gainsAreFiniteAndPositive() {
        var chromaticities: [Chromaticity] = [
            Chromaticity(x: 0, y: 0), Chromaticity(x: 1, y: 0), Chromaticity(x: 0.7, y: 0.3),
            Chromaticity(x: 0.1, y: 0.8), Chromaticity(x: 0.17, y: 0.005), Chromaticity(x: -1, y: 2),
            Chromaticity(x: .nan, y: 0.3), Chromaticity(x: 0.3, y: .infinity), Chromaticity(x: 0.3, y: 1e-30),
        ]
        for t: Float in [500, 1000, 1500, 1900, 2500, 6500, 25000, 100_000, 1e9, .infinity] {
            for tint: Float in [-1000, -150, 0, 150, 1000] {
                chromaticities.append(Math.chromaticity(forTemperature: t, tint: tint))
            }
        }
        for xy in chromaticities {
            let gains = Math.gains(for: xy)
            for gain in [gains.redGain, gains.greenGain, gains.blueGain] {
                #expect(gain.isFinite && gain >= 1 && gain <= Float(Math.maximumGain), "\(xy) → \(gains)")
            }
            #expect(min(gains.redGain, gains.greenGain, gains.blueGain) == 1, "\(xy) → \(gains)")
        }
        // Candle light (1500 K) is outside the sRGB gamut (its blue is negative): clamped.
        let candle = Math.gains(for: Math.chromaticity(forTemperature: 1500, tint: 0))
        #expect(candle.redGain == 1 && candle.blueGain == Float(Math.maximumGain))
        // Nonsense gains are read as 1.
        let xy = Math.chromaticity(for: Gains(redGain: .nan, greenGain: 0, blueGain: -3))
        #expect(distance(xy, Chromaticity(x: 0.3127, y: 0.3290)) < 1e-6)
    }

    @Test("temperatures clamp to the supported range; invalid input reads as native white")
    func clamping() {
        let cold = Math.temperatureAndTint(for: Math.chromaticity(forTemperature: 500, tint: 0))
        #expect(abs(cold.temperature - 1000) < 0.01)
        let hot = Math.temperatureAndTint(for: Math.chromaticity(forTemperature: .infinity, tint: 0))
        #expect(abs(hot.temperature - 100_000) < 1)
        let nan = Math.chromaticity(forTemperature: .nan, tint: 0)
        #expect(distance(nan, Chromaticity(x: 0.3127, y: 0.3290)) < 1e-6)
        let invalid = Math.temperatureAndTint(for: Chromaticity(x: .nan, y: 0.3))
        #expect(abs(invalid.temperature - 6504) < 15)
        // Far from the locus the tint is still exact, beyond AVFoundation's ±150.
        let far = Math.temperatureAndTint(for: Math.chromaticity(forTemperature: 5000, tint: 250))
        #expect(abs(far.temperature - 5000) < 1 && abs(far.tint - 250) < 0.05)
    }
}
