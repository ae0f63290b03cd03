import Foundation
import CaptureKit

/// AVCamManual's controls without their sliders: values in 0…1 mapped the way the sample maps them.
public final class ManualControls: NSObject {
    private let device: CaptureDevice
    private let exposureDurationPower = 5.0
    private let exposureMinimumDuration = 1.0 / 1000
    private var observations: [NSKeyValueObservation] = []
    public private(set) var shownLensPosition: Float = 0
    public private(set) var shownExposure: String = ""
    public private(set) var shownISO: Float = 0

    public init(device: CaptureDevice) {
        self.device = device
        super.init()
        observations.append(device.observe(\.lensPosition, options: .new) { [weak self] _, change in
            if let value = change.newValue { self?.shownLensPosition = value }
        })
        observations.append(device.observe(\.exposureDuration, options: .new) { [weak self] _, change in
            if let duration = change.newValue { self?.shownExposure = String(format: "1/%.f", 1.0 / CMTimeGetSeconds(duration)) }
        })
        observations.append(device.observe(\.iso, options: [.initial, .new]) { [weak self] _, change in
            if let iso = change.newValue { self?.shownISO = iso }
        })
    }

    deinit { observations.forEach { $0.invalidate() } }

    /// Slider 0…1 → lens position, locked.
    public func setLensPosition(_ value: Float) {
        do {
            try device.lockForConfiguration()
            device.setFocusModeLocked(lensPosition: value, completionHandler: nil)
            device.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    /// Slider 0…1 → exposure duration on a power curve between the minimum and the format's maximum.
    public func setExposureDuration(_ value: Double) {
        let p = pow(value, exposureDurationPower)
        let minDurationSeconds = max(CMTimeGetSeconds(device.activeFormat.minExposureDuration), exposureMinimumDuration)
        let maxDurationSeconds = CMTimeGetSeconds(device.activeFormat.maxExposureDuration)
        let newDurationSeconds = p * (maxDurationSeconds - minDurationSeconds) + minDurationSeconds
        do {
            try device.lockForConfiguration()
            device.setExposureModeCustom(duration: CMTimeMakeWithSeconds(newDurationSeconds, preferredTimescale: 1000 * 1000 * 1000),
                                         iso: CaptureDevice.currentISO, completionHandler: nil)
            device.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    public func setISO(_ value: Float) {
        do {
            try device.lockForConfiguration()
            let iso = device.activeFormat.minISO + value * (device.activeFormat.maxISO - device.activeFormat.minISO)
            device.setExposureModeCustom(duration: CaptureDevice.currentExposureDuration, iso: iso, completionHandler: nil)
            device.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    public func setExposureTargetBias(_ value: Float) {
        do {
            try device.lockForConfiguration()
            device.setExposureTargetBias(value, completionHandler: nil)
            device.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    /// Temperature and tint → gains, clamped as the sample clamps them, then locked.
    public func setWhiteBalance(temperature: Float, tint: Float) {
        let temperatureAndTint = CaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: temperature, tint: tint)
        var gains = device.deviceWhiteBalanceGains(for: temperatureAndTint)
        gains.redGain = max(1.0, min(gains.redGain, device.maxWhiteBalanceGain))
        gains.greenGain = max(1.0, min(gains.greenGain, device.maxWhiteBalanceGain))
        gains.blueGain = max(1.0, min(gains.blueGain, device.maxWhiteBalanceGain))
        do {
            try device.lockForConfiguration()
            device.setWhiteBalanceModeLocked(with: gains, completionHandler: nil)
            device.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }

    public func setAutomatic() {
        do {
            try device.lockForConfiguration()
            if device.isFocusModeSupported(.continuousAutoFocus) { device.focusMode = .continuousAutoFocus }
            if device.isExposureModeSupported(.continuousAutoExposure) { device.exposureMode = .continuousAutoExposure }
            if device.isWhiteBalanceModeSupported(.continuousAutoWhiteBalance) { device.whiteBalanceMode = .continuousAutoWhiteBalance }
            device.unlockForConfiguration()
        } catch {
            print("Could not lock device for configuration: \(error)")
        }
    }
}
