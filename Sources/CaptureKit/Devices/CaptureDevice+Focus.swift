extension CaptureDevice {
    /// How focus is set (AVCaptureDevice.FocusMode).
    public enum FocusMode: Int, Sendable, Hashable, CaseIterable {
        /// The lens stays where it is.
        case locked
        /// Focus once, then lock.
        case autoFocus
        /// Keep focusing (the default).
        case continuousAutoFocus
    }

    /// Passed to `setFocusModeLocked(lensPosition:)` to keep the current position
    /// (AVCaptureLensPositionCurrent).
    public static let currentLensPosition: Float = -1

    /// Whether the device offers `mode`. The virtual camera offers locked and continuous focus;
    /// V4L2 cameras what their controls give (focus_automatic_continuous, focus_absolute).
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool {
        switch (source, mode) {
        case (.virtual, _): mode != .autoFocus
        case (.v4l2, .locked): v4l2Provides(.focusLocked) && v4l2Provides(.lensPosition)
        case (.v4l2, .continuousAutoFocus): v4l2Provides(.focusContinuous)
        default: false
        }
    }

    /// The focus mode.
    public var focusMode: FocusMode {
        observed(\.focusMode)
        return readState { $0.focus.mode }
    }

    /// The lens position, 0 (closest) … 1 (farthest).
    public var lensPosition: Float {
        observed(\.lensPosition)
        return readState { $0.focus.lensPosition }
    }

    /// Whether the lens is moving: false, as the virtual lens moves between two frames.
    public var isAdjustingFocus: Bool { false }

    /// Sets the focus mode; needs the configuration lock and a supported mode. Continuous focus
    /// returns the lens to the scene's in-focus position.
    public func setFocusMode(_ mode: FocusMode) throws(CaptureError) {
        try requireConfigurationLock()
        guard isFocusModeSupported(mode) else { throw .unsupported(feature: "focus mode \(mode)", device: uniqueID) }
        if v4l2Mapping != nil {
            if mode == .continuousAutoFocus { try writeV4L2(.focusContinuous) } else { try writeV4L2(.focusLocked) }
            withState { $0.focus.mode = mode }
            return
        }
        withState { state in
            state.focus.mode = mode
            if mode == .continuousAutoFocus && state.focus.lensPosition != FocusState.inFocusPosition {
                state.focus.lensPosition = FocusState.inFocusPosition
                state.sensor.changed(notifying: nil)
            }
        }
    }

    /// Locks focus with the lens at `lensPosition` (0…1, or `currentLensPosition`).
    /// `completionHandler` gets the presentation time of the first frame taken at that position
    /// (exact on the virtual camera), on a CaptureKit queue.
    public func setFocusModeLocked(lensPosition: Float, completionHandler: (@Sendable (CaptureTime) -> Void)? = nil) throws(CaptureError) {
        try requireConfigurationLock()
        guard isFocusModeSupported(.locked) else { throw .unsupported(feature: "locked focus", device: uniqueID) }
        guard lensPosition == Self.currentLensPosition || (0...1).contains(lensPosition) else {
            throw .outOfRange(name: "lens position", value: Double(lensPosition), range: 0...1)
        }
        let viaControls = v4l2Mapping != nil
        let position = withState { state in
            state.focus.mode = .locked
            if lensPosition != Self.currentLensPosition { state.focus.lensPosition = lensPosition }
            state.sensor.changed(notifying: viaControls ? nil : completionHandler)
            return state.focus.lensPosition
        }
        guard let mapping = v4l2Mapping else { return }
        // focus_automatic_continuous=0, then focus_absolute for the position (larger is nearer).
        try writeV4L2(.focusLocked)
        let time = try writeV4L2(.lensPosition) { _ in mapping.focusValue(forLensPosition: position) }
        complete(completionHandler, at: time)
    }
}

/// Focus settings a device holds.
struct FocusState {
    /// Where the virtual scene is sharp.
    static let inFocusPosition: Float = 0.6

    var mode = CaptureDevice.FocusMode.continuousAutoFocus
    var lensPosition = inFocusPosition

    /// Blur radius in pixels for a frame `height` tall: grows with the lens's distance from the
    /// in-focus position, up to 2 % of the height.
    func blurRadius(height: Int) -> Int {
        Int((Double(abs(lensPosition - Self.inFocusPosition)) / 0.6 * Double(height) * 0.02).rounded())
    }
}
