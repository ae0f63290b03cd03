import Foundation

/// The colour science behind white balance: the Planckian locus, correlated colour temperature
/// and tint, and the gains of the virtual camera's native RGB. Pure functions, no state.
///
/// **Planckian locus.** Computed, not approximated: Planck's law for a black body at T kelvin,
/// M(λ, T) ∝ λ⁻⁵ / (exp(c₂ / λT) − 1) with c₂ = 1.4388 × 10⁻² m·K (the value CIE 15:2004 uses,
/// on ITS-90), summed against the CIE 1931 2° standard observer x̄ȳz̄ at 5 nm from 360 to 830 nm
/// (the 5 nm rows of CIE 018:2019 / CIE 15 table, embedded below; their 1 nm sums were checked
/// against the published checksums before subsampling). Summing at 5 nm instead of 1 nm moves xy
/// by under 2 × 10⁻⁶. The derivative along the locus is analytic (∂M/∂T of Planck's law), so
/// tangents and normals are exact. Illuminant A (2856 K) comes out at xy (0.44754, 0.40743),
/// against the published (0.44757, 0.40745); Kim et al. (2002)'s cubic-spline approximation of
/// x(T), y(x) agrees within 6 × 10⁻⁴ over its 1667–25 000 K range.
///
/// **Temperature and tint.** In the CIE 1960 UCS (u, v) plane, where u = 4X / (X + 15Y + 3Z),
/// v = 6Y / (X + 15Y + 3Z) (= (u′, ⅔v′) of CIE 1976). The correlated colour temperature of a
/// chromaticity is the temperature of the nearest point of the locus (CIE 15); the tint is the
/// signed distance to that point along the locus's normal, scaled by `tintScale` (3000, the
/// Adobe DNG SDK's `kTintScale`), positive on the green side (above the locus, away from the
/// purple line). So `chromaticity(forTemperature:tint:)` is locus(T) + tint / 3000 × normal(T),
/// and `temperatureAndTint(for:)` inverts it exactly: it scans the locus at 5 mired steps for
/// the nearest sample, then bisects on the sign of (p − locus(T)) · locus′(T), the condition for
/// the nearest point, to 10⁻⁷ K. (The DNG SDK interpolates Robertson's 1968 table of isotherms
/// instead; its results agree to its table's precision, and it has the same sign and scale.)
///
/// **Gains.** The virtual device's native RGB is linear sRGB: BT.709 / IEC 61966-2-1 primaries
/// R (0.64, 0.33), G (0.30, 0.60), B (0.15, 0.06) and white D65 (0.3127, 0.3290); the matrix is
/// derived from those in double precision, so D65 maps to RGB (1, 1, 1) exactly. An illuminant
/// of chromaticity xy (taken at Y = 1) is XYZ = (x/y, 1, (1 − x − y)/y), which the device sees
/// as (r, g, b) = M⁻¹ XYZ. Gains that make it neutral are proportional to (1/r, 1/g, 1/b), i.e.
/// (g/r, 1, g/b) relative to green; they are normalised like AVFoundation's so the smallest is
/// 1.0, which makes them (m/r, m/g, m/b) with m = max(r, g, b): the strongest channel of the
/// light gets gain 1. Illuminants outside the sRGB gamut (below about 1900 K the blue of a black
/// body is negative in sRGB) have the offending channel raised to m / `maximumGain`, so gains are
/// always finite and in 1…`maximumGain`. The inverse takes (1/gR, 1/gG, 1/gB) back through M to
/// xy; it is exact for any positive gains, and `gains(for:)` of its result returns the gains
/// rescaled so the smallest is 1 (exactly the input, when that was already so).
enum WhiteBalanceMath {
    typealias Gains = CaptureDevice.WhiteBalanceGains
    typealias Chromaticity = CaptureDevice.WhiteBalanceChromaticityValues
    typealias TemperatureAndTint = CaptureDevice.WhiteBalanceTemperatureAndTintValues

