extension CaptureDevice {
    /// Every control of the device as data (``ControlReport``): modes with the cases the device
    /// supports, numbers with their ranges and units, the active format and, for V4L2 cameras,
    /// their raw controls read by ioctl. `capture controls --json` prints it.
    /// Microphones have none of these controls: they throw `mediaTypeNotSupported`.
    public func controlReport() throws(CaptureError) -> ControlReport {
        guard hasMediaType(.video) else { throw .mediaTypeNotSupported(device: uniqueID, mediaType: .video) }
        typealias Number = ControlReport.Number
        let format = activeFormat
        let gains = deviceWhiteBalanceGains
        let balance = temperatureAndTintValues(for: gains)
        let frameDuration = activeVideoMinFrameDuration.seconds
        let maxGain = Double(maxWhiteBalanceGain)
        var report = ControlReport(
            serializationVersion: ControlReport.currentSerializationVersion,
            uniqueID: uniqueID,
            localizedName: localizedName,
            focusMode: .init(focusMode, isSupported: isFocusModeSupported),
            lensPosition: Number(lensPosition, min: 0.0, max: 1.0),
            exposureMode: .init(exposureMode, isSupported: isExposureModeSupported),
            exposureDuration: Number(exposureDuration.seconds, min: format.minExposureDuration.seconds,
                                     max: format.maxExposureDuration.seconds, unit: "s"),
            iso: Number(iso, min: format.minISO, max: format.maxISO),
            exposureTargetBias: Number(exposureTargetBias, min: minExposureTargetBias, max: maxExposureTargetBias, unit: "EV"),
            exposureTargetOffset: Number(exposureTargetOffset, unit: "EV"),
            whiteBalanceMode: .init(whiteBalanceMode, isSupported: isWhiteBalanceModeSupported),
            deviceWhiteBalanceGains: .init(red: ControlReport.decimal(gains.redGain), green: ControlReport.decimal(gains.greenGain),
                                           blue: ControlReport.decimal(gains.blueGain),
                                           min: 1, max: maxGain),
            temperature: Number(balance.temperature, unit: "K"),
            tint: Number(balance.tint, min: -150.0, max: 150.0),
            videoZoomFactor: Number(videoZoomFactor, min: 1.0, max: format.videoMaxZoomFactor),
            torchMode: .init(torchMode, isSupported: isTorchModeSupported),
            torchLevel: Number(torchLevel, min: 0.0, max: Double(Self.maxAvailableTorchLevel)),
            flashMode: .init(flashMode, isSupported: isFlashModeSupported),
            activeFormat: .init(width: format.width, height: format.height, pixelFormat: format.pixelFormat.rawValue,
                                frameRate: frameDuration > 0 && frameDuration.isFinite ? 1 / frameDuration : format.defaultFrameRate,
                                frameRateRanges: format.videoSupportedFrameRateRanges.map { .init(min: $0.minFrameRate, max: $0.maxFrameRate) }),
            focusPointOfInterest: .init(x: Double(focusPointOfInterest.x), y: Double(focusPointOfInterest.y),
                                        supported: isFocusPointOfInterestSupported),
            exposurePointOfInterest: .init(x: Double(exposurePointOfInterest.x), y: Double(exposurePointOfInterest.y),
                                           supported: isExposurePointOfInterestSupported),
            v4l2Controls: nil
        )
        report.v4l2Controls = try backend.rawControls()?.report
        return report
    }
}
