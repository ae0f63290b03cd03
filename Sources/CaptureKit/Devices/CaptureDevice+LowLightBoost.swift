extension CaptureDevice {
    /// Whether the device can boost exposure in low light: the virtual camera (auto exposure may
    /// then raise ISO from 800 to the format's maximum), and V4L2 cameras with
    /// exposure_dynamic_framerate or backlight_compensation.
    public var isLowLightBoostSupported: Bool {
        capabilities.byDevice(.lowLightBoost)
    }

    /// Whether low-light boost is in use now: on the virtual camera while auto exposure needs
    /// more than ISO 800; on V4L2 cameras whenever it is allowed (the camera decides).
    public var isLowLightBoostEnabled: Bool {
        observed(\.isLowLightBoostEnabled)
        return readState { $0.lowLight.isEnabled }
    }

    /// Whether the device may boost in low light.
    public var automaticallyEnablesLowLightBoostWhenAvailable: Bool {
        get {
            readState { $0.lowLight.isAllowed }
        }
        set { reportingFailure(of: "automaticallyEnablesLowLightBoostWhenAvailable", newValue) { () throws(CaptureError) in try setAutomaticallyEnablesLowLightBoostWhenAvailable(newValue) } }
    }

    /// Allows or forbids low-light boost; needs the configuration lock and support.
    public func setAutomaticallyEnablesLowLightBoostWhenAvailable(_ allowed: Bool) throws(CaptureError) {
        try requireConfigurationLock()
        guard isLowLightBoostSupported else { throw .unsupported(feature: "low-light boost", device: uniqueID) }
        try applyControl(.lowLightBoost(allowed: allowed))
        // A sensor that paints is boosted by the exposure loop when it needs to be; a camera
        // boosts by itself whenever allowed.
        let decidesItself = completesByMetering
        withState { state in
            state.lowLight.isAllowed = allowed
            if decidesItself || !allowed { state.lowLight.isEnabled = allowed && decidesItself }
        }
    }
}

/// Low-light boost settings a device holds.
struct LowLightState {
    /// The ISO auto exposure stays under unless boosting.
    static let unboostedMaxISO: Float = 800

    var isAllowed = false
    var isEnabled = false
}
