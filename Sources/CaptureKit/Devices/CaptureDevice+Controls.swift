import GStreamerSwift
import Foundation

extension CaptureDevice {
    /// One control as `capture controls` shows it: what it is, its mode and value, its range,
    /// and how the device provides it.
    public struct ControlDescription: Sendable, Hashable, Codable {
        public var name: String
        public var mode: String?
        public var value: String
        public var range: String?
        /// "device", "software" (computed by CaptureKit), "v4l2" (a raw control) or "unsupported".
        public var provider: String
    }

    /// Every control of the device with its current mode, value and range. Devices with controls
    /// of their own list them as their backend reads them (V4L2 cameras: the seed capabilities
    /// as their controls map (SPEC.md), then their raw V4L2 controls, read by ioctl). Microphones have none of these: they throw `mediaTypeNotSupported`.
    public func controls() throws(CaptureError) -> [ControlDescription] {
        guard backend.mediaType == .video else { throw .mediaTypeNotSupported(device: uniqueID, mediaType: .video) }
        if let raw = try backend.rawControls() { return raw.descriptions }
        return virtualControls()
    }

    private func virtualControls() -> [ControlDescription] {
        let format = activeFormat
        let gains = deviceWhiteBalanceGains
        let balance = temperatureAndTintValues(for: gains)
        func number(_ value: Double) -> String { String(format: "%g", value) }
        var controls = [
            ControlDescription(name: "exposure", mode: "\(exposureMode)",
                               value: "\(exposureDuration.value)/\(exposureDuration.timescale) s, ISO \(number(Double(iso)))",
                               range: "\(number(format.minExposureDuration.seconds))…\(number(format.maxExposureDuration.seconds)) s, ISO \(number(Double(format.minISO)))…\(number(Double(format.maxISO)))",
                               provider: "device"),
            ControlDescription(name: "lensAperture", mode: nil, value: "f/\(number(Double(lensAperture)))", range: nil, provider: "device"),
            ControlDescription(name: "focus", mode: "\(focusMode)", value: "lens position \(number(Double(lensPosition)))", range: "0…1", provider: "device"),
            ControlDescription(name: "whiteBalance", mode: "\(whiteBalanceMode)",
                               value: "gains \(number(Double(gains.redGain))), \(number(Double(gains.greenGain))), \(number(Double(gains.blueGain))) (\(Int(balance.temperature.rounded())) K, tint \(number(Double(balance.tint.rounded()))))",
                               range: "1…\(number(Double(maxWhiteBalanceGain)))", provider: "device"),
            ControlDescription(name: "videoZoomFactor", mode: nil, value: number(videoZoomFactor), range: "1…\(number(format.videoMaxZoomFactor))", provider: "software"),
        ]
        if hasTorch {
            controls.append(ControlDescription(name: "torch", mode: "\(torchMode)", value: number(Double(torchLevel)), range: "0…1", provider: "device"))
        }
        return controls
    }
}
