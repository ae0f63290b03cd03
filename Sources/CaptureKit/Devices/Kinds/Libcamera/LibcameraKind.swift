import GStreamerSwift

/// Cameras libcamera drives (Raspberry Pi CSI cameras, other SoC cameras behind an ISP), as
/// libcamera's GStreamer provider reports them, named by libcamera's camera id
/// (`libcamera:/base/soc/i2c0mux/i2c@1/imx708@1a`). Their raw media-controller nodes are never
/// cameras (`V4L2Kind`), so each is listed once. USB webcams, which libcamera also lists, stay
/// V4L2 cameras: V4L2 reaches every control they have, libcamera's UVC handler a few.
struct LibcameraKind: DeviceKind {
    let monitoredClass: String? = "Video/Source"

    /// The provider states no frame rates; the element asks the camera for the format's rate
    /// (libcamera 0.4 sets FrameDurationLimits from it; 0.0.3 runs at the camera's own rate).
    static let frameRates = [CaptureDevice.FrameRateRange(minFrameRate: 1, maxFrameRate: 30)]

    func describe(_ found: MonitoredDevice) -> DeviceCandidate? {
        guard found.typeName == "GstLibcameraDevice" else { return nil }
        let id = found.displayName
        guard !id.isEmpty, !Self.isUSB(id) else { return nil }
        let formats = CaptureDevice.Format.formats(from: found.caps, unstatedFrameRates: Self.frameRates)
            .filter { $0.pixelFormat.gstFormat != nil }
        guard !formats.isEmpty else { return nil }
        let uniqueID = "libcamera:" + id
        return DeviceCandidate(uniqueID: uniqueID, mediaType: .video, sameDevice: [.libcamera(id)], precedence: DevicePrecedence.libcamera) {
            // What the camera supports is asked of `cam` only when the device is made.
            let controls = LibcameraControls.of(cameraID: id)
            let name = found.text("api.libcamera.Model") ?? controls.facts?.model ?? Self.sensorName(id)
            let position = Self.position(found.properties["api.libcamera.Location"] ?? controls.facts?.location.map { .int($0) })
            let initial = SessionPreset.high.bestFormat(among: formats) ?? formats[0]
            return CaptureDevice(uniqueID: uniqueID, modelID: name, localizedName: name, manufacturer: "libcamera", position: position,
                                 formats: formats, activeFormat: initial, backend: LibcameraBackend(cameraID: id, controls: controls))
        }
    }

    /// libcamera names a UVC camera by its USB path and "-vvvv:pppp" (vendor and product).
    static func isUSB(_ id: String) -> Bool {
        let tail = id.split(separator: "-").last.map(String.init) ?? ""
        let parts = tail.split(separator: ":")
        return parts.count == 2 && parts.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isHexDigit) }
    }

    /// The sensor part of a camera id: "imx708" for "/base/soc/i2c0mux/i2c@1/imx708@1a",
    /// "vimc.0 Sensor B" for "platform/vimc.0 Sensor B".
    static func sensorName(_ id: String) -> String {
        let last = id.split(separator: "/").last.map(String.init) ?? id
        return last.split(separator: "@").first.map(String.init) ?? last
    }

    /// libcamera's Location property (0 front, 1 back, 2 external), which providers from 0.5.2 on
    /// report; an older one states no position.
    static func position(_ value: CapsValue?) -> CaptureDevice.Position {
        let location: Int? = switch value {
        case .int(let number)?: number
        case .string(let text)?: Int(text)
        default: nil
        }
        return switch location {
        case 0?: .front
        case 1?: .back
        default: .unspecified
        }
    }
}
