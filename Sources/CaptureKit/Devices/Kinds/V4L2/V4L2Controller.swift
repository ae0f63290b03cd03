import CaptureKitV4L2

/// Carries out a V4L2 camera's control changes as SPEC.md's mapping says (`V4L2ControlMapping`):
/// each change writes the controls that give it, through v4l2src's `extra-controls` on a running
/// source and at the next start.
struct V4L2Controller: DeviceController {
    let mapping: V4L2ControlMapping
    /// The node, read again for the exposure the camera's own auto exposure runs with.
    let path: String

    func apply(_ change: ControlChange, to device: CaptureDevice) throws(CaptureError) -> CaptureTime? {
        switch change {
        case .exposureMode(let mode):
            // auto_exposure=3 (aperture priority) or 1 (manual, holding the current values); the
            // loop's cameras stay manual (their automatic gain off).
            if device.runsExposureLoop { return try write(provides(.exposureCustom) ? .exposureCustom : .iso, on: device) }
            return try write(mode == .continuousAutoExposure || mode == .autoExpose ? .exposureContinuous : .exposureLocked, on: device)
        case .exposure(let duration, let iso):
            return try writeExposure(duration: duration, iso: iso, on: device)
        case .exposureTargetBias(let bias):
            guard provides(.exposureTargetBias) else { return nil }
            // auto_exposure_bias counts 0.001 EV.
            return try write(.exposureTargetBias, on: device) { use in V4L2ControlMapping.snap(Double(bias) * 1000, to: use.control) }
        case .focusMode(let mode):
            if mode == .locked || device.searchesFocus(for: mode) { return try write(.focusLocked, on: device) }
            return try write(mode == .continuousAutoFocus ? .focusContinuous : .focusAutoOnce, on: device)
        case .lensPosition(let position):
            // focus_absolute: larger is nearer.
            return try write(.lensPosition, on: device) { _ in mapping.focusValue(forLensPosition: position) }
        case .autoFocusRangeRestriction(let restriction):
            guard provides(.autoFocusRangeRestriction) else { return nil }
            return try write(.autoFocusRangeRestriction, on: device) { _ in [0, 2, 3][restriction.rawValue] }
        case .smoothAutoFocus:
            return nil
        case .whiteBalanceMode(let mode):
            // The loop's cameras have no white_balance_automatic to write.
            guard !device.runsWhiteBalanceLoop else { return nil }
            return try write(mode == .continuousAutoWhiteBalance ? .whiteBalanceContinuous : .whiteBalanceLocked, on: device)
        case .whiteBalanceGains(let gains):
            return try writeGains(gains, on: device)
        case .zoom(let factor):
            guard provides(.zoom) else { return nil }
            // zoom_absolute: UVC counts 100 = 1×.
            return try write(.zoom, on: device) { use in
                V4L2ControlMapping.snap(use.control.minimum > 0 ? factor * Double(use.control.minimum) : Double(use.control.minimum) + (factor - 1) * 100,
                                        to: use.control)
            }
        case .torch(let level):
            // led_mode=2 "Torch", intensity_torch_mode scaled over its range; out: led_mode=0,
            // the intensity at its minimum.
            guard level > 0 else { return try write(resetting: .torch, on: device) { $0.setting != nil ? 0 : $0.control.minimum } }
            return try write(.torch, on: device) { use in
                V4L2ControlMapping.snap(Double(use.control.minimum) + Double(level) * Double(use.control.maximum - use.control.minimum), to: use.control)
            }
        case .flash:
            return try write(.flash, on: device)
        case .lowLightBoost(let allowed):
            // exposure_dynamic_framerate=1 (or backlight_compensation at its maximum), else the
            // controls' defaults.
            guard provides(.lowLightBoost) else { return nil }
            return allowed ? try write(.lowLightBoost, on: device) : try write(resetting: .lowLightBoost, on: device) { $0.control.defaultValue }
        case .videoHDR(let enabled):
            guard provides(.videoHDR) else { return nil }
            return enabled ? try write(.videoHDR, on: device) : try write(resetting: .videoHDR, on: device) { _ in 0 }
        }
    }

    /// The exposure time and ISO the camera's controls hold now, each nil where the camera has
    /// no such control or its controls cannot be read (a read of each: a few ioctls).
    func exposureNow(of device: CaptureDevice) -> (duration: CaptureTime?, iso: Float?) {
        // Only the exposure time and gain are read again (the table and its mapping are the
        // device's since it was found): this runs on the streaming thread for every still.
        let reading = ExposureState(reading: mapping, values: V4L2ControlQuery.currentValues(of: exposureControls, ofDeviceAt: path))
        return exposure(reading)
    }

    /// A camera with automatic switches of its own (auto exposure or gain, continuous focus,
    /// automatic white balance) has its values read back while it runs.
    var readsAutoValues: Bool { !mapping.automaticSwitches.all.isEmpty }

