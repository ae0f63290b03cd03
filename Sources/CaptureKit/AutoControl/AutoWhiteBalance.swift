import Foundation

/// The gray-world loop's arithmetic.
enum AutoWhiteBalance {
    /// Gains within this fraction of gray world count as balanced.
    static let tolerance = 0.01
    /// How much of the remaining correction one step applies.
    static let damping = 0.6

    /// Gray-world gains for the unbalanced frame, from the balanced frame's channel means and
    /// the gains it was balanced with: the smallest 1, each at most `maxGain`.
    static func grayWorld(red: Double, green: Double, blue: Double, appliedGains gains: CaptureDevice.WhiteBalanceGains,
                          maxGain: Float) -> CaptureDevice.WhiteBalanceGains {
        let raw = (max(red, 0.5) / Double(gains.redGain), max(green, 0.5) / Double(gains.greenGain), max(blue, 0.5) / Double(gains.blueGain))
        let peak = max(raw.0, raw.1, raw.2)
        func gain(_ mean: Double) -> Float { Float(min(Double(maxGain), peak / mean)) }
        return CaptureDevice.WhiteBalanceGains(redGain: gain(raw.0), greenGain: gain(raw.1), blueGain: gain(raw.2))
    }

    /// Whether each of `gains` is within `tolerance` (a fraction) of `target`'s.
    static func isBalanced(_ gains: CaptureDevice.WhiteBalanceGains, target: CaptureDevice.WhiteBalanceGains,
                           tolerance: Double) -> Bool {
        abs(log(Double(gains.redGain / target.redGain))) < tolerance && abs(log(Double(gains.greenGain / target.greenGain))) < tolerance
            && abs(log(Double(gains.blueGain / target.blueGain))) < tolerance
    }

    /// One damped step from `gains` towards `target` (geometric), renormalised so the smallest is 1.
    static func step(from gains: CaptureDevice.WhiteBalanceGains, towards target: CaptureDevice.WhiteBalanceGains) -> CaptureDevice.WhiteBalanceGains {
        func move(_ from: Float, _ to: Float) -> Double { Double(from) * pow(Double(to / from), damping) }
        let moved = (move(gains.redGain, target.redGain), move(gains.greenGain, target.greenGain), move(gains.blueGain, target.blueGain))
        let smallest = min(moved.0, moved.1, moved.2)
        return CaptureDevice.WhiteBalanceGains(redGain: Float(moved.0 / smallest), greenGain: Float(moved.1 / smallest), blueGain: Float(moved.2 / smallest))
    }
}
