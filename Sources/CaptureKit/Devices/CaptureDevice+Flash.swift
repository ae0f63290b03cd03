extension CaptureDevice {
    /// When the flash fires for a still (AVCaptureDevice.FlashMode).
    public enum FlashMode: Int, Sendable, Hashable, CaseIterable {
        /// Never.
        case off
        /// For every still.
        case on
        /// When the scene is too dark: auto exposure is more than 1 EV under its target with
        /// nothing left to raise.
        case auto
    }

    /// Whether the device has a flash: the virtual back camera (it adds +2 EV of light to the
    /// still's frame), and V4L2 cameras with flash LED controls (led_mode=1, strobe).
    public var hasFlash: Bool {
        capabilities.byDevice(.flash)
    }

    /// Whether the flash can fire now (it is there and the device connected).
    public var isFlashAvailable: Bool { hasFlash && isConnected }

    /// Whether the device offers `mode`: every mode where it has a flash (auto decides from the
    /// frames' metering).
    public func isFlashModeSupported(_ mode: FlashMode) -> Bool { hasFlash || mode == .off }

    /// The flash mode; the still output fires the flash by it.
    public var flashMode: FlashMode {
        get {
            observed(\.flashMode)
            return readState { $0.flash.mode }
        }
        set { reportingFailure(of: "flashMode", newValue) { () throws(CaptureError) in try setFlashMode(newValue) } }
    }

    /// Sets the flash mode; needs the configuration lock and a supported mode.
    public func setFlashMode(_ mode: FlashMode) throws(CaptureError) {
        try requireConfigurationLock()
        try requireVideo("flash mode \(mode)")
        guard isFlashModeSupported(mode) else { throw .unsupported(feature: "flash mode \(mode)", device: uniqueID) }
        withState { $0.flash.mode = mode }
    }

    /// Whether a still taken now would fire the flash.
    public var isFlashActive: Bool {
        observed(\.isFlashActive)
        return readState { $0.flash.wouldFire(offset: $0.exposure.targetOffset) } && isFlashAvailable
    }

    /// Whether a still taken now with the flash in `mode` would fire it (a photo's settings).
    func wouldFlashFire(in mode: FlashMode) -> Bool {
        isFlashAvailable && readState { state in
            var flash = state.flash
            flash.mode = mode
            return flash.wouldFire(offset: state.exposure.targetOffset)
        }
    }

    /// Fires (or puts out) the flash for a still and waits for the first frame lit by it: the
    /// virtual camera's sensor adds the flash's light from that frame on; a V4L2 camera strobes
    /// (best effort: the next frame).
    func setFlashFiring(_ firing: Bool) async {
        if completesByMetering {
            if firing { _ = try? applyControl(.flash) }
            withState { $0.flash.isFiring = firing }
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withState { state in
                state.flash.isFiring = firing
                state.sensor.changed { _ in continuation.resume() }
            }
        }
    }
}

/// Flash settings a device holds.
struct FlashState {
    /// Light the virtual flash adds: +2 EV.
    static let gain = 4.0

    var mode = CaptureDevice.FlashMode.off
    /// Set while a still's frame is being lit.
    var isFiring = false

    /// Whether a still now fires the flash, given the metered exposure offset.
    func wouldFire(offset: Float) -> Bool {
        switch mode {
        case .off: false
        case .on: true
        case .auto: offset < -1
        }
    }
}
