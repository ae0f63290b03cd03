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
                     lensPosition: lens, focusMode: focus.map { $0 == .locked ? .locked : .continuousAutoFocus },
                     zoomFactor: zoom, torchLevel: torch, whiteBalance: whiteBalance)
    }

    /// Sets the controls on `device` under its configuration lock.
    func apply(to device: CaptureDevice) throws(CaptureError) {
        try device.apply(settings)
    }
}
