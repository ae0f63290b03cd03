import Foundation

/// The exposure loop's arithmetic: metered offset in EV, and the next exposure towards the
/// target (duration first at ISO 100, then ISO).
enum AutoExposure {
    /// Offsets within this many EV count as on target.
    static let tolerance: Float = 0.1
    /// How much of the metered error one step corrects (damped, so that clipping and the
    /// camera's latency do not make it oscillate).
    static let damping = 0.75
    /// The ISO auto exposure prefers.
    static let baseISO: Float = 100

    /// How far `meanLuma` is from `target` raised by `bias` EV, in EV (clamped to ±8).
    static func offset(meanLuma: Double, target: Double, bias: Float) -> Float {
        let ratio = max(meanLuma, 0.25) / (target * pow(2, Double(bias)))
        return Float(min(max(log2(ratio), -8), 8))
    }

    /// The next duration (seconds) and ISO for a frame metered `offset` EV off target, within
    /// `limits`, ISO at most `maxISO`.
    static func next(duration: Double, iso: Float, offset: Float,
                     limits: (duration: ClosedRange<Double>, iso: ClosedRange<Double>), maxISO: Float) -> (duration: Double, iso: Float) {
        let product = duration * Double(iso) * pow(2, -Double(offset) * damping)
        let isoLimits = limits.iso.lowerBound...max(limits.iso.lowerBound, min(limits.iso.upperBound, Double(maxISO)))
        let base = min(max(Double(baseISO), isoLimits.lowerBound), isoLimits.upperBound)
        var seconds = product / base, chosenISO = base
        if seconds > limits.duration.upperBound {
            seconds = limits.duration.upperBound
            chosenISO = min(max(product / seconds, isoLimits.lowerBound), isoLimits.upperBound)
        } else if seconds < limits.duration.lowerBound {
            seconds = limits.duration.lowerBound
            chosenISO = min(max(product / seconds, isoLimits.lowerBound), isoLimits.upperBound)
        }
        return (seconds, Float(chosenISO))
    }
}
