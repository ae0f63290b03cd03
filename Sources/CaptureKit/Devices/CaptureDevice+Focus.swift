import Foundation

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

    /// Where autofocus searches (AVCaptureDevice.AutoFocusRangeRestriction).
    public enum AutoFocusRangeRestriction: Int, Sendable, Hashable, CaseIterable {
        /// The whole lens range.
        case none
        /// Near subjects: lens positions 0 … 0.5.
        case near
        /// Far subjects: lens positions 0.5 … 1.
        case far

        /// The lens positions a search covers.
        var lensRange: ClosedRange<Float> {
            switch self {
            case .none: 0...1
            case .near: 0...0.5
            case .far: 0.5...1
            }
        }
    }

    /// Passed to `setFocusModeLocked(lensPosition:)` to keep the current position
    /// (AVCaptureLensPositionCurrent).
    public static let currentLensPosition: Float = -1

    /// Whether the device offers `mode`: the virtual camera all of them (CaptureKit's
    /// contrast-detect search); V4L2 cameras through focus_automatic_continuous and
    /// auto_focus_start, or the same search over focus_absolute (SPEC.md's mapping).
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool {
        let capabilities = self.capabilities
        return switch mode {
        case .locked: capabilities[.focusLocked].isSupported && capabilities[.lensPosition].isSupported
        case .autoFocus: capabilities[.focusAutoOnce].isSupported
        case .continuousAutoFocus: capabilities[.focusContinuous].isSupported
        }
    }

    /// Whether CaptureKit's contrast-detect search drives the lens for `mode`.
    func searchesFocus(for mode: FocusMode) -> Bool {
        switch mode {
        case .locked: false
        case .autoFocus: capabilities.bySoftware(.focusAutoOnce, .contrastDetectAutoFocus)
        case .continuousAutoFocus: capabilities.bySoftware(.focusContinuous, .contrastDetectAutoFocus)
        }
    }

    /// The focus mode.
    public var focusMode: FocusMode {
        get {
            observed(\.focusMode)
            return readState { $0.focus.mode }
        }
        set { reportingFailure(of: "focusMode", newValue) { () throws(CaptureError) in try setFocusMode(newValue) } }
    }

    /// The lens position, 0 (closest) … 1 (farthest).
    public var lensPosition: Float {
        observed(\.lensPosition)
        return readState { $0.focus.lensPosition }
    }

    /// Whether an autofocus search is moving the lens.
    public var isAdjustingFocus: Bool {
        observed(\.isAdjustingFocus)
        return readState { $0.focus.isAdjusting }
    }

    /// Whether autofocus can be pointed somewhere: where CaptureKit's search measures contrast.
    public var isFocusPointOfInterestSupported: Bool {
        searchesFocus(for: .autoFocus) || searchesFocus(for: .continuousAutoFocus)
    }

    /// Where autofocus measures contrast, in device coordinates ({0,0} top left, {1,1} bottom
    /// right of the unrotated sensor image); {0.5,0.5} by default. Takes effect with the next
    /// `setFocusMode` (as in AVFoundation).
    public var focusPointOfInterest: CGPoint {
        get {
            observed(\.focusPointOfInterest)
            return readState { $0.focus.pointOfInterest }
        }
        set { reportingFailure(of: "focusPointOfInterest", newValue) { () throws(CaptureError) in try setFocusPointOfInterest(newValue) } }
    }

    /// Sets `focusPointOfInterest`; needs the configuration lock and support, and a point
    /// inside {0,0} … {1,1}.
    public func setFocusPointOfInterest(_ point: CGPoint) throws(CaptureError) {
        try requireConfigurationLock()
        guard isFocusPointOfInterestSupported else { throw .unsupported(feature: "focus point of interest", device: uniqueID) }
        try Self.validatePointOfInterest(point, name: "focus point of interest")
        withState { $0.focus.pointOfInterest = point }
    }

    /// Whether lens moves can be smoothed: where CaptureKit drives the lens, or the device's own
    /// autofocus has a slower speed.
    public var isSmoothAutoFocusSupported: Bool { isFocusPointOfInterestSupported || capabilities.byDevice(.smoothAutoFocus) }

    /// Whether autofocus searches with smaller, slower lens moves (less visible in video).
    public var isSmoothAutoFocusEnabled: Bool {
        get {
            observed(\.isSmoothAutoFocusEnabled)
            return readState { $0.focus.isSmooth }
        }
        set { reportingFailure(of: "isSmoothAutoFocusEnabled", newValue) { () throws(CaptureError) in try setSmoothAutoFocusEnabled(newValue) } }
    }

    /// Turns smooth autofocus on or off; needs the configuration lock and support.
    public func setSmoothAutoFocusEnabled(_ enabled: Bool) throws(CaptureError) {
        try requireConfigurationLock()
        guard isSmoothAutoFocusSupported else { throw .unsupported(feature: "smooth autofocus", device: uniqueID) }
        withState { $0.focus.isSmooth = enabled }
        try applyControl(.smoothAutoFocus(enabled))
    }

    /// Whether autofocus can be restricted to near or far subjects: CaptureKit's search, or a
    /// V4L2 camera's auto_focus_range.
    public var isAutoFocusRangeRestrictionSupported: Bool {
        isFocusPointOfInterestSupported || capabilities.byDevice(.autoFocusRangeRestriction)
    }

    /// Where autofocus searches.
    public var autoFocusRangeRestriction: AutoFocusRangeRestriction {
        get {
            observed(\.autoFocusRangeRestriction)
            return readState { $0.focus.rangeRestriction }
        }
        set { reportingFailure(of: "autoFocusRangeRestriction", newValue) { () throws(CaptureError) in try setAutoFocusRangeRestriction(newValue) } }
    }

    /// Restricts autofocus; needs the configuration lock and support. V4L2 cameras with
    /// auto_focus_range get auto (none), macro (near) or infinity (far).
    public func setAutoFocusRangeRestriction(_ restriction: AutoFocusRangeRestriction) throws(CaptureError) {
        try requireConfigurationLock()
        guard isAutoFocusRangeRestrictionSupported else { throw .unsupported(feature: "autofocus range restriction", device: uniqueID) }
        try applyControl(.autoFocusRangeRestriction(restriction))
        withState { $0.focus.rangeRestriction = restriction }
    }

    /// Sets the focus mode; needs the configuration lock and a supported mode. Auto and
    /// continuous focus start a contrast-detect search where CaptureKit drives the lens
    /// (`isAdjustingFocus` until it settles; auto focus then locks).
    public func setFocusMode(_ mode: FocusMode) throws(CaptureError) {
        try requireConfigurationLock()
        guard isFocusModeSupported(mode) else { throw .unsupported(feature: "focus mode \(mode)", device: uniqueID) }
        try applyControl(.focusMode(mode))
        withState { state in
            state.focus.mode = mode
            guard searchesFocus(for: mode) else { return }
            state.focus.requestSearch()
            // A running source's loop starts the search on its next frame; say so at once, as
            // AVFoundation does, so that an observer never reads the old `false` first.
            if state.runningSource != nil && capabilities.metersFrames { state.focus.isAdjusting = true }
        }
    }

    /// Locks focus with the lens at `lensPosition` (0…1, or `currentLensPosition`).
    /// `completionHandler` gets the presentation time of the first frame taken at that position,
    /// on a CaptureKit queue: exact on the virtual camera; on a running V4L2 camera, the first
    /// frame begun after the control write (the driver does not say when the lens arrived);
    /// zero when no session runs the device.
    func checkedSetFocusModeLocked(lensPosition: Float, completionHandler: (@Sendable (CaptureTime) -> Void)?) throws(CaptureError) {
        try requireConfigurationLock()
        guard isFocusModeSupported(.locked) else { throw .unsupported(feature: "locked focus", device: uniqueID) }
        guard lensPosition == Self.currentLensPosition || (0...1).contains(lensPosition) else {
            throw .outOfRange(name: "lens position", value: Double(lensPosition), range: 0...1)
        }
        let viaControls = completesByMetering
        let position = withState { state in
            state.focus.mode = .locked
            state.focus.isAdjusting = false
            if lensPosition != Self.currentLensPosition { state.focus.lensPosition = lensPosition }
            state.sensor.changed(notifying: viaControls ? nil : completionHandler)
            return state.focus.lensPosition
        }
        guard viaControls else { return }
        try applyControl(.focusMode(.locked))
        complete(completionHandler, writtenAt: try applyControl(.lensPosition(position)))
    }

    /// Throws `outOfRange` for a point outside {0,0} … {1,1}.
    static func validatePointOfInterest(_ point: CGPoint, name: String) throws(CaptureError) {
        for (axis, value) in [("x", point.x), ("y", point.y)] where !(value.isFinite && (0...1).contains(value)) {
            throw .outOfRange(name: "\(name) \(axis)", value: Double(value), range: 0...1)
        }
    }
}

/// Focus settings a device holds.
struct FocusState {
    /// Where the virtual scene is sharp.
    static let inFocusPosition: Float = 0.6

    var mode = CaptureDevice.FocusMode.continuousAutoFocus
    var lensPosition = inFocusPosition
    var pointOfInterest = CGPoint(x: 0.5, y: 0.5)
    var isSmooth = false
    var rangeRestriction = CaptureDevice.AutoFocusRangeRestriction.none
    /// Set by the autofocus search while it moves the lens.
    var isAdjusting = false
    /// Counts requests for a new search; the autofocus loop starts one when it changes.
    var searchRequest = 0

    mutating func requestSearch() { searchRequest += 1 }

    /// Blur radius in pixels for a frame `height` tall: grows with the lens's distance from the
    /// in-focus position, up to 2 % of the height.
    func blurRadius(height: Int) -> Int {
        Int((Double(abs(lensPosition - Self.inFocusPosition)) / 0.6 * Double(height) * 0.02).rounded())
    }
}
