import GStreamerSwift

extension CaptureDevice {
    /// A camera's bracket image: its exposure written through the manual controls (exposure
    /// time and gain), then the wait for the first frame that carries it, found by metering
    /// (`ControlChangeMatcher`: UVC cameras apply controls a few frames late, so counting frames
    /// would be a guess). nil ends the bracket: the device's own exposure is written back.
    /// Returns that frame's presentation time (zero when no session runs).
    @discardableResult
    func applyMeteredBracketOverride(_ override: ExposureOverride?) async -> CaptureTime {
        let (own, before) = withState { state in
            defer { state.exposure.override = override }
            return (state.exposure, state.exposure.effective)
        }
        let after = override?.resolve(own) ?? (duration: own.duration, iso: own.iso, bias: own.bias)
        let ratio = after.duration.seconds * Double(after.iso) / (before.duration.seconds * Double(before.iso))
        let written: CaptureTime?
        do {
            if override == nil, own.mode == .continuousAutoExposure || own.mode == .autoExpose, !runsExposureLoop {
                written = try applyControl(.exposureMode(own.mode))
            } else {
                written = try applyControl(.exposure(duration: after.duration, iso: after.iso))
            }
        } catch {
            CaptureLog.logger.warning("bracket: exposure controls of \(uniqueID) not written: \(error)")
            written = nil
        }
        return await frameCarryingChange(writtenAt: written, lightRatio: ratio.isFinite && ratio > 0 ? ratio : nil)
    }

    /// Reads a camera's exposure time and ISO from its controls into the device's state (its
    /// own auto exposure moves them): what a bracket's auto-exposure images are offset from.
    /// Does nothing where the controls cannot be read.
    func refreshExposureReading() {
        let reading = exposureNow()
        withState { state in
            if let duration = reading.duration { state.exposure.duration = duration }
            if let iso = reading.iso { state.exposure.iso = iso }
        }
    }

    /// The exposure time and ISO the device's controls hold now, each nil where it cannot say.
    func exposureNow() -> (duration: CaptureTime?, iso: Float?) { backend.controller?.exposureNow(of: self) ?? (nil, nil) }
}
