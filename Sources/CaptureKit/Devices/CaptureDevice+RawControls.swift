import GStreamerSwift

extension CaptureDevice {
    /// Sets a V4L2 control by its kernel name (as `v4l2-ctl -L` prints it, e.g. "brightness");
    /// needs the configuration lock. On a running session it is written at once through
    /// v4l2src's `extra-controls`, without restarting the pipeline; otherwise it is applied when
    /// the device next starts (it appears in the compiled pipeline). Best effort on timing: the
    /// driver applies it to a frame of its choosing.
    public func setV4L2Control(_ name: String, to value: Int64) throws(CaptureError) {
        try requireConfigurationLock()
        guard backend.hasRawControls else { throw .unsupported(feature: "V4L2 control '\(name)'", device: uniqueID) }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw .invalidSetting(name: "V4L2 control name", value: name, valid: "a name as v4l2-ctl -L prints it, e.g. brightness")
        }
        try writeSourceControls([(name, String(value))])
    }

    /// Registers the running source that control changes go to (nil when the session stops
    /// running the device).
    func setRunningSource(_ source: (any RunningSourceControl)?) {
        withState { $0.runningSource = source }
    }

    /// Unregisters `source` if it is still the one registered (a newer source may have replaced
    /// it), and tells it that it stopped.
    func clearRunningSource(_ source: any RunningSourceControl) {
        source.stopped()
        withState { state in
            if state.runningSource === source { state.runningSource = nil }
        }
        flushControlChanges()
    }
}
