import Foundation

extension CaptureDevice {
    /// How exposure is set (AVCaptureDevice.ExposureMode).
    public enum ExposureMode: Int, Sendable, Hashable, CaseIterable {
        /// Exposure duration and ISO held where they are.
        case locked
        /// Expose once, then lock.
        case autoExpose
        /// Keep exposing for the scene (the default).
        case continuousAutoExposure
        /// Duration and ISO set with `setExposureModeCustom(duration:iso:completionHandler:)`.
        case custom
    }

    /// Passed as the duration to `setExposureModeCustom` to keep the current one
    /// (AVCaptureExposureDurationCurrent).
    public static let currentExposureDuration = CaptureTime(value: 0, timescale: 0)
    /// Passed as the ISO to `setExposureModeCustom` to keep the current one (AVCaptureISOCurrent).
    public static let currentISO: Float = 0

    /// Whether the device offers `mode`. The virtual camera offers locked, continuous and custom
    /// exposure; V4L2 cameras what their controls give (SPEC.md's mapping: auto_exposure,
    /// exposure_time_absolute, gain or iso_sensitivity).
    public func isExposureModeSupported(_ mode: ExposureMode) -> Bool {
        switch (source, mode) {
        case (.virtual, _): mode != .autoExpose
        case (.v4l2, .continuousAutoExposure): v4l2Mapping == nil || v4l2Provides(.exposureContinuous)
        case (.v4l2, .locked): v4l2Provides(.exposureLocked)
        case (.v4l2, .custom): v4l2Provides(.exposureCustom)
        default: mode == .continuousAutoExposure
        }
    }

    /// The exposure mode.
    public var exposureMode: ExposureMode {
        observed(\.exposureMode)
        return readState { $0.exposure.mode }
    }

    /// Sets the exposure mode; needs the configuration lock and a supported mode. Locking holds
    /// the current duration and ISO; continuous exposure returns to the metered exposure.
    public func setExposureMode(_ mode: ExposureMode) throws(CaptureError) {
        try requireConfigurationLock()
        guard isExposureModeSupported(mode) else { throw .unsupported(feature: "exposure mode \(mode)", device: uniqueID) }
        guard mode != .custom else {
            try setExposureModeCustom(duration: Self.currentExposureDuration, iso: Self.currentISO)
            return
        }
        if v4l2Mapping != nil {
            // auto_exposure=3 (aperture priority) or 1 (manual, holding the current values).
            try writeV4L2(mode == .continuousAutoExposure ? .exposureContinuous : .exposureLocked)
            withState { $0.exposure.mode = mode }
            return
        }
        withState { state in
            state.exposure.mode = mode
            if mode == .continuousAutoExposure {
                state.exposure.duration = ExposureState.duration(ExposureState.meteredDuration.seconds * pow(2, Double(state.exposure.bias)))
                state.exposure.iso = ExposureState.meteredISO
                state.sensor.changed(notifying: nil)
            }
        }
    }

    /// The current exposure duration.
    public var exposureDuration: CaptureTime {
        observed(\.exposureDuration)
        return readState { $0.exposure.duration }
    }

    /// The current ISO.
    public var iso: Float {
        observed(\.iso)
        return readState { $0.exposure.iso }
    }

    /// The bias auto exposure aims at, in EV (0 = the metered exposure).
    public var exposureTargetBias: Float {
        observed(\.exposureTargetBias)
        return readState { $0.exposure.bias }
    }
    /// The lowest bias.
    public var minExposureTargetBias: Float { source == .virtual ? -8 : 0 }
    /// The highest bias.
    public var maxExposureTargetBias: Float { source == .virtual ? 8 : 0 }

    /// How far the current exposure is from the target, in EV, metered by the sensor over the
    /// centre of the frame (positive: brighter than the target).
    public var exposureTargetOffset: Float {
        observed(\.exposureTargetOffset)
        return readState { $0.exposure.targetOffset }
    }

    /// Sets the exposure target bias (EV); needs the configuration lock. In the auto modes the
    /// exposure follows it; in custom mode only the metering (`exposureTargetOffset`) does.
    /// `completionHandler` gets the presentation time of the first frame with it.
    public func setExposureTargetBias(_ bias: Float, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) throws(CaptureError) {
        try requireConfigurationLock()
        guard maxExposureTargetBias > minExposureTargetBias else { throw .unsupported(feature: "exposure target bias", device: uniqueID) }
        guard (minExposureTargetBias...maxExposureTargetBias).contains(bias) else {
            throw .outOfRange(name: "exposure target bias", value: Double(bias), range: Double(minExposureTargetBias)...Double(maxExposureTargetBias))
        }
        withState { state in
            state.exposure.bias = bias
            if state.exposure.mode == .continuousAutoExposure {
                state.exposure.duration = ExposureState.duration(ExposureState.meteredDuration.seconds * pow(2, Double(bias)))
                state.exposure.iso = ExposureState.meteredISO
            }
            state.sensor.changed(notifying: completionHandler)
        }
    }

