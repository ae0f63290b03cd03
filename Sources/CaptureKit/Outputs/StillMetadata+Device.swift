import Foundation

extension StillMetadata {
    /// The metadata of a still `device` takes now, held as `orientation` (and `mirrored`).
    /// Runs on the still branch's streaming thread once per still: device state under its lock,
    /// and for cameras with controls one reading of them (V4L2: a few ioctls), never user code.
    init(device: CaptureDevice?, orientation: VideoOrientation, mirrored: Bool, date: Date) {
        self.init(exifOrientation: orientation.exifOrientation(mirrored: mirrored), date: date)
        guard let device else { return }
        make = device.manufacturer
        model = device.backend.exifModel ?? device.localizedName
        if device.hasFlash {
            let flash = device.readState { $0.flash }
            flashMode = flash.mode
            isFlashFired = flash.isFiring
        }
        if !device.completesByMetering {
            let exposure = device.readState { $0.exposure }
            let (duration, iso, bias) = exposure.effective
            exposureDuration = duration
            self.iso = iso
            exposureBias = bias
            fNumber = device.lensAperture
            isExposureManual = exposure.mode == .custom || exposure.mode == .locked
            lensPosition = device.lensPosition
            whiteBalanceGains = device.deviceWhiteBalanceGains
            isWhiteBalanceManual = device.whiteBalanceMode == .locked
            digitalZoomRatio = device.videoZoomFactor
        } else if !device.capabilities.provisions.isEmpty {
            // What the device runs with now, where it says: its own auto exposure may have moved it.
            let reading = device.exposureNow()
            if let duration = reading.duration { exposureDuration = duration }
            if let iso = reading.iso { self.iso = iso }
            let mode = device.exposureMode
            isExposureManual = mode == .custom || mode == .locked
            exposureBias = mode == .continuousAutoExposure || mode == .autoExpose ? device.exposureTargetBias : 0
            if device.isFocusModeSupported(.locked) { lensPosition = device.lensPosition }
            isWhiteBalanceManual = device.whiteBalanceMode == .locked
            if device.maxWhiteBalanceGain > 1 { whiteBalanceGains = device.deviceWhiteBalanceGains }
            digitalZoomRatio = device.videoZoomFactor
        }
    }
}
