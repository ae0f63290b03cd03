import Dispatch

extension CaptureDevice {
    /// Writes a manual exposure: auto_exposure=1 where the camera has it,
    /// exposure_time_absolute in 100 µs units, ISO onto the gain (or ISO) control; cameras with
    /// a gain but no exposure time (vivid) get the gain alone.
    @discardableResult
    func writeV4L2Exposure(duration: CaptureTime, iso: Float) throws(CaptureError) -> CaptureTime? {
        guard v4l2Provides(.exposureCustom) else {
            return try writeV4L2(.iso) { _ in self.v4l2Mapping?.gain(forISO: iso) }
        }
        return try writeV4L2(.exposureCustom) { use in
            use.name.hasPrefix("exposure")
                ? V4L2ControlMapping.snap(duration.seconds * 10_000, to: use.control)
                : self.v4l2Mapping?.gain(forISO: iso)
        }
    }

    /// Writes white-balance gains: white_balance_automatic=0, then the colour temperature the
    /// gains correct for, or red_balance / blue_balance as the gains relative to green times the
    /// controls' defaults (their unity).
    @discardableResult
    func writeV4L2Gains(_ gains: WhiteBalanceGains) throws(CaptureError) -> CaptureTime? {
        let kelvin = Double(temperatureAndTintValues(for: gains).temperature)
        return try writeV4L2(.whiteBalanceGains) { use in
            switch use.name {
            case "red_balance": V4L2ControlMapping.snap(Double(use.control.defaultValue) * Double(gains.redGain / gains.greenGain), to: use.control)
            case "blue_balance": V4L2ControlMapping.snap(Double(use.control.defaultValue) * Double(gains.blueGain / gains.greenGain), to: use.control)
            default: V4L2ControlMapping.snap(kelvin, to: use.control)
            }
        }
    }

    /// Writes the lens position: focus_absolute (larger is nearer).
    @discardableResult
    func writeV4L2Lens(_ position: Float) throws(CaptureError) -> CaptureTime? {
        try writeV4L2(.lensPosition) { _ in self.v4l2Mapping?.focusValue(forLensPosition: position) }
    }

    /// Where the software loops' control writes run, in order, off the streaming thread.
    static let loopWrites = DispatchQueue(label: "capturekit.device.loop-writes")
}
