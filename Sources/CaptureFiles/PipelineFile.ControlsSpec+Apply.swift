import CaptureKit

extension PipelineFile.ControlsSpec {
    /// Sets the controls on `device` under its configuration lock, in a fixed order: focus,
    /// exposure, zoom, torch, white balance.
    func apply(to device: CaptureDevice) throws(CaptureError) {
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        switch focus {
        case .continuous?: try device.setFocusMode(.continuousAutoFocus)
        case .locked?: try device.setFocusModeLocked(lensPosition: lens ?? CaptureDevice.currentLensPosition)
        case nil: if let lens { try device.setFocusModeLocked(lensPosition: lens) }
        }
        if iso != nil || shutter != nil {
            let duration = shutter.map { CaptureTime(value: Int64(($0 * 1_000_000).rounded()), timescale: 1_000_000) }
            try device.setExposureModeCustom(duration: duration ?? CaptureDevice.currentExposureDuration, iso: iso ?? CaptureDevice.currentISO)
        }
        if let zoom { try device.setVideoZoomFactor(zoom) }
        if let torch {
            if torch == 0 { try device.setTorchMode(.off) } else { try device.setTorchModeOn(level: torch) }
        }
        switch whiteBalance {
        case .auto?: try device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
        case .temperature(let temperature, let tint)?:
            try device.setWhiteBalanceModeLocked(deviceWhiteBalanceGains: device.deviceWhiteBalanceGains(
                for: .init(temperature: temperature, tint: tint)))
        case nil: break
        }
    }
}
