import Dispatch

extension CaptureDevice {
    /// Hands `change` to the device's controller (`DeviceController`), whose settings the
    /// device's state already holds. Returns the running time it was written at (nil when
    /// nothing runs, or the device has nothing to write).
    @discardableResult
    func applyControl(_ change: ControlChange) throws(CaptureError) -> CaptureTime? {
        try backend.controller?.apply(change, to: self)
    }

    /// Whether a change completes by metering the frames after a write (a camera's controls),
    /// rather than on the frame the sensor first paints it into.
    var completesByMetering: Bool { capabilities.timing == .metered }

    /// Records control values for the source element's next start and sets them on the running
    /// source at once (as the backend writes them); no lock needed (callers check it where users
    /// call). Returns the running time of the write (nil when the device is not running).
    @discardableResult
    func writeSourceControls(_ controls: [(name: String, value: String)]) throws(CaptureError) -> CaptureTime? {
        let running = withState { state -> (any RunningSourceControl)? in
            for (name, value) in controls { state.sourceControls[name] = value }
            return state.runningSource
        }
        guard let running, !controls.isEmpty else { return nil }
        return try running.writeControls(controls)
    }

    /// The exposure limits a custom exposure and a bracket are held to: the sensor's, and where
    /// the exposure paces the frames no longer than `activeVideoMaxFrameDuration`.
    var exposureLimits: (duration: ClosedRange<Double>, iso: ClosedRange<Double>) {
        let limits = sensorExposureLimits
        guard capabilities.exposureLimitedByFrameDuration else { return limits }
        let longest = readState(\.longestFrameDuration)
        return (limits.duration.lowerBound...max(limits.duration.lowerBound, min(limits.duration.upperBound, longest)), limits.iso)
    }

    /// The sensor's exposure limits: what the device's controls allow, or the active format's.
    var sensorExposureLimits: (duration: ClosedRange<Double>, iso: ClosedRange<Double>) {
        if let limits = capabilities.exposureLimits { return (limits.duration, limits.iso) }
        let format = activeFormat
        return (format.minExposureDuration.seconds...format.maxExposureDuration.seconds, Double(format.minISO)...Double(format.maxISO))
    }
}

extension CaptureDevice {
    /// Where the software loops' control writes run, in order, off the streaming thread: the
    /// device's own queue.
    var loopWrites: DispatchQueue { state.loopWrites }
}
