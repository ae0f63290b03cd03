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
    public static let currentExposureDuration = CaptureTime.invalid
    /// Passed as the ISO to `setExposureModeCustom` to keep the current one (AVCaptureISOCurrent).
    public static let currentISO: Float = 0
    /// Passed as the bias to `setExposureTargetBias` (to be told when the current bias is in
    /// force) or to a bracket's `AutoExposureBracketedStillImageSettings` to keep the current one
    /// (AVCaptureExposureTargetBiasCurrent).
    public static let currentExposureTargetBias = Float.greatestFiniteMagnitude

    /// Whether the device offers `mode`. The virtual camera offers every mode (CaptureKit's
    /// exposure loop meters its frames); V4L2 cameras what their controls give (SPEC.md's
    /// mapping: auto_exposure, exposure_time_absolute, gain or iso_sensitivity), with the same
    /// loop where a camera has manual exposure but no auto exposure. Microphones and screens,
    /// which have no sensor, offer none.
    public func isExposureModeSupported(_ mode: ExposureMode) -> Bool {
        let capabilities = self.capabilities
        return switch mode {
        case .continuousAutoExposure: capabilities[.exposureContinuous].isSupported
        case .autoExpose: runsExposureLoop
        case .locked: capabilities[.exposureLocked].isSupported
        case .custom: capabilities.byDevice(.exposureCustom)
        }
    }

    /// Whether CaptureKit's exposure loop sets the exposure in the auto modes (the virtual
    /// camera, and V4L2 cameras without auto exposure of their own).
    var runsExposureLoop: Bool { capabilities.bySoftware(.exposureContinuous, .exposureLoop) }

    /// Whether the exposure loop can be pointed somewhere: where it meters the frames.
    public var isExposurePointOfInterestSupported: Bool { runsExposureLoop }

    /// Where auto exposure meters (a quarter of each dimension around it), in device coordinates
    /// ({0,0} top left, {1,1} bottom right of the unrotated sensor image); {0.5,0.5} by default
    /// meters the centre half. Takes effect with the next `setExposureMode`.
    public var exposurePointOfInterest: CGPoint {
        get {
            observed(\.exposurePointOfInterest)
            return readState { $0.exposure.pointOfInterest }
        }
        set { reportingFailure(of: "exposurePointOfInterest", newValue) { () throws(CaptureError) in try setExposurePointOfInterest(newValue) } }
    }

    /// Sets `exposurePointOfInterest`; needs the configuration lock, support and a point inside
    /// {0,0} … {1,1}.
    public func setExposurePointOfInterest(_ point: CGPoint) throws(CaptureError) {
        try requireConfigurationLock()
        guard isExposurePointOfInterestSupported else { throw .unsupported(feature: "exposure point of interest", device: uniqueID) }
        try Self.validatePointOfInterest(point, name: "exposure point of interest")
        withState { $0.exposure.pointOfInterest = point }
    }

    /// Whether auto exposure is still moving towards its target.
    public var isAdjustingExposure: Bool {
        observed(\.isAdjustingExposure)
        return readState { $0.exposure.isAdjusting }
    }

    /// The exposure mode.
    public var exposureMode: ExposureMode {
        get {
            observed(\.exposureMode)
            return readState { $0.exposure.mode }
        }
        set { reportingFailure(of: "exposureMode", newValue) { () throws(CaptureError) in try setExposureMode(newValue) } }
    }

    /// Sets the exposure mode; needs the configuration lock and a supported mode. Locking holds
    /// the current duration and ISO; the auto modes move the exposure over the next frames until
    /// `exposureTargetOffset` is about 0 (`isAdjustingExposure` meanwhile; auto expose then locks).
    public func setExposureMode(_ mode: ExposureMode) throws(CaptureError) {
        try requireConfigurationLock()
        guard isExposureModeSupported(mode) else { throw .unsupported(feature: "exposure mode \(mode)", device: uniqueID) }
        guard mode != .custom else {
            try checkedSetExposureModeCustom(duration: Self.currentExposureDuration, iso: Self.currentISO, completionHandler: nil)
            return
        }
        try applyControl(.exposureMode(mode))
        withState { state in
            state.exposure.mode = mode
            if mode == .locked { state.exposure.isAdjusting = false }
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
    /// The lowest bias: -8 EV for CaptureKit's exposure loop, auto_exposure_bias's minimum for
    /// V4L2 cameras that have it, else 0.
    public var minExposureTargetBias: Float { exposureTargetBiasRange.lowerBound }
    /// The highest bias.
    public var maxExposureTargetBias: Float { exposureTargetBiasRange.upperBound }

    private var exposureTargetBiasRange: ClosedRange<Float> {
        if let range = capabilities.exposureTargetBiasRange { return range }
        return runsExposureLoop ? -8...8 : 0...0
    }

    /// How far the current exposure is from the target, in EV, metered by the sensor over the
    /// centre of the frame (positive: brighter than the target).
    public var exposureTargetOffset: Float {
        observed(\.exposureTargetOffset)
        return readState { $0.exposure.targetOffset }
    }

    /// Sets the exposure target bias (EV); needs the configuration lock. In the auto modes the
    /// exposure follows it over the next frames; in custom mode only the metering
    /// (`exposureTargetOffset`) does. `completionHandler` gets the presentation time of the first
    /// frame metered against it (V4L2 auto_exposure_bias: the first frame whose metering moved
    /// half way to the new bias, see `setExposureModeCustom`).
    func checkedSetExposureTargetBias(_ bias: Float, completionHandler: (@Sendable (CaptureTime) -> Void)?) throws(CaptureError) {
        try requireConfigurationLock()
        guard maxExposureTargetBias > minExposureTargetBias else { throw .unsupported(feature: "exposure target bias", device: uniqueID) }
        let bias = bias == Self.currentExposureTargetBias ? exposureTargetBias : bias
        guard (minExposureTargetBias...maxExposureTargetBias).contains(bias) else {
            throw .outOfRange(name: "exposure target bias", value: Double(bias), range: Double(minExposureTargetBias)...Double(maxExposureTargetBias))
        }
        let viaControls = completesByMetering && capabilities.byDevice(.exposureTargetBias)
        let before = withState { state in
            defer { state.exposure.bias = bias }
            state.sensor.changed(notifying: viaControls ? nil : completionHandler)
            return state.exposure.bias
        }
        guard viaControls else { return }
        let time = try applyControl(.exposureTargetBias(bias))
        complete(completionHandler, writtenAt: time, lightRatio: pow(2, Double(bias - before)))
    }

    /// The lens aperture (f-number); fixed.
    public var lensAperture: Float { capabilities.lensAperture }

    /// Sets exposure duration and ISO and switches to custom exposure. Pass
    /// `currentExposureDuration` / `currentISO` to keep one of them.
    ///
    /// `completionHandler` runs on a CaptureKit queue with the presentation time of the first
    /// frame exposed with the new settings, as exactly as the device allows:
    /// - the virtual camera: exactly that frame;
    /// - a V4L2 camera on a running session: the camera applies controls a few frames after
    ///   they are written and does not say which frame, so CaptureKit meters the frames and
    ///   gives the first one, presented after the write, whose brightness moved at least half
    ///   way (in stops) towards what the new exposure gives. A change too small to see (under
    ///   ¼ stop), or one the camera never shows (a clipped scene), gets the first frame begun
    ///   after the write, or the sixth frame after it, at the latest;
    /// - a device no session runs: zero, at once (the settings apply when it starts).
    /// Lens position and white-balance gains on V4L2 complete with the first frame begun after
    /// the write (nothing in the frame tells when the camera applied them).
    func checkedSetExposureModeCustom(duration: CaptureTime, iso: Float,
                                      completionHandler: (@Sendable (CaptureTime) -> Void)?) throws(CaptureError) {
        try requireConfigurationLock()
        guard isExposureModeSupported(.custom) else { throw .unsupported(feature: "custom exposure", device: uniqueID) }
        if duration.timescale != 0, !sensorExposureLimits.duration.contains(duration.seconds) {
            throw .outOfRange(name: "exposure duration", value: duration.seconds, range: sensorExposureLimits.duration)
        }
        try validateExposure(duration: Self.currentExposureDuration, iso: iso)  // the ISO, before anything changes
        lengthenFrames(toHold: duration)
        try validateExposure(duration: duration, iso: iso)
        let viaControls = completesByMetering
        let pace = pacedFrameRate
        defer { paceChanged(from: pace) }
        let (oldDuration, oldISO) = readState { ($0.exposure.duration, $0.exposure.iso) }
        let (newDuration, newISO) = withState { state in
            state.exposure.mode = .custom
            if duration.timescale != 0 { state.exposure.duration = duration }
            if iso != Self.currentISO { state.exposure.iso = iso }
            state.sensor.changed(notifying: viaControls ? nil : completionHandler)
            return (state.exposure.duration, state.exposure.iso)
        }
        guard viaControls else { return }
        let ratio = newDuration.seconds * Double(newISO) / (oldDuration.seconds * Double(oldISO))
        complete(completionHandler, writtenAt: try applyControl(.exposure(duration: newDuration, iso: newISO)), lightRatio: ratio.isFinite && ratio > 0 ? ratio : nil)
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
    /// Metered from the frames: EV from the (biased) target.
    var targetOffset: Float = 0
    var pointOfInterest = CGPoint(x: 0.5, y: 0.5)
    /// Set by the exposure loop while it moves towards the target.
    var isAdjusting = false
    /// A bracket image's exposure, in force while that image is taken.
    var override: ExposureOverride?

    /// The exposure frames are taken with now: the device's, or a bracket image's. The bias is
    /// the one the picture was exposed for (EXIF ExposureBiasValue): a bracket image's, else the
    /// target bias while an auto mode aims at it, else 0.
    var effective: (duration: CaptureTime, iso: Float, bias: Float) {
        override?.resolve(self) ?? (duration, iso, mode == .continuousAutoExposure || mode == .autoExpose ? bias : 0)
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
    /// Auto exposure offset by `bias` EV: the exposure worked out from the metering when the
    /// bracket began (`CaptureDevice.biasedExposure(_:)`).
    case bias(Float, duration: CaptureTime, iso: Float)
    /// A duration and ISO (`currentExposureDuration` / `currentISO` keep the device's).
    case manual(duration: CaptureTime, iso: Float)

    /// The exposure duration, ISO and bias this override gives, from the device's `base`.
    func resolve(_ base: ExposureState) -> (duration: CaptureTime, iso: Float, bias: Float) {
        switch self {
        case .bias(let bias, let duration, let iso):
            return (duration, iso, bias)
        case .manual(let duration, let iso):
            return (duration.isValid ? duration : base.duration, iso == CaptureDevice.currentISO ? base.iso : iso, 0)
        }
    }
}

extension CaptureDevice {
    /// The exposure auto exposure would give for `bias` EV, from what it meters now: the
    /// current exposure scaled by 2^(bias − the current bias − `exposureTargetOffset`), so a
    /// 0 EV image matches the settled exposure whatever the scene. Duration first, up to the
    /// longest exposure, then ISO, within the device's limits.
    func biasedExposure(_ requested: Float) -> ExposureOverride {
        let limits = exposureLimits
        let exposure = readState { $0.exposure }
        let bias = requested == Self.currentExposureTargetBias ? exposure.bias : requested
        let factor = pow(2, Double(bias - exposure.bias - exposure.targetOffset))
        let light = exposure.duration.seconds * Double(exposure.iso) * factor
        // A camera with a gain and no exposure time (0...0) keeps its duration: ISO takes it all.
        let seconds = limits.duration.upperBound > 0
            ? min(limits.duration.upperBound, max(limits.duration.lowerBound, exposure.duration.seconds * factor)) : exposure.duration.seconds
        let iso = min(limits.iso.upperBound, max(limits.iso.lowerBound, light / seconds))
        return .bias(bias, duration: ExposureState.duration(seconds), iso: Float(iso))
    }
}

extension CaptureDevice {
    /// Sets (or clears) a bracket override and waits for the first frame exposed with it (a
    /// camera's controls: `applyMeteredBracketOverride`).
    func applyBracketOverride(_ override: ExposureOverride?) async {
        guard !completesByMetering else {
            await applyMeteredBracketOverride(override)
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withState { state in
                state.exposure.override = override
                state.sensor.changed { _ in continuation.resume() }
            }
        }
    }
}

extension CaptureDevice {
    /// As AVFoundation does, an exposure longer than `activeVideoMaxFrameDuration` (within the
    /// sensor's limits and a frame duration the format offers) lengthens it to the exposure, so
    /// the frames slow down to hold it; where the exposure is not tied to the frame (a V4L2
    /// camera's own controls), nothing changes.
    private func lengthenFrames(toHold duration: CaptureTime) {
        guard duration.timescale != 0, capabilities.exposureLimitedByFrameDuration, duration.seconds > readState(\.longestFrameDuration),
              sensorExposureLimits.duration.contains(duration.seconds),
              activeFormat.videoSupportedFrameRateRanges.contains(where: { duration.seconds <= $0.maxFrameDuration.seconds + 1e-9 }) else { return }
        withState { $0.maxFrameDuration = duration }
    }

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
