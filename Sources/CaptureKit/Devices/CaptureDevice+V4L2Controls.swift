import GStreamerSwift

extension CaptureDevice {
    /// Whether the V4L2 camera provides `capability` with its own controls.
    func v4l2Provides(_ capability: V4L2ControlMapping.Capability) -> Bool {
        if case .device? = v4l2Mapping?[capability] { return true }
        return false
    }

    /// Writes the controls that give `capability`: the fixed settings that select a mode, and a
    /// value from `value` for each control whose value varies. Applied at once on a running
    /// pipeline (v4l2src `extra-controls`), else when the device next starts.
    /// Returns the running time of the write (nil when the device is not running).
    @discardableResult
    func writeV4L2(_ capability: V4L2ControlMapping.Capability,
                   value: (V4L2ControlMapping.ControlUse) -> Int64? = { _ in nil }) throws(CaptureError) -> CaptureTime? {
        guard let mapping = v4l2Mapping, case .device(let uses) = mapping[capability] else {
            throw .unsupported(feature: "\(capability)", device: uniqueID)
        }
        return try writeV4L2Controls(uses.compactMap { use in (use.setting ?? value(use)).map { (use.name, $0) } })
    }

    /// Writes every control of `capability` with `value(use)`, its mode settings included: the
    /// way back out of a mode (led_mode=0, a control's default).
    func writeV4L2(resetting capability: V4L2ControlMapping.Capability,
                   to value: (V4L2ControlMapping.ControlUse) -> Int64) throws(CaptureError) {
        try writeV4L2Controls((v4l2Mapping?[capability].uses ?? []).map { ($0.name, value($0)) })
    }

    /// Records V4L2 controls by name for the next start and writes them to the running source at
    /// once; no lock needed (callers check it where users call).
    @discardableResult
    func writeV4L2Controls(_ pairs: [(String, Int64)]) throws(CaptureError) -> CaptureTime? {
        let running = withState { state -> (any RunningSourceControl)? in
            for (name, setting) in pairs { state.v4l2Controls[name] = setting }
            return state.runningSource
        }
        guard let running, !pairs.isEmpty else { return nil }
        return try running.writeV4L2Controls("c," + pairs.map { "\($0.0)=\($0.1)" }.joined(separator: ","))
    }

    /// The exposure limits a custom exposure and a bracket are held to: the sensor's, and on
    /// the virtual camera no longer than `activeVideoMaxFrameDuration` (its exposure paces
    /// its frames; a V4L2 camera keeps what its controls allow).
    var exposureLimits: (duration: ClosedRange<Double>, iso: ClosedRange<Double>) {
        let limits = sensorExposureLimits
        guard backend.simulatesSensor else { return limits }
        let longest = readState(\.longestFrameDuration)
        return (limits.duration.lowerBound...max(limits.duration.lowerBound, min(limits.duration.upperBound, longest)), limits.iso)
    }

    /// The sensor's exposure limits: the virtual camera's format, or what a V4L2 camera's
    /// controls allow.
    var sensorExposureLimits: (duration: ClosedRange<Double>, iso: ClosedRange<Double>) {
        if let mapping = v4l2Mapping {
            let durations = mapping.exposureDurationRange.map { $0.lowerBound.seconds...$0.upperBound.seconds } ?? 0...0
            let isos = mapping.isoRange.map { Double($0.lowerBound)...Double($0.upperBound) } ?? 0...0
            return (durations, isos)
        }
        let format = activeFormat
        return (format.minExposureDuration.seconds...format.maxExposureDuration.seconds, Double(format.minISO)...Double(format.maxISO))
    }
}

extension ExposureState {
    /// A V4L2 camera's exposure as its controls read at discovery: exposure time and ISO from
    /// the gain (or ISO) control's current value, where the camera has them.
    /// The exposure time and ISO the mapping's controls hold, or `values` (by control id) where
    /// they were read again since.
    init(reading mapping: V4L2ControlMapping, values: [UInt32: Int64] = [:]) {
        self.init()
        let uses = mapping[.exposureCustom].uses
        if let control = uses.first(where: { $0.name.hasPrefix("exposure") })?.control, let time = values[control.id] ?? control.value {
            duration = V4L2ControlMapping.duration(time)
        }
        // The gain beside the exposure time, or alone on a camera with a gain only (vivid).
        let gainUse = uses.first { !$0.name.hasPrefix("exposure") && $0.setting == nil } ?? mapping[.iso].uses.first { $0.setting == nil }
        if let control = gainUse?.control, let gain = values[control.id] ?? control.value, let iso = mapping.iso(forGain: gain) {
            self.iso = iso
        }
    }
}
