extension PipelineFile {
    /// Device controls an input sets before the run, as `capture snap` sets them: each maps onto
    /// the `CaptureDevice` method named in its comment.
    public struct ControlsSpec: Sendable, Equatable {
        /// ISO, with `shutter`: `setExposureModeCustom(duration:iso:)`.
        public var iso: Float?
        /// Exposure duration in seconds ("1/60" or 0.02 in the file).
        public var shutter: Double?
        /// Lens position 0…1: `setFocusModeLocked(lensPosition:)`.
        public var lens: Float?
        /// Focus mode: `setFocusMode(_:)`.
        public var focus: FocusModeName?
        /// Zoom factor: `setVideoZoomFactor(_:)`.
        public var zoom: Double?
        /// Torch level, 0 turns it off: `setTorchModeOn(level:)`.
        public var torch: Float?
        /// White balance: `auto`, or kelvin with an optional tint ("5000:10").
        public var whiteBalance: WhiteBalanceSpec?
        /// Exposure target bias in EV: `setExposureTargetBias(_:)`.
        public var ev: Float?
        /// Flash mode: `setFlashMode(_:)`.
        public var flash: FlashModeName?
        /// Where the `controls` mapping starts.
        public var location: SourceLocation

        public init(iso: Float? = nil, shutter: Double? = nil, lens: Float? = nil, focus: FocusModeName? = nil, zoom: Double? = nil,
                    torch: Float? = nil, whiteBalance: WhiteBalanceSpec? = nil, ev: Float? = nil, flash: FlashModeName? = nil,
                    location: SourceLocation) {
            self.iso = iso
            self.shutter = shutter
            self.lens = lens
            self.focus = focus
            self.zoom = zoom
            self.torch = torch
            self.whiteBalance = whiteBalance
            self.ev = ev
            self.flash = flash
            self.location = location
        }
    }

    /// `focus` values.
    public enum FocusModeName: String, Sendable, Equatable, CaseIterable {
        case auto, continuous, locked
    }

    /// `flash` values.
    public enum FlashModeName: String, Sendable, Equatable, CaseIterable {
        case on, off, auto
    }

    /// `wb` values.
    public enum WhiteBalanceSpec: Sendable, Equatable {
        case auto
        case temperature(Float, tint: Float)
    }
}