    /// Tint units per unit of distance from the locus in the CIE 1960 uv plane (Adobe DNG SDK).
    static let tintScale = 3000.0
    /// Temperatures are clamped to this range; `temperatureAndTint(for:)` searches within it.
    static let temperatureRange: ClosedRange<Double> = 1000...100_000
    /// Tints are clamped to ±`tintLimit` (twice AVFoundation's ±150) so every temperature and
    /// tint maps to a valid chromaticity.
    static let tintLimit = 300.0
    /// The largest gain `gains(for:)` returns (the smallest is always 1).
    static let maximumGain = 1000.0
    /// The second radiation constant, in nm·K.
    static let c2 = 1.4388e7
    /// The device's native white, D65 as sRGB defines it: its gains are (1, 1, 1).
    static let nativeWhite = (x: 0.3127, y: 0.3290)

    // MARK: The public value types

    /// The chromaticity of the illuminant with this correlated colour temperature (kelvin) and
    /// tint. Temperature is clamped to `temperatureRange`, tint to ±`tintLimit`; NaN gives the
    /// native white.
    static func chromaticity(forTemperature temperature: Float, tint: Float) -> Chromaticity {
        let point = xy(temperature: Double(temperature), tint: Double(tint))
        return Chromaticity(x: Float(point.x), y: Float(point.y))
    }

    /// The correlated colour temperature and tint of a chromaticity: the exact inverse of
    /// `chromaticity(forTemperature:tint:)`. Chromaticities whose nearest locus point lies outside
    /// `temperatureRange` get the end of the range; invalid ones are taken as the native white.
    static func temperatureAndTint(for chromaticity: Chromaticity) -> TemperatureAndTint {
        let values = temperatureAndTint(x: Double(chromaticity.x), y: Double(chromaticity.y))
        return TemperatureAndTint(temperature: Float(values.temperature), tint: Float(values.tint))
    }

    /// The device gains that make an illuminant of this chromaticity neutral, the smallest 1.0.
    /// Invalid chromaticities (not finite, y ≤ 0) give (1, 1, 1).
    static func gains(for chromaticity: Chromaticity) -> Gains {
        let g = gains(x: Double(chromaticity.x), y: Double(chromaticity.y))
        return Gains(redGain: Float(g.red), greenGain: Float(g.green), blueGain: Float(g.blue))
    }

    /// The chromaticity of the illuminant these gains neutralise. A gain that is not finite and
    /// positive is taken as 1.
    static func chromaticity(for gains: Gains) -> Chromaticity {
        let point = xy(red: Double(gains.redGain), green: Double(gains.greenGain), blue: Double(gains.blueGain))
        return Chromaticity(x: Float(point.x), y: Float(point.y))
    }

    // MARK: Chromaticity spaces

    /// CIE 1931 xy to CIE 1960 uv.
    static func uv(x: Double, y: Double) -> (u: Double, v: Double) {
        let d = -2 * x + 12 * y + 3
        return (4 * x / d, 6 * y / d)
    }

    /// CIE 1960 uv to CIE 1931 xy.
    static func xy(u: Double, v: Double) -> (x: Double, y: Double) {
        let d = 2 * u - 8 * v + 4
        return (3 * u / d, 2 * v / d)
    }

    // MARK: The Planckian locus

    /// A point of the Planckian locus in CIE 1960 uv, with its derivative with respect to T.
    struct LocusPoint {
        var u: Double
        var v: Double
        var du: Double
        var dv: Double

        /// The unit normal on the green side: the unit tangent (towards higher T, which runs
        /// down and to the left in uv) turned a quarter clockwise, (t_v, −t_u).
        var normal: (u: Double, v: Double) {
            let length = (du * du + dv * dv).squareRoot()
            return (dv / length, -du / length)
        }
    }