    /// The lens aperture (f-number); fixed.
    public var lensAperture: Float { source == .virtual ? VirtualCamera.aperture : 0 }

    /// Sets exposure duration and ISO and switches to custom exposure. `completionHandler` gets
    /// the presentation time of the first frame exposed with them (exact on the virtual camera),
    /// on a CaptureKit queue. Pass `currentExposureDuration` / `currentISO` to keep one of them.
    public func setExposureModeCustom(duration: CaptureTime, iso: Float,
                                      completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) throws(CaptureError) {
        try requireConfigurationLock()
        guard isExposureModeSupported(.custom) else { throw .unsupported(feature: "custom exposure", device: uniqueID) }
        try validateExposure(duration: duration, iso: iso)
        let viaControls = v4l2Mapping != nil
        let (newDuration, newISO) = withState { state in
            state.exposure.mode = .custom
            if duration.timescale != 0 { state.exposure.duration = duration }
            if iso != Self.currentISO { state.exposure.iso = iso }
            state.sensor.changed(notifying: viaControls ? nil : completionHandler)
            return (state.exposure.duration, state.exposure.iso)
        }
        guard let mapping = v4l2Mapping else { return }
        // auto_exposure=1 (manual), exposure_time_absolute in 100 µs units, ISO onto gain.
        let time = try writeV4L2(.exposureCustom) { use in
            use.name.hasPrefix("exposure")
                ? V4L2ControlMapping.snap(newDuration.seconds * 10_000, to: use.control)
                : mapping.gain(forISO: newISO)
        }
        complete(completionHandler, at: time)
    }
}

/// Exposure settings a device holds, with the completion handlers waiting for a frame.
struct ExposureState {
    /// The exposure the virtual camera's auto exposure settles on for its scene.
    static let meteredDuration = CaptureTime(value: 1, timescale: 120)
    static let meteredISO: Float = 100

    var mode = CaptureDevice.ExposureMode.continuousAutoExposure
    var duration = meteredDuration
    var iso = meteredISO
    /// The EV bias auto exposure aims at.
    var bias: Float = 0
    /// Metered by the sensor: EV from the (biased) target.
    var targetOffset: Float = 0
    /// A bracket image's exposure, in force while that image is taken.
    var override: ExposureOverride?

    /// The exposure frames are taken with now: the device's, or a bracket image's.
    var effective: (duration: CaptureTime, iso: Float, bias: Float) {
        override?.resolve(self) ?? (duration, iso, 0)
    }

    /// A duration in microseconds; the metered one exactly when `seconds` is.
    static func duration(_ seconds: Double) -> CaptureTime {
        abs(seconds - meteredDuration.seconds) < 1e-12 ? meteredDuration : CaptureTime(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000)
    }

    /// Light gathered relative to the metered exposure: duration × ISO.
    var relativeExposure: Double {
        let (duration, iso, _) = effective
        return duration.seconds * Double(iso) / (Self.meteredDuration.seconds * Double(Self.meteredISO))
    }
}

/// A bracket image's exposure, overriding the device's for that image only.
enum ExposureOverride: Sendable, Equatable {
    /// The metered exposure offset by `bias` EV.
    case bias(Float)
    /// A duration and ISO (`currentExposureDuration` / `currentISO` keep the device's).
    case manual(duration: CaptureTime, iso: Float)

    /// The exposure duration, ISO and bias this override gives, from the device's `base`.
    func resolve(_ base: ExposureState) -> (duration: CaptureTime, iso: Float, bias: Float) {
        switch self {
        case .bias(let bias):
            return (ExposureState.duration(ExposureState.meteredDuration.seconds * pow(2, Double(bias))), ExposureState.meteredISO, bias)
        case .manual(let duration, let iso):
            return (duration.timescale == 0 ? base.duration : duration, iso == CaptureDevice.currentISO ? base.iso : iso, 0)
        }
    }
}

extension CaptureDevice {
    /// Sets (or clears) a bracket override and waits for the first frame exposed with it.
    func applyBracketOverride(_ override: ExposureOverride?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withState { state in
                state.exposure.override = override
                state.sensor.changed { _ in continuation.resume() }
            }
        }
    }
}

extension CaptureDevice {
    /// Throws `outOfRange` for a duration or ISO outside `exposureLimits`; the "current"
    /// sentinels always pass.
    func validateExposure(duration: CaptureTime, iso: Float) throws(CaptureError) {
        let limits = exposureLimits
        if duration.timescale != 0 {
            guard limits.duration.contains(duration.seconds) else {
                throw .outOfRange(name: "exposure duration", value: duration.seconds, range: limits.duration)
            }
        }
        if iso != CaptureDevice.currentISO {
            guard limits.iso.contains(Double(iso)) else { throw .outOfRange(name: "ISO", value: Double(iso), range: limits.iso) }
        }
    }
}
