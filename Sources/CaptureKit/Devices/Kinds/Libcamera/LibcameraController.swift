/// Carries out a libcamera camera's control changes by setting `libcamerasrc`'s properties
/// (libcamera 0.4 and later), which the element hands to the camera with its next request, and
/// reads back the exposure the camera reports in each request's metadata. Only the controls
/// `LibcameraControls` found on both sides are written.
struct LibcameraController: DeviceController {
    let controls: LibcameraControls

    func apply(_ change: ControlChange, to device: CaptureDevice) throws(CaptureError) -> CaptureTime? {
        let values = properties(for: change, on: device)
        guard !values.isEmpty else { return nil }
        return try device.writeSourceControls(values)
    }

    /// The element properties that give `change`: libcamera's units (µs, gain, dioptres, EV).
    func properties(for change: ControlChange, on device: CaptureDevice) -> [(name: String, value: String)] {
        switch change {
        case .exposureMode(let mode):
            guard controls.exposureManual else { return [] }
            if mode == .continuousAutoExposure || mode == .autoExpose {
                // Back to auto exposure: the modes (0.5+), or zero for each value (before).
                return controls.exposureModes ? [("exposure-time-mode", "auto"), ("analogue-gain-mode", "auto")]
                                              : [("exposure-time", "0"), ("analogue-gain", "0")]
            }
            let exposure = device.readState { $0.exposure }
            return manual(duration: exposure.duration, iso: exposure.iso)
        case .exposure(let duration, let iso):
            return controls.exposureManual ? manual(duration: duration, iso: iso) : []
        case .exposureTargetBias(let bias):
            return controls.exposureBias ? [("exposure-value", Self.number(Double(bias)))] : []
        case .focusMode(let mode):
            if mode == .continuousAutoFocus && controls.focusContinuous && !device.searchesFocus(for: mode) { return [("af-mode", "continuous")] }
            return controls.lens ? [("af-mode", "manual")] : []
        case .lensPosition(let position):
            guard let range = controls.lensRange else { return [] }
            // AVFoundation's 0 is the nearest focus, libcamera's largest dioptre value.
            let dioptres = range.upperBound - Double(min(max(position, 0), 1)) * (range.upperBound - range.lowerBound)
            return [("af-mode", "manual"), ("lens-position", Self.number(dioptres))]
        case .autoFocusRangeRestriction(let restriction):
            guard controls.drives("af-range", "AfRange") else { return [] }
            return [("af-range", ["full", "macro", "normal"][restriction.rawValue])]
        case .smoothAutoFocus(let smooth):
            return controls.drives("af-speed", "AfSpeed") ? [("af-speed", smooth ? "normal" : "fast")] : []
        case .whiteBalanceMode(let mode):
            guard controls.whiteBalanceSwitch else { return [] }
            if mode == .continuousAutoWhiteBalance || mode == .autoWhiteBalance { return [("awb-enable", "true")] }
            guard controls.whiteBalanceManual else { return [("awb-enable", "false")] }
            return gains(device.readState { $0.whiteBalance.gains })
        case .whiteBalanceGains(let value):
            return controls.whiteBalanceManual ? gains(value) : []
        case .lowLightBoost(let allowed):
            return controls.longExposureMode ? [("ae-exposure-mode", allowed ? "long" : "normal")] : []
        case .zoom, .torch, .flash, .videoHDR:
            return []
        }
    }

    /// The exposure time (µs) and analogue gain the camera reported for its latest frame: the
    /// element's getters return the request metadata.
    func exposureNow(of device: CaptureDevice) -> (duration: CaptureTime?, iso: Float?) {
        guard controls.exposureManual, let running = device.readState({ $0.runningSource }) else { return (nil, nil) }
        let microseconds = running.readControl("exposure-time").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        let gain = running.readControl("analogue-gain").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        return (microseconds.map { ExposureState.duration($0 / 1e6) }, gain.map { Float($0 * 100) })
    }

    /// The exposure time in µs and ISO as analogue gain (ISO 100 = 1×), fixed: by their modes
    /// (0.5+), or by being non-zero (before).
    private func manual(duration: CaptureTime, iso: Float) -> [(name: String, value: String)] {
        let modes: [(name: String, value: String)] = controls.exposureModes ? [("exposure-time-mode", "manual"), ("analogue-gain-mode", "manual")] : []
        return modes + [("exposure-time", String(max(1, Int((duration.seconds * 1e6).rounded())))), ("analogue-gain", Self.number(max(1, Double(iso) / 100)))]
    }

    /// Auto white balance off, and the red and blue gains relative to green. The array's values
    /// are typed: the element reads each as a float, and an untyped "2" or "1.5" would parse as
    /// an int or a double (read as 0).
    private func gains(_ gains: CaptureDevice.WhiteBalanceGains) -> [(name: String, value: String)] {
        let red = Self.number(Double(gains.redGain / gains.greenGain)), blue = Self.number(Double(gains.blueGain / gains.greenGain))
        return [("awb-enable", "false"), ("colour-gains", "<(float)\(red), (float)\(blue)>")]
    }

    /// A float as GStreamer parses it ("2.5", "0").
    static func number(_ value: Double) -> String { String(format: "%g", value) }
}
