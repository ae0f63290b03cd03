extension CaptureDevice {
    /// The torch's mode (AVCaptureDevice.TorchMode).
    public enum TorchMode: Int, Sendable, Hashable, CaseIterable {
        case off, on, auto
    }

    /// The brightest level `setTorchModeOn(level:)` accepts (AVCaptureMaxAvailableTorchLevel).
    public static let maxAvailableTorchLevel: Float = 1

    /// Whether the device has a torch: the virtual back camera, and V4L2 cameras with flash-LED
    /// controls (led_mode=2 "Torch", intensity_torch_mode).
    public var hasTorch: Bool { capabilities.byDevice(.torch) }

    /// Whether the torch can be used now (it is there and the device connected).
    public var isTorchAvailable: Bool { hasTorch && isConnected }

    /// Whether the torch is lit.
    public var isTorchActive: Bool {
        observed(\.isTorchActive)
        return readState { $0.torch.level > 0 }
    }

    /// Whether the torch offers `mode`: all three where there is a torch. Auto lights it when
    /// auto exposure runs out of exposure more than 1 EV short of its target, and puts it out
    /// once the scene would be reachable without it (CaptureKit's exposure loop decides, so
    /// auto needs the virtual camera or a V4L2 camera the loop drives).
    public func isTorchModeSupported(_ mode: TorchMode) -> Bool {
        hasTorch && (mode != .auto || runsExposureLoop)
    }

    /// The torch mode.
    public var torchMode: TorchMode {
        get {
            observed(\.torchMode)
            return readState { $0.torch.mode }
        }
        set { reportingFailure(of: "torchMode", newValue) { () throws(CaptureError) in try setTorchMode(newValue) } }
    }

    /// The torch level, 0 … 1.
    public var torchLevel: Float {
        observed(\.torchLevel)
        return readState { $0.torch.level }
    }

    /// Turns the torch off or on (at full level); needs the configuration lock.
    public func setTorchMode(_ mode: TorchMode) throws(CaptureError) {
        if mode == .on {
            try setTorchModeOn(level: Self.maxAvailableTorchLevel)
            return
        }
        try requireConfigurationLock()
        try requireVideo("torch mode \(mode)")
        guard isTorchModeSupported(mode) else { throw .unsupported(feature: "torch mode \(mode)", device: uniqueID) }
        withState { state in
            state.torch = TorchState(mode: mode, level: 0)
            state.sensor.changed(notifying: nil)
        }
        try applyControl(.torch(level: 0))
    }

    /// Lights the torch at `level` (0 < level ≤ 1); needs the configuration lock. The virtual
    /// torch adds light in proportion to the level, from the next frame on; a V4L2 torch gets the
    /// level over intensity_torch_mode's range.
    public func setTorchModeOn(level: Float) throws(CaptureError) {
        try requireConfigurationLock()
        guard hasTorch else { throw .unsupported(feature: "torch", device: uniqueID) }
        guard level > 0 && level <= Self.maxAvailableTorchLevel else {
            throw .outOfRange(name: "torch level", value: Double(level), range: Double(Float.ulpOfOne)...Double(Self.maxAvailableTorchLevel))
        }
        withState { state in
            state.torch = TorchState(mode: .on, level: level)
            state.sensor.changed(notifying: nil)
        }
        try applyControl(.torch(level: level))
    }
}

/// Torch settings a device holds.
struct TorchState {
    var mode = CaptureDevice.TorchMode.off
    var level: Float = 0

    /// Light on the scene relative to the scene's own: a full torch doubles it.
    var gain: Double { 1 + Double(level) }
}