    /// The Planckian locus at `temperature` kelvin (> 0), from Planck's law and the CIE 1931 2°
    /// observer at 5 nm.
    static func planckianLocus(at temperature: Double) -> LocusPoint {
        let t = temperature
        var (X, Y, Z, dX, dY, dZ) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        for i in 0..<xBar.count {
            let lambda = firstWavelength + wavelengthStep * Double(i)
            let a = c2 / (lambda * t)
            let e = expm1(a)
            // Relative spectral radiance (c₁ and the step cancel in chromaticity), and its
            // derivative: ∂M/∂T = M · (a / T) · eᵃ / (eᵃ − 1).
            let m = inverseFifthPowers[i] / e
            let dm = m * (a / t) * (1 + 1 / e)
            X += xBar[i] * m; Y += yBar[i] * m; Z += zBar[i] * m
            dX += xBar[i] * dm; dY += yBar[i] * dm; dZ += zBar[i] * dm
        }
        let d = X + 15 * Y + 3 * Z
        let dd = dX + 15 * dY + 3 * dZ
        return LocusPoint(
            u: 4 * X / d, v: 6 * Y / d,
            du: 4 * (dX * d - X * dd) / (d * d), dv: 6 * (dY * d - Y * dd) / (d * d)
        )
    }

    /// The locus sampled every `coarseStep` mired across `temperatureRange`, for the search.
    static let coarseStep = 5.0
    static let coarseLocus: [(temperature: Double, u: Double, v: Double)] = {
        let first = 1e6 / temperatureRange.upperBound, last = 1e6 / temperatureRange.lowerBound
        let count = Int(((last - first) / coarseStep).rounded(.up))
        return (0...count).map { k in
            let t = 1e6 / min(first + coarseStep * Double(k), last)
            let p = planckianLocus(at: t)
            return (t, p.u, p.v)
        }
    }()

    // MARK: Temperature and tint

    /// xy of the illuminant with this temperature (clamped to `temperatureRange`) and tint
    /// (clamped to ±`tintLimit`): locus(T) + tint / `tintScale` × normal(T) in uv.
    static func xy(temperature: Double, tint: Double) -> (x: Double, y: Double) {
        guard !temperature.isNaN, !tint.isNaN else { return nativeWhite }
        let t = min(max(temperature, temperatureRange.lowerBound), temperatureRange.upperBound)
        let offset = min(max(tint, -tintLimit), tintLimit) / tintScale
        let p = planckianLocus(at: t)
        let n = p.normal
        return xy(u: p.u + offset * n.u, v: p.v + offset * n.v)
    }

    /// The correlated colour temperature and tint of xy: the nearest point of the locus in uv,
    /// and the signed distance from it along the normal × `tintScale`.
    static func temperatureAndTint(x: Double, y: Double) -> (temperature: Double, tint: Double) {
        let valid = x.isFinite && y.isFinite && -2 * x + 12 * y + 3 > 0
        let (u, v) = valid ? uv(x: x, y: y) : uv(x: nativeWhite.x, y: nativeWhite.y)

        // The nearest sample, then the samples either side of it as the bracket.
        let samples = coarseLocus
        var nearest = 0
        var nearestDistance = Double.infinity
        for (k, s) in samples.enumerated() {
            let distance = (u - s.u) * (u - s.u) + (v - s.v) * (v - s.v)
            if distance < nearestDistance { (nearest, nearestDistance) = (k, distance) }
        }
        // Samples run from the highest temperature to the lowest.
        var low = samples[min(nearest + 1, samples.count - 1)].temperature
        var high = samples[max(nearest - 1, 0)].temperature

        // The nearest point is where p − locus(T) is perpendicular to the locus:
        // h(T) = (p − locus(T)) · locus′(T) is positive below it and negative above it.
        func h(_ t: Double) -> Double {
            let p = planckianLocus(at: t)
            return (u - p.u) * p.du + (v - p.v) * p.dv
        }
        let temperature: Double
        if h(low) <= 0 {
            temperature = low // at the cold end of the range
        } else if h(high) >= 0 {
            temperature = high // at the hot end
        } else {
            var iterations = 0
            while high - low > 1e-7, iterations < 100 {
                let middle = (low + high) / 2
                if h(middle) > 0 { low = middle } else { high = middle }
                iterations += 1
            }
            temperature = (low + high) / 2
        }
        let p = planckianLocus(at: temperature)
        let n = p.normal
        return (temperature, ((u - p.u) * n.u + (v - p.v) * n.v) * tintScale)
    }

