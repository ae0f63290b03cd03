import GStreamerSwift

extension CaptureDevice {
    /// Sets a V4L2 control by its kernel name (as `v4l2-ctl -L` prints it, e.g. "brightness");
    /// needs the configuration lock. On a running session it is written at once through
    /// v4l2src's `extra-controls`, without restarting the pipeline; otherwise it is applied when
    /// the device next starts (it appears in the compiled pipeline). Best effort on timing: the
    /// driver applies it to a frame of its choosing.
    public func setV4L2Control(_ name: String, to value: Int64) throws(CaptureError) {
        try requireConfigurationLock()
        guard case .v4l2 = source else { throw .unsupported(feature: "V4L2 control '\(name)'", device: uniqueID) }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw .invalidSetting(name: "V4L2 control name", value: name, valid: "a name as v4l2-ctl -L prints it, e.g. brightness")
        }
        try writeV4L2Controls([(name, value)])
    }

    /// The V4L2 controls set with `setV4L2Control`, as v4l2src's `extra-controls` value.
    var extraControls: String? {
        let controls = readState { $0.v4l2Controls }
        guard !controls.isEmpty else { return nil }
        return "c," + controls.keys.sorted().map { "\($0)=\(controls[$0]!)" }.joined(separator: ",")
    }

    /// The running source element and digital-zoom crop, while a session runs the device.
    func setLiveElements(source: Element?, crop: Element?) {
        withState {
            $0.liveSource = source
            $0.liveCrop = crop
        }
    }
}
