import CaptureKit
import Foundation

extension ServerCamera {
    /// The keys `POST /api/controls` takes.
    static let controlKeys = ["torchMode", "videoZoomFactor", "exposureTargetBias", "focusPointOfInterest", "exposurePointOfInterest"]

    /// A change `POST /api/controls` asks for, read and checked against the device before any
    /// of it is applied: each value must be of its type and in the device's range.
    struct ControlChange: Sendable {
        var torchMode: CaptureDevice.TorchMode?
        var videoZoomFactor: Double?
        var exposureTargetBias: Float?
        var focusPointOfInterest: CGPoint?
        var exposurePointOfInterest: CGPoint?

        init(_ body: JSONBody, device: CaptureDevice) throws(APIError) {
            let torchNames = CaptureDevice.TorchMode.allCases.map { "\($0)" }
            if let name = try body.string("torchMode", valid: torchNames.joined(separator: ", ")) {
                guard let mode = CaptureDevice.TorchMode.allCases.first(where: { "\($0)" == name }) else {
                    throw .badRequest("invalidValue", "torchMode \"\(name)\" is not a torch mode; valid: \(torchNames.joined(separator: ", "))")
                }
                let supported = CaptureDevice.TorchMode.allCases.filter(device.isTorchModeSupported).map { "\($0)" }
                guard device.isTorchModeSupported(mode) else {
                    throw .badRequest("unsupported", "torchMode \"\(name)\" is not supported by \(device.uniqueID); valid: \(supported.isEmpty ? "none (no torch)" : supported.joined(separator: ", "))")
                }
                torchMode = mode
            }
            let maxZoom = device.activeFormat.videoMaxZoomFactor
            if let zoom = try body.number("videoZoomFactor", valid: "1…\(maxZoom)") {
                guard (1...maxZoom).contains(zoom) else {
                    throw .badRequest("outOfRange", "videoZoomFactor \(zoom) is out of range; valid: 1…\(maxZoom)")
                }
                videoZoomFactor = zoom
            }
            let (minBias, maxBias) = (Double(device.minExposureTargetBias), Double(device.maxExposureTargetBias))
            if let bias = try body.number("exposureTargetBias", valid: "\(minBias)…\(maxBias) EV") {
                guard (minBias...maxBias).contains(bias) else {
                    throw .badRequest("outOfRange", "exposureTargetBias \(bias) is out of range; valid: \(minBias)…\(maxBias) EV")
                }
                exposureTargetBias = Float(bias)
            }
            if let point = try body.point("focusPointOfInterest") {
                guard device.isFocusPointOfInterestSupported else {
                    throw .badRequest("unsupported", "focusPointOfInterest is not supported by \(device.uniqueID) (no autofocus to point)")
                }
                focusPointOfInterest = point
            }
            if let point = try body.point("exposurePointOfInterest") {
                guard device.isExposurePointOfInterestSupported else {
                    throw .badRequest("unsupported", "exposurePointOfInterest is not supported by \(device.uniqueID) (no auto exposure to point)")
                }
                exposurePointOfInterest = point
            }
        }
    }

    /// Applies `change` to the device in use, under its configuration lock; a point of interest
    /// takes effect with an autofocus (or auto-exposure) run from there, as a tap in a camera
    /// app does. Returns the controls now in force.
    func apply(_ body: JSONBody) async throws -> ControlReport {
        let device = self.device
        let change = try ControlChange(body, device: device)
        return try await perform { () throws(CaptureError) in
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            if let mode = change.torchMode { try device.setTorchMode(mode) }
            if let zoom = change.videoZoomFactor { try device.setVideoZoomFactor(zoom) }
            if let bias = change.exposureTargetBias { try device.checked.setExposureTargetBias(bias) }
            if let point = change.focusPointOfInterest {
                try device.setFocusPointOfInterest(point)
                if device.isFocusModeSupported(.autoFocus) { try device.setFocusMode(.autoFocus) }
            }
            if let point = change.exposurePointOfInterest {
                try device.setExposurePointOfInterest(point)
                let mode = device.exposureMode == .custom || device.exposureMode == .locked ? CaptureDevice.ExposureMode.autoExpose : device.exposureMode
                if device.isExposureModeSupported(mode) { try device.setExposureMode(mode) }
            }
            return try device.controlReport()
        }
    }
}