    // MARK: Device RGB (linear sRGB)

    /// Linear sRGB to XYZ, derived from the BT.709 primaries and the D65 white.
    static let linearSRGBToXYZ: Matrix3 = {
        func xyz(_ x: Double, _ y: Double) -> SIMD3<Double> { [x / y, 1, (1 - x - y) / y] }
        let primaries = Matrix3(columns: xyz(0.64, 0.33), xyz(0.30, 0.60), xyz(0.15, 0.06))
        let scale = primaries.inverse * xyz(nativeWhite.x, nativeWhite.y)
        return Matrix3(
            columns: xyz(0.64, 0.33) * scale.x, xyz(0.30, 0.60) * scale.y, xyz(0.15, 0.06) * scale.z
        )
    }()
    /// XYZ to linear sRGB.
    static let xyzToLinearSRGB: Matrix3 = linearSRGBToXYZ.inverse

    /// The gains that neutralise an illuminant of chromaticity xy: (m/r, m/g, m/b), where (r, g, b)
    /// is the illuminant in linear sRGB and m its largest component.
    static func gains(x: Double, y: Double) -> (red: Double, green: Double, blue: Double) {
        let white = (red: 1.0, green: 1.0, blue: 1.0)
        guard x.isFinite, y.isFinite, y > 0 else { return white }
        let rgb = xyzToLinearSRGB * SIMD3(x / y, 1, (1 - x - y) / y)
        let m = rgb.max()
        guard m.isFinite, m > 0 else { return white }
        let floor = m / maximumGain
        return (m / max(rgb.x, floor), m / max(rgb.y, floor), m / max(rgb.z, floor))
    }

    /// The chromaticity of the illuminant that these gains neutralise: (1/gR, 1/gG, 1/gB) in
    /// linear sRGB, to xy.
    static func xy(red: Double, green: Double, blue: Double) -> (x: Double, y: Double) {
        func valid(_ gain: Double) -> Double { gain.isFinite && gain > 0 ? gain : 1 }
        let xyz = linearSRGBToXYZ * SIMD3(1 / valid(red), 1 / valid(green), 1 / valid(blue))
        let sum = xyz.sum()
        return (xyz.x / sum, xyz.y / sum)
    }

    /// A 3 × 3 matrix, by rows.
    struct Matrix3: Sendable {
        var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

        init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) { rows = (r0, r1, r2) }

