import Foundation
import GStreamerSwift

/// What GstDeviceMonitor (or `V4L2DeviceProbe`, for one node) tells about a V4L2 camera, turned
/// into CaptureKit's terms.
struct V4L2DeviceDescription: Equatable {
    var path: String
    var uniqueID: String
    var modelID: String
    var name: String
    var manufacturer: String
    var formats: [CaptureDevice.Format]

    /// Nil for devices that are not V4L2 cameras (no device.path).
    init?(_ found: MonitoredDevice, byIDDirectory: String = "/dev/v4l/by-id") {
        self.init(displayName: found.displayName, properties: found.properties, caps: found.caps, byIDDirectory: byIDDirectory)
    }

    /// From a device's display name, GstDevice-style properties (device.path, v4l2.device.card,
    /// device.vendor.id, …) and caps. Nil without device.path.
    init?(displayName: String, properties: [String: CapsValue], caps: [CapsStructure], byIDDirectory: String = "/dev/v4l/by-id") {
        guard case .string(let path)? = properties["device.path"] ?? properties["api.v4l2.path"] else { return nil }
        self.path = path
        func text(_ key: String) -> String? {
            guard let value = properties[key] else { return nil }
            if case .string(let string) = value { return string }
            return value.description
        }
        uniqueID = Self.stableID(for: path, in: byIDDirectory) ?? path
        if let vendor = text("device.vendor.id"), let product = text("device.product.id") {
            modelID = "\(vendor):\(product)"
        } else {
            modelID = [text("api.v4l2.cap.driver") ?? text("v4l2.device.driver"), text("api.v4l2.cap.card") ?? text("v4l2.device.card")]
                .compactMap { $0 }.joined(separator: " ")
        }
        name = displayName
        manufacturer = text("device.vendor.name") ?? text("api.v4l2.cap.driver") ?? text("v4l2.device.driver") ?? "Unknown"
        formats = CaptureDevice.Format.formats(from: caps)
    }

    /// The /dev/v4l/by-id link that resolves to `path`: stable across reconnects and ports.
    static func stableID(for path: String, in directory: String) -> String? {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: directory) else { return nil }
        let target = realPath(path) ?? path
        return entries.sorted().map { directory + "/" + $0 }.first {
            (realPath($0) ?? $0) == target
        }
    }

    func makeDevice() -> CaptureDevice {
        makeDevice(controls: try? V4L2ControlTable.query(deviceAt: path))
    }

    /// The device with its controls read from `table` (the node's, or a recorded one in tests):
    /// its formats carry the exposure, ISO and zoom limits the controls give.
    func makeDevice(controls table: V4L2ControlTable?) -> CaptureDevice {
        let mapping = table.map(V4L2ControlMapping.init)
        let limited = formats.map { Self.format($0, limitedBy: mapping) }
        let initial = SessionPreset.high.bestFormat(among: limited) ?? limited[0]
        return CaptureDevice(uniqueID: uniqueID, modelID: modelID, localizedName: name, manufacturer: manufacturer,
                             position: table.map(Self.position) ?? .unspecified, formats: limited, activeFormat: initial,
                             backend: V4L2Backend(path: path, mapping: mapping))
    }

    /// A format with the limits seed 004's sliders clamp to: exposure_time_absolute's range,
    /// the ISO range the gain (or iso_sensitivity) maps to, and zoom_absolute's factor range —
    /// or CaptureKit's digital zoom where the camera has none (all of it upscaling).
    static func format(_ format: CaptureDevice.Format, limitedBy mapping: V4L2ControlMapping?) -> CaptureDevice.Format {
        guard let mapping else { return format }
        var limited = format
        if let durations = mapping.exposureDurationRange {
            limited.minExposureDuration = durations.lowerBound
            limited.maxExposureDuration = durations.upperBound
        }
        if let isos = mapping.isoRange {
            limited.minISO = isos.lowerBound
            limited.maxISO = isos.upperBound
        }
        if let zoom = mapping.zoomFactorRange {
            limited.videoMaxZoomFactor = zoom.upperBound
            limited.videoZoomFactorUpscaleThreshold = zoom.upperBound
        } else if mapping[.zoom] == .software(.digitalZoom) {
            limited.videoMaxZoomFactor = DigitalZoom.maxFactor
            limited.videoZoomFactorUpscaleThreshold = 1
        }
        return limited
    }

    /// Where the camera faces, from V4L2's camera_orientation control (V4L2_CID_CAMERA_ORIENTATION:
    /// 0 front, 1 back, 2 external); unspecified for external cameras and drivers without it.
    static func position(_ table: V4L2ControlTable) -> CaptureDevice.Position {
        switch (table[id: 0x009a_0922] ?? table["camera_orientation"])?.value {
        case 0?: .front
        case 1?: .back
        default: .unspecified
        }
    }
}
