import Foundation
import GStreamerSwift
import Synchronization

extension CaptureDevice {
    /// Posted when a device appears; the notification's object is the device.
    public static let wasConnectedNotification = Notification.Name("CaptureDeviceWasConnected")
    /// Posted when a device disappears; the notification's object is the device.
    public static let wasDisconnectedNotification = Notification.Name("CaptureDeviceWasDisconnected")

    /// Every device: cameras found by GstDeviceMonitor first, then the virtual back and front cameras.
    public static func devices() -> [CaptureDevice] {
        DeviceRegistry.shared.devices()
    }

    /// The devices that produce `mediaType`.
    public static func devices(for mediaType: MediaType) -> [CaptureDevice] {
        devices().filter { $0.hasMediaType(mediaType) }
    }

    /// The default device for `mediaType`: the first camera, or the virtual back camera where
    /// no hardware exists. Nil for media types no device produces.
    public static func `default`(for mediaType: MediaType) -> CaptureDevice? {
        devices(for: mediaType).first
    }

    /// The device with that uniqueID, if present.
    public convenience init?(uniqueID: String) {
        guard let device = DeviceRegistry.shared.devices().first(where: { $0.uniqueID == uniqueID }) else { return nil }
        self.init(sharing: device)
    }

    /// A device by uniqueID, localized name, index in `devices()`, "virtual" / "virtual-front",
    /// "default" (`default(for: .video)`, else the virtual back camera), or the path of its V4L2
    /// node (or a link to it). A path opens that node alone, without discovering other devices.
    public static func find(_ reference: String) throws(CaptureError) -> CaptureDevice {
        switch reference {
        case "default": return `default`(for: .video) ?? VirtualCamera.back
        case "virtual", "virtual-back", VirtualCamera.back.uniqueID: return VirtualCamera.back
        case "virtual-front", VirtualCamera.front.uniqueID: return VirtualCamera.front
        default: break
        }
        if reference.hasPrefix("/"), let device = DeviceRegistry.shared.device(atPath: reference) { return device }
        let all = devices()
        if let index = Int(reference), all.indices.contains(index) { return all[index] }
        if let match = all.first(where: { $0.uniqueID == reference || $0.localizedName == reference }) { return match }
        throw .deviceNotFound(reference, available: all.enumerated().map { "\($0.offset): \($0.element.uniqueID)" })
    }
}

/// The process's devices: one object per uniqueID, hot-plug tracked by a device monitor.
final class DeviceRegistry: Sendable {
    static let shared = DeviceRegistry()

    private let known = Mutex<[String: CaptureDevice]>([:])
    private let hardwareOrder = Mutex<[String]>([])
    private let monitor = Mutex<(DeviceMonitor, BusWatch?)?>(nil)

    func devices() -> [CaptureDevice] {
        startMonitoringIfNeeded()
        let order = hardwareOrder.withLock { $0 }
        let cameras = known.withLock { known in order.compactMap { known[$0] }.filter(\.isConnected) }
        return cameras + [VirtualCamera.back, VirtualCamera.front]
    }

    /// The camera whose V4L2 node is `path` (or a link to it). Before any listing, the node is
    /// described alone (`V4L2DeviceProbe`) instead of starting a monitor that probes every device;
    /// the device joins the registry, so later listings and hot-plug events give the same object.
    /// Nil when no such camera is known or the node is not one (the caller then lists devices).
    func device(atPath path: String) -> CaptureDevice? {
        let node = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        if let known = knownDevice(atNode: node) { return known }
        guard monitor.withLock({ $0 == nil }), let description = V4L2DeviceProbe.describe(path: node) else { return nil }
        return known.withLock { known in
            if let existing = known[description.uniqueID] { return existing }
            let device = description.makeDevice()
            known[description.uniqueID] = device
            return device
        }
    }

    private func knownDevice(atNode node: String) -> CaptureDevice? {
        known.withLock { known in
            known.values.first { device in
                guard case .v4l2(let path) = device.source else { return false }
                return URL(fileURLWithPath: path).resolvingSymlinksInPath().path == node
            }
        }
    }

    private func startMonitoringIfNeeded() {
        monitor.withLock { slot in
            guard slot == nil else { return }
            let deviceMonitor = DeviceMonitor(deviceClass: "Video/Source")
            for found in deviceMonitor.devices() { _ = register(found) }
            let watch = deviceMonitor.start { [weak self] message in
                self?.handle(message)
            }
            slot = (deviceMonitor, watch)
        }
    }

    private func handle(_ message: BusMessage) {
        switch message {
        case .deviceAdded(let found):
            if let device = register(found) {
                NotificationCenter.default.post(name: CaptureDevice.wasConnectedNotification, object: device)
            }
        case .deviceRemoved(let found):
            guard let description = V4L2DeviceDescription(found) else { return }
            if let device = known.withLock({ $0[description.uniqueID] }) {
                device.setConnected(false)
                NotificationCenter.default.post(name: CaptureDevice.wasDisconnectedNotification, object: device)
            }
        default:
            break
        }
    }

    /// Adds or reconnects a monitored device; returns it when it is a camera CaptureKit can open.
    /// A device opened by path before monitoring started is the same object, listed from now on.
    private func register(_ found: MonitoredDevice) -> CaptureDevice? {
        guard let description = V4L2DeviceDescription(found), !description.formats.isEmpty else { return nil }
        let id = description.uniqueID
        defer { hardwareOrder.withLock { if !$0.contains(id) { $0.append(id) } } }
        if let existing = known.withLock({ $0[id] }) {
            existing.setConnected(true)
            return existing
        }
        let device = description.makeDevice()
        known.withLock { $0[id] = device }
        return device
    }
}
