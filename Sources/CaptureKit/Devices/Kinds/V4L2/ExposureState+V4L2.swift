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
