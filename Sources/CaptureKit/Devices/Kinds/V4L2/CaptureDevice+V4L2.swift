extension CaptureDevice {
    /// How a V4L2 camera's controls provide the seed capabilities (nil for other devices, or
    /// when its controls could not be read).
    var v4l2Mapping: V4L2ControlMapping? { (backend as? V4L2Backend)?.mapping }

    /// The V4L2 controls set so far, as v4l2src's `extra-controls` value for the next start.
    var extraControls: String? {
        let controls = readState { $0.sourceControls }
        guard !controls.isEmpty else { return nil }
        return "c," + controls.keys.sorted().map { "\($0)=\(controls[$0]!)" }.joined(separator: ",")
    }
}