    /// The automatic switches and the exposure time, gain, focus_absolute and white-balance
    /// controls, read now (one open and an ioctl each): the values the camera's own automatic
    /// modes reached.
    func autoValuesNow(of device: CaptureDevice) -> AutoValues? {
        let switches = mapping.automaticSwitches
        let focus = mapping[.lensPosition].control(.focusAbsolute)
        let balance = mapping[.whiteBalanceGains].uses.map(\.control)
        let values = V4L2ControlQuery.currentValues(of: switches.all + exposureControls + [focus].compactMap { $0 } + balance, ofDeviceAt: path)
        guard !values.isEmpty else { return nil }
        let (duration, iso) = exposure(ExposureState(reading: mapping, values: values))
        return AutoValues(exposureDuration: duration, iso: iso,
                          lensPosition: focus.flatMap { values[$0.id] }.flatMap(mapping.lensPosition(forFocusValue:)),
                          whiteBalanceGains: gains(reading: values, on: device),
                          exposureIsAutomatic: V4L2AutomaticSwitches.anyOn(switches.exposure, in: values),
                          focusIsAutomatic: V4L2AutomaticSwitches.anyOn(switches.focus, in: values),
                          whiteBalanceIsAutomatic: V4L2AutomaticSwitches.anyOn(switches.whiteBalance, in: values))
    }

    private var exposureControls: [V4L2ControlInfo] { (mapping[.exposureCustom].uses + mapping[.iso].uses).map(\.control) }

    private func exposure(_ reading: ExposureState) -> (duration: CaptureTime?, iso: Float?) {
        (mapping[.exposureCustom].isSupported ? reading.duration : nil, mapping.isoRange != nil ? reading.iso : nil)
    }

    /// The gains the white-balance controls stand for, as `writeGains` writes them: the colour
    /// temperature's, or red_balance and blue_balance over their defaults (relative to green,
    /// the smallest made 1).
    private func gains(reading values: [UInt32: Int64], on device: CaptureDevice) -> CaptureDevice.WhiteBalanceGains? {
        if let control = mapping[.whiteBalanceGains].control(.whiteBalanceTemperature), let kelvin = values[control.id] {
            return device.deviceWhiteBalanceGains(for: .init(temperature: Float(kelvin), tint: 0))
        }
        guard let red = mapping[.whiteBalanceGains].control(.redBalance), let blue = mapping[.whiteBalanceGains].control(.blueBalance),
              red.defaultValue > 0, blue.defaultValue > 0, let redValue = values[red.id], let blueValue = values[blue.id] else { return nil }
        let relative = (red: Float(redValue) / Float(red.defaultValue), blue: Float(blueValue) / Float(blue.defaultValue))
        let smallest = max(min(relative.red, relative.blue, 1), 1e-3)
        return CaptureDevice.WhiteBalanceGains(redGain: relative.red / smallest, greenGain: 1 / smallest, blueGain: relative.blue / smallest)
    }

    /// Whether the camera provides `capability` with its own controls.
    func provides(_ capability: DeviceCapability) -> Bool {
        if case .device = mapping[capability] { return true }
        return false
    }

    /// Writes the controls that give `capability`: the fixed settings that select a mode, and a
    /// value from `value` for each control whose value varies.
    private func write(_ capability: DeviceCapability, on device: CaptureDevice,
                       value: (V4L2ControlMapping.ControlUse) -> Int64? = { _ in nil }) throws(CaptureError) -> CaptureTime? {
        guard case .device(let uses) = mapping[capability] else { throw .unsupported(feature: "\(capability)", device: device.uniqueID) }
        return try device.writeSourceControls(uses.compactMap { use in (use.setting ?? value(use)).map { (use.name, String($0)) } })
    }

    /// Writes every control of `capability` with `value(use)`, its mode settings included: the
    /// way back out of a mode (led_mode=0, a control's default).
    private func write(resetting capability: DeviceCapability, on device: CaptureDevice,
                       to value: (V4L2ControlMapping.ControlUse) -> Int64) throws(CaptureError) -> CaptureTime? {
        try device.writeSourceControls(mapping[capability].uses.map { ($0.name, String(value($0))) })
    }

    /// A manual exposure: auto_exposure=1 where the camera has it, exposure_time_absolute in
    /// 100 µs units, ISO onto the gain (or ISO) control; cameras with a gain but no exposure
    /// time (vivid) get the gain alone.
    private func writeExposure(duration: CaptureTime, iso: Float, on device: CaptureDevice) throws(CaptureError) -> CaptureTime? {
        guard provides(.exposureCustom) else { return try write(.iso, on: device) { _ in mapping.gain(forISO: iso) } }
        return try write(.exposureCustom, on: device) { use in
            use.name.hasPrefix("exposure") ? V4L2ControlMapping.snap(duration.seconds * 10_000, to: use.control) : mapping.gain(forISO: iso)
        }
    }

    /// White-balance gains: white_balance_automatic=0, then the colour temperature the gains
    /// correct for, or red_balance / blue_balance as the gains relative to green times the
    /// controls' defaults (their unity).
    private func writeGains(_ gains: CaptureDevice.WhiteBalanceGains, on device: CaptureDevice) throws(CaptureError) -> CaptureTime? {
        let kelvin = Double(device.temperatureAndTintValues(for: gains).temperature)
        return try write(.whiteBalanceGains, on: device) { use in
            switch use.name {
            case "red_balance": V4L2ControlMapping.snap(Double(use.control.defaultValue) * Double(gains.redGain / gains.greenGain), to: use.control)
            case "blue_balance": V4L2ControlMapping.snap(Double(use.control.defaultValue) * Double(gains.blueGain / gains.greenGain), to: use.control)
            default: V4L2ControlMapping.snap(kelvin, to: use.control)
            }
        }
    }
}
