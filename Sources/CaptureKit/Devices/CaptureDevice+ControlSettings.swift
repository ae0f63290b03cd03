extension CaptureDevice {
    /// A batch of control changes, as `capture snap` flags and pipeline-file `controls` give
    /// them; `apply(_:)` makes the AVFoundation-style calls they stand for.
    public struct ControlSettings: Sendable, Equatable {
        /// White balance: continuous, or locked at the gains for a temperature and tint.
        public enum WhiteBalance: Sendable, Equatable {
            case auto
            case temperature(Float, tint: Float)
        }

        public var iso: Float?
        public var exposureDuration: CaptureTime?
        public var lensPosition: Float?
        public var focusMode: FocusMode?
        public var zoomFactor: Double?
        /// 0 turns the torch off.
        public var torchLevel: Float?
        public var whiteBalance: WhiteBalance?
        /// Exposure target bias in EV.
        public var exposureTargetBias: Float?
        public var flashMode: FlashMode?

        public init(iso: Float? = nil, exposureDuration: CaptureTime? = nil, lensPosition: Float? = nil, focusMode: FocusMode? = nil,
                    zoomFactor: Double? = nil, torchLevel: Float? = nil, whiteBalance: WhiteBalance? = nil,
                    exposureTargetBias: Float? = nil, flashMode: FlashMode? = nil) {
            self.iso = iso
            self.exposureDuration = exposureDuration
            self.lensPosition = lensPosition
            self.focusMode = focusMode
            self.zoomFactor = zoomFactor
            self.torchLevel = torchLevel
            self.whiteBalance = whiteBalance
            self.exposureTargetBias = exposureTargetBias
            self.flashMode = flashMode
        }

        /// Whether nothing is to change.
        public var isEmpty: Bool { self == ControlSettings() }
    }

    /// Applies `settings` under the configuration lock, in a fixed order: focus, exposure, bias,
    /// zoom, torch, flash, white balance. A lens position locks focus there; ISO or duration switch to
    /// custom exposure. Unsupported controls and values out of range throw CaptureKit's error.
    public func apply(_ settings: ControlSettings) throws(CaptureError) {
        guard !settings.isEmpty else { return }
        try lockForConfiguration()
        defer { unlockForConfiguration() }
        switch settings.focusMode {
        case .locked?: try checkedSetFocusModeLocked(lensPosition: settings.lensPosition ?? Self.currentLensPosition, completionHandler: nil)
        case let mode?:
            try setFocusMode(mode)
            if let lens = settings.lensPosition { try checkedSetFocusModeLocked(lensPosition: lens, completionHandler: nil) }
        case nil:
            if let lens = settings.lensPosition { try checkedSetFocusModeLocked(lensPosition: lens, completionHandler: nil) }
        }
        if settings.iso != nil || settings.exposureDuration != nil {
            try checkedSetExposureModeCustom(duration: settings.exposureDuration ?? Self.currentExposureDuration, iso: settings.iso ?? Self.currentISO, completionHandler: nil)
        }
        if let bias = settings.exposureTargetBias { try checkedSetExposureTargetBias(bias, completionHandler: nil) }
        if let zoom = settings.zoomFactor { try setVideoZoomFactor(zoom) }
        if let torch = settings.torchLevel {
            if torch == 0 { try setTorchMode(.off) } else { try setTorchModeOn(level: torch) }
        }
        if let flash = settings.flashMode { try setFlashMode(flash) }
        switch settings.whiteBalance {
        case .auto?: try setWhiteBalanceMode(.continuousAutoWhiteBalance)
        case .temperature(let temperature, let tint)?:
            try checkedSetWhiteBalanceModeLocked(with: deviceWhiteBalanceGains(for: .init(temperature: temperature, tint: tint)), completionHandler: nil)
        case nil: break
        }
    }
}
