import Foundation

extension CaptureDevice {
    /// How white balance is set (AVCaptureDevice.WhiteBalanceMode).
    public enum WhiteBalanceMode: Int, Sendable, Hashable, CaseIterable {
        /// Gains held where they are.
        case locked
        /// Balance once, then lock.
        case autoWhiteBalance
        /// Keep balancing (the default).
        case continuousAutoWhiteBalance
    }

    /// Passed to `setWhiteBalanceModeLocked(deviceWhiteBalanceGains:)` to keep the current gains
    /// (AVCaptureWhiteBalanceGainsCurrent).
    public static let currentWhiteBalanceGains = WhiteBalanceGains(redGain: 0, greenGain: 0, blueGain: 0)

    /// Whether the device offers `mode`: the virtual camera every mode (CaptureKit's gray-world
    /// loop balances its frames); V4L2 cameras what their controls give (white_balance_automatic,
    /// and white_balance_temperature or red/blue balance for locked gains), with the same loop
    /// where a camera has gains but no automatic white balance.
    public func isWhiteBalanceModeSupported(_ mode: WhiteBalanceMode) -> Bool {
        let capabilities = self.capabilities
        return switch mode {
        case .locked: capabilities[.whiteBalanceLocked].isSupported && capabilities[.whiteBalanceGains].isSupported
        case .autoWhiteBalance: runsWhiteBalanceLoop
        case .continuousAutoWhiteBalance: capabilities[.whiteBalanceContinuous].isSupported
        }
    }

    /// Whether CaptureKit's gray-world loop sets the gains in the auto modes.
    var runsWhiteBalanceLoop: Bool { capabilities.bySoftware(.whiteBalanceContinuous, .grayWorld) }

    /// The white balance mode.
    public var whiteBalanceMode: WhiteBalanceMode {
        get {
            observed(\.whiteBalanceMode)
            return readState { $0.whiteBalance.mode }
        }
        set { reportingFailure(of: "whiteBalanceMode", newValue) { () throws(CaptureError) in try setWhiteBalanceMode(newValue) } }
    }

    /// Whether the gray-world loop is still moving the gains.
    public var isAdjustingWhiteBalance: Bool {
        observed(\.isAdjustingWhiteBalance)
        return readState { $0.whiteBalance.isAdjusting }
    }

    /// The gains in use, each in 1 … `maxWhiteBalanceGain`.
    public var deviceWhiteBalanceGains: WhiteBalanceGains {
        observed(\.deviceWhiteBalanceGains)
        return readState { $0.whiteBalance.gains }
    }

    /// The largest gain a channel may have.
    /// (V4L2 cameras set white balance by colour temperature: gains convert to it.)
    public var maxWhiteBalanceGain: Float { capabilities.byDevice(.whiteBalanceGains) ? WhiteBalanceState.maxGain : 1 }

    /// The gains that make the centre 50 % of the current unbalanced frame gray on average: gray
    /// world, measured from the frames (the frame as balanced, divided by the gains CaptureKit
    /// applied; V4L2 cameras balancing on their own report the gains their output still needs).
    public var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains {
        observed(\.grayWorldDeviceWhiteBalanceGains)
        return readState { $0.whiteBalance.grayWorld }
    }

    /// Sets the white balance mode; needs the configuration lock and a supported mode. The auto
    /// modes move the gains towards gray world over the next frames (`isAdjustingWhiteBalance`
    /// meanwhile; auto white balance then locks).
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(CaptureError) {
        try requireConfigurationLock()
        guard isWhiteBalanceModeSupported(mode) else { throw .unsupported(feature: "white balance mode \(mode)", device: uniqueID) }
        try applyControl(.whiteBalanceMode(mode))
        withState { state in
            state.whiteBalance.mode = mode
            if mode == .locked { state.whiteBalance.isAdjusting = false }
        }
    }