        init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
            rows = ([c0.x, c1.x, c2.x], [c0.y, c1.y, c2.y], [c0.z, c1.z, c2.z])
        }

        static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
            [(m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum()]
        }

        /// The inverse: the cross products of the rows, as columns, over the determinant.
        var inverse: Matrix3 {
            func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
                [a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x]
            }
            let (a, b, c) = rows
            let bc = cross(b, c)
            let determinant = (a * bc).sum()
            return Matrix3(columns: bc / determinant, cross(c, a) / determinant, cross(a, b) / determinant)
        }
    }

    // MARK: The CIE 1931 2° standard observer

    static let firstWavelength = 360.0
    static let wavelengthStep = 5.0
    /// λ⁻⁵ for each sample, λ in nm.
    static let inverseFifthPowers: [Double] = (0..<xBar.count).map { i in
        let lambda = firstWavelength + wavelengthStep * Double(i)
        return 1 / (lambda * lambda * lambda * lambda * lambda)
    }

    /// x̄(λ), λ = 360, 365, … 830 nm.
    static let xBar: [Double] = [
        0.0001299, 0.0002321, 0.0004149, 0.0007416, 0.001368, 0.002236, 0.004243, 0.00765,
        0.01431, 0.02319, 0.04351, 0.07763, 0.13438, 0.21477, 0.2839, 0.3285,
        0.34828, 0.34806, 0.3362, 0.3187, 0.2908, 0.2511, 0.19536, 0.1421,
        0.09564, 0.05795001, 0.03201, 0.0147, 0.0049, 0.0024, 0.0093, 0.0291,
        0.06327, 0.1096, 0.1655, 0.2257499, 0.2904, 0.3597, 0.4334499, 0.5120501,
        0.5945, 0.6784, 0.7621, 0.8425, 0.9163, 0.9786, 1.0263, 1.0567,
        1.0622, 1.0456, 1.0026, 0.9384, 0.8544499, 0.7514, 0.6424, 0.5419,
        0.4479, 0.3608, 0.2835, 0.2187, 0.1649, 0.1212, 0.0874, 0.0636,
        0.04677, 0.0329, 0.0227, 0.01584, 0.01135916, 0.008110916, 0.005790346, 0.004109457,
        0.002899327, 0.00204919, 0.001439971, 0.0009999493, 0.0006900786, 0.0004760213, 0.0003323011, 0.0002348261,
        0.0001661505, 0.000117413, 8.307527e-05, 5.870652e-05, 4.150994e-05, 2.935326e-05, 2.067383e-05, 1.455977e-05,
        1.025398e-05, 7.221456e-06, 5.085868e-06, 3.581652e-06, 2.522525e-06, 1.776509e-06, 1.251141e-06,
    ]
    /// ȳ(λ), λ = 360, 365, … 830 nm.
    static let yBar: [Double] = [
        3.917e-06, 6.965e-06, 1.239e-05, 2.202e-05, 3.9e-05, 6.4e-05, 0.00012, 0.000217,
        0.000396, 0.00064, 0.00121, 0.00218, 0.004, 0.0073, 0.0116, 0.01684,
        0.023, 0.0298, 0.038, 0.048, 0.06, 0.0739, 0.09098, 0.1126,
        0.13902, 0.1693, 0.20802, 0.2586, 0.323, 0.4073, 0.503, 0.6082,
        0.71, 0.7932, 0.862, 0.9148501, 0.954, 0.9803, 0.9949501, 1.0,
        0.995, 0.9786, 0.952, 0.9154, 0.87, 0.8163, 0.757, 0.6949,
        0.631, 0.5668, 0.503, 0.4412, 0.381, 0.321, 0.265, 0.217,
        0.175, 0.1382, 0.107, 0.0816, 0.061, 0.04458, 0.032, 0.0232,
        0.017, 0.01192, 0.00821, 0.005723, 0.004102, 0.002929, 0.002091, 0.001484,
        0.001047, 0.00074, 0.00052, 0.0003611, 0.0002492, 0.0001719, 0.00012, 8.48e-05,
        6e-05, 4.24e-05, 3e-05, 2.12e-05, 1.499e-05, 1.06e-05, 7.4657e-06, 5.2578e-06,
        3.7029e-06, 2.6078e-06, 1.8366e-06, 1.2934e-06, 9.1093e-07, 6.4153e-07, 4.5181e-07,
    ]
    /// z̄(λ), λ = 360, 365, … 830 nm.
    static let zBar: [Double] = [
        0.0006061, 0.001086, 0.001946, 0.003486, 0.006450001, 0.01054999, 0.02005001, 0.03621,
        0.06785001, 0.1102, 0.2074, 0.3713, 0.6456, 1.0390501, 1.3856, 1.62296,
        1.74706, 1.7826, 1.77211, 1.7441, 1.6692, 1.5281, 1.28764, 1.0419,
        0.8129501, 0.6162, 0.46518, 0.3533, 0.272, 0.2123, 0.1582, 0.1117,
        0.07824999, 0.05725001, 0.04216, 0.02984, 0.0203, 0.0134, 0.008749999, 0.005749999,
        0.0039, 0.002749999, 0.0021, 0.0018, 0.001650001, 0.0014, 0.0011, 0.001,
        0.0008, 0.0006, 0.00034, 0.00024, 0.00019, 0.0001, 4.999999e-05, 3e-05,
        2e-05, 1e-05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    ]
}
