import GStreamerSwift

extension CaptureDevice {
    /// A V4L2 camera's bracket image: its exposure written through the manual controls
    /// (exposure time and gain), then the wait for the first frame that carries it, found by
    /// metering (`ControlChangeMatcher`: UVC cameras apply controls a few frames late, so
    /// counting frames would be a guess). nil ends the bracket: the device's own exposure is
    /// written back. Returns that frame's presentation time (zero when no session runs).
    @discardableResult
    func applyV4L2BracketOverride(_ override: ExposureOverride?) async -> CaptureTime {
        let (own, before) = withState { state in
            defer { state.exposure.override = override }
            return (state.exposure, state.exposure.effective)
        }
        let after = override?.resolve(own) ?? (duration: own.duration, iso: own.iso, bias: own.bias)
        let ratio = after.duration.seconds * Double(after.iso) / (before.duration.seconds * Double(before.iso))
        let written: CaptureTime?
        do {
            if override == nil, own.mode == .continuousAutoExposure || own.mode == .autoExpose, !runsExposureLoop {
                written = try writeV4L2(.exposureContinuous)
            } else {
                written = try writeV4L2Exposure(duration: after.duration, iso: after.iso)
            }
        } catch {
            CaptureLog.logger.warning("bracket: exposure controls of \(uniqueID) not written: \(error)")
            written = nil
        }
        return await frameCarryingChange(writtenAt: written, lightRatio: ratio.isFinite && ratio > 0 ? ratio : nil)
    }

    /// Reads a V4L2 camera's exposure time and ISO from its controls into the device's state
    /// (its own auto exposure moves them): what a bracket's auto-exposure images are offset
    /// from. Does nothing where the controls cannot be read.
    func refreshV4L2Exposure() {
        let reading = v4l2ExposureNow()
        withState { state in
            if let duration = reading.duration { state.exposure.duration = duration }
            if let iso = reading.iso { state.exposure.iso = iso }
        }
    }

    /// The exposure time and ISO a V4L2 camera's controls hold now, each nil where the camera
    /// has no such control or its controls cannot be read (a read of each: a few ioctls).
    func v4l2ExposureNow() -> (duration: CaptureTime?, iso: Float?) {
        guard let path = backend.devicePath, let mapping = v4l2Mapping else { return (nil, nil) }
        // Only the exposure time and gain are read again (the table and its mapping are the
        // device's since it was found): this runs on the streaming thread for every still.
        let controls = (mapping[.exposureCustom].uses + mapping[.iso].uses).map(\.control)
        let reading = ExposureState(reading: mapping, values: V4L2ControlQuery.currentValues(of: controls, ofDeviceAt: path))
        return (mapping[.exposureCustom].isSupported ? reading.duration : nil, mapping.isoRange != nil ? reading.iso : nil)
    }
}
