import CaptureKit

extension PipelineFile.ControlsSpec {
    /// The file's controls as CaptureKit's control settings.
    var settings: CaptureDevice.ControlSettings {
        let whiteBalance: CaptureDevice.ControlSettings.WhiteBalance? = switch self.whiteBalance {
        case .auto?: .auto
        case .temperature(let kelvin, let tint)?: .temperature(kelvin, tint: tint)
        case nil: nil
        }
        return .init(iso: iso, exposureDuration: shutter.map { CaptureTime(value: Int64(($0 * 1_000_000).rounded()), timescale: 1_000_000) },
                     lensPosition: lens, focusMode: focus.map(Self.focusMode), zoomFactor: zoom, torchLevel: torch,
                     whiteBalance: whiteBalance, exposureTargetBias: ev, flashMode: flash.map(Self.flashMode))
    }

    private static func focusMode(_ name: PipelineFile.FocusModeName) -> CaptureDevice.FocusMode {
        switch name {
        case .auto: .autoFocus
        case .continuous: .continuousAutoFocus
        case .locked: .locked
        }
    }

    private static func flashMode(_ name: PipelineFile.FlashModeName) -> CaptureDevice.FlashMode {
        switch name {
        case .on: .on
        case .off: .off
        case .auto: .auto
        }
    }

    /// Sets the controls on `device` under its configuration lock.
    func apply(to device: CaptureDevice) throws(CaptureError) {
        try device.apply(settings)
    }
}