    /// Locks white balance at `gains` (each normalised so the smallest is 1, then required to be
    /// at most `maxWhiteBalanceGain`), or the current gains. `completionHandler` gets the
    /// presentation time of the first frame balanced with them, on a CaptureKit queue: exact on
    /// the virtual camera; on a running V4L2 camera, the first frame begun after the control
    /// write; zero when no session runs the device.
    func checkedSetWhiteBalanceModeLocked(with gains: WhiteBalanceGains,
                                          completionHandler: (@Sendable (CaptureTime) -> Void)?) throws(CaptureError) {
        try requireConfigurationLock()
        guard isWhiteBalanceModeSupported(.locked) else { throw .unsupported(feature: "locked white balance", device: uniqueID) }
        var applied: WhiteBalanceGains?
        if gains != Self.currentWhiteBalanceGains {
            for (name, gain) in [("red", gains.redGain), ("green", gains.greenGain), ("blue", gains.blueGain)] {
                guard gain.isFinite && gain >= 1 && gain <= maxWhiteBalanceGain else {
                    throw .outOfRange(name: "\(name) white balance gain", value: Double(gain), range: 1...Double(maxWhiteBalanceGain))
                }
            }
            // Seed 000: "normalized to the minimum channel value to avoid brightness changes".
            let smallest = min(gains.redGain, gains.greenGain, gains.blueGain)
            let normalised = WhiteBalanceGains(redGain: gains.redGain / smallest, greenGain: gains.greenGain / smallest, blueGain: gains.blueGain / smallest)
            applied = normalised
        }
        let viaControls = completesByMetering
        let gainsNow = withState { state in
            state.whiteBalance.mode = .locked
            if let applied { state.whiteBalance.gains = applied }
            state.sensor.changed(notifying: viaControls ? nil : completionHandler)
            return state.whiteBalance.gains
        }
        guard viaControls else { return }
        complete(completionHandler, writtenAt: try applyControl(.whiteBalanceGains(gainsNow)))
    }

    /// The gains that neutralise light of this chromaticity (AVCaptureDevice's conversion).
    public func deviceWhiteBalanceGains(for chromaticity: WhiteBalanceChromaticityValues) -> WhiteBalanceGains {
        WhiteBalanceMath.gains(for: chromaticity)
    }

    /// The chromaticity of the light these gains neutralise.
    public func chromaticityValues(for gains: WhiteBalanceGains) -> WhiteBalanceChromaticityValues {
        WhiteBalanceMath.chromaticity(for: gains)
    }

    /// The temperature and tint of the light these gains neutralise.
    public func temperatureAndTintValues(for gains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues {
        WhiteBalanceMath.temperatureAndTint(for: WhiteBalanceMath.chromaticity(for: gains))
    }

    /// The gains that neutralise light of this temperature and tint.
    public func deviceWhiteBalanceGains(for values: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains {
        WhiteBalanceMath.gains(for: WhiteBalanceMath.chromaticity(forTemperature: values.temperature, tint: values.tint))
    }
}

/// White balance settings a device holds, and the virtual scene's light.
struct WhiteBalanceState {
    /// Virtual light: tungsten, so that white balance visibly matters.
    static let defaultIlluminant: Float = 3200
    static let maxGain: Float = 8

    var mode = CaptureDevice.WhiteBalanceMode.continuousAutoWhiteBalance
    var illuminant = defaultIlluminant
    var gains = WhiteBalanceMath.gains(for: WhiteBalanceMath.chromaticity(forTemperature: defaultIlluminant, tint: 0))
    /// Set by the gray-world loop while it moves the gains.
    var isAdjusting = false
    /// Measured from the frames.
    var grayWorld = WhiteBalanceMath.gains(for: WhiteBalanceMath.chromaticity(forTemperature: defaultIlluminant, tint: 0))

    /// How the light tints each channel of the scene: the inverse of its neutralising gains,
    /// scaled so the strongest channel is 1.
    var lightTint: (red: Double, green: Double, blue: Double) {
        let neutral = WhiteBalanceMath.gains(for: WhiteBalanceMath.chromaticity(forTemperature: illuminant, tint: 0))
        return (1 / Double(neutral.redGain), 1 / Double(neutral.greenGain), 1 / Double(neutral.blueGain))
    }
}
