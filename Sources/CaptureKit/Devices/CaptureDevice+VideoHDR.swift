import Foundation

extension CaptureDevice {
    /// Whether the active format offers video HDR: the virtual camera's formats (highlights are
    /// tone-mapped instead of clipped), and V4L2 cameras with wide_dynamic_range.
    public var isVideoHDRSupported: Bool { capabilities.byDevice(.videoHDR) }

    /// Whether video HDR is on.
    public var isVideoHDREnabled: Bool {
        get {
            observed(\.isVideoHDREnabled)
            return readState { $0.hdr.isEnabled }
        }
        set { reportingFailure(of: "isVideoHDREnabled", newValue) { () throws(CaptureError) in try setVideoHDREnabled(newValue) } }
    }

    /// Whether the device turns HDR on and off itself (the default). The virtual camera then
    /// turns it on while more than 5 % of the metered frame is clipped white.
    public var automaticallyAdjustsVideoHDREnabled: Bool {
        get { readState { $0.hdr.isAutomatic } }
        set { reportingFailure(of: "automaticallyAdjustsVideoHDREnabled", newValue) { () throws(CaptureError) in try setAutomaticallyAdjustsVideoHDREnabled(newValue) } }
    }

    /// Lets the device decide, or keeps `isVideoHDREnabled` as set; needs the configuration lock.
    public func setAutomaticallyAdjustsVideoHDREnabled(_ automatic: Bool) throws(CaptureError) {
        try requireConfigurationLock()
        try requireVideo("automatic video HDR")
        withState { $0.hdr.isAutomatic = automatic }
    }

    /// Turns video HDR on or off; needs the configuration lock, support, and
    /// `automaticallyAdjustsVideoHDREnabled` off (as in AVFoundation).
    public func setVideoHDREnabled(_ enabled: Bool) throws(CaptureError) {
        try requireConfigurationLock()
        guard isVideoHDRSupported else { throw .unsupported(feature: "video HDR", device: uniqueID) }
        guard !automaticallyAdjustsVideoHDREnabled else {
            throw .invalidSetting(name: "videoHDREnabled", value: "\(enabled)",
                                  valid: "any value once automaticallyAdjustsVideoHDREnabled is false")
        }
        try applyControl(.videoHDR(enabled))
        setHDR(enabled)
    }

    /// Turns HDR on or off from the next frame (the user, or the automatic decision).
    func setHDR(_ enabled: Bool) {
        withState { state in
            guard state.hdr.isEnabled != enabled else { return }
            state.hdr.isEnabled = enabled
            state.sensor.changed(notifying: nil)
        }
    }
}

/// Video HDR settings a device holds.
struct VideoHDRState {
    var isAutomatic = true
    var isEnabled = false

    /// The virtual sensor's tone curve with HDR on: linear to `knee`, then highlights up to 4×
    /// the sensor's range rolled off smoothly towards white instead of clipped.
    static func toneMap(_ value: Double) -> Double {
        let knee = 192.0
        guard value > knee else { return value }
        return knee + (255 - knee) * (1 - exp(-(value - knee) / 160))
    }
}
