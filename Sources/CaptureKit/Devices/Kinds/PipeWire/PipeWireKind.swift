import Foundation
import GStreamerSwift

/// Cameras a running PipeWire daemon serves (desktop cameras shared by browsers, Flatpak apps,
/// OBS), as GStreamer's PipeWire provider reports its `Video/Source` nodes. Opening a camera
/// through PipeWire lets several programs read it at once, so a camera PipeWire serves is listed
/// through PipeWire (precedence above V4L2); its node's path still opens it directly.
struct PipeWireKind: DeviceKind {
    let monitoredClass: String? = "Video/Source"

    /// GStreamer's PipeWire provider connects through the connection the camera portal handed
    /// over, where it did (a sandbox has no daemon socket of its own), else to the default daemon.
    /// A connection whose far end has closed is not handed on: the provider's start waits for the
    /// daemon's first answer with no deadline, and would miss that the connection ended if it
    /// ended before the provider listened.
    func prepareMonitoring() {
        let remote = CameraPortal.remote.withLock { $0 }.flatMap { Self.isOpen($0) ? $0 : nil }
        DeviceMonitor.setProviderProperty("fd", remote.map(String.init) ?? "-1", onProvider: "pipewiredeviceprovider")
    }

    /// Whether the socket `fd` is still connected: no hang-up, error or closed far end pending.
    static func isOpen(_ fd: Int32) -> Bool {
        guard fd >= 0 else { return false }
        let farEndClosed: Int16 = 0x2000  // POLLRDHUP, which Glibc's module leaves out (_GNU_SOURCE)
        var entry = pollfd(fd: fd, events: farEndClosed, revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return false }
        return entry.revents & (Int16(POLLHUP | POLLERR | POLLNVAL) | farEndClosed) == 0
    }

    func describe(_ found: MonitoredDevice) -> DeviceCandidate? {
        guard found.typeName == "GstPipeWireDevice", let node = found.text("node.name") else { return nil }
        let formats = CaptureDevice.Format.formats(from: found.caps).filter { $0.pixelFormat.gstFormat != nil || $0.pixelFormat == .mjpeg }
        guard !formats.isEmpty else { return nil }
        var keys: Set<PhysicalKey> = []
        if let path = found.text("api.v4l2.path") { keys.insert(.v4l2Node(realPath(path) ?? path)) }
        if let camera = found.text("api.libcamera.path") { keys.insert(.libcamera(camera)) }
        let uniqueID = "pipewire:" + node
        let vendor = found.text("device.vendor.id").map(Self.hexID), product = found.text("device.product.id").map(Self.hexID)
        let modelID = vendor.flatMap { vendor in product.map { "\(vendor):\($0)" } }
            ?? [found.text("api.v4l2.cap.driver"), found.text("api.v4l2.cap.card")].compactMap { $0 }.joined(separator: " ")
        let name = found.text("node.description") ?? found.displayName
        let manufacturer = found.text("device.vendor.name") ?? "PipeWire"
        let position: CaptureDevice.Position = switch found.text("api.libcamera.location") {
        case "front"?: .front
        case "back"?: .back
        default: .unspecified
        }
        return DeviceCandidate(uniqueID: uniqueID, mediaType: .video, sameDevice: keys, precedence: DevicePrecedence.pipeWire) {
            let initial = SessionPreset.high.bestFormat(among: formats) ?? formats[0]
            return CaptureDevice(uniqueID: uniqueID, modelID: modelID.isEmpty ? "pipewire" : modelID, localizedName: name,
                                 manufacturer: manufacturer, position: position, formats: formats, activeFormat: initial,
                                 backend: PipeWireBackend(node: node))
        }
    }

    /// "0x046d" as "046d", the form V4L2's udev ids take, so a camera's modelID is the same by
    /// either route.
    static func hexID(_ text: String) -> String {
        text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
    }
}

extension MonitoredDevice {
    /// A property as text (PipeWire gives every property as a string); nil when absent or empty.
    func text(_ key: String) -> String? {
        guard let value = properties[key] else { return nil }
        let text = if case .string(let string) = value { string } else { value.description }
        return text.isEmpty ? nil : text
    }
}
