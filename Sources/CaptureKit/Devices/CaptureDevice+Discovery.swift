import Foundation
import GStreamerSwift
import Synchronization

extension CaptureDevice {
    /// Posted when a device appears; the notification's object is the device.
    public static let wasConnectedNotification = Notification.Name("CaptureDeviceWasConnected")
    /// Posted when a device disappears; the notification's object is the device.
    public static let wasDisconnectedNotification = Notification.Name("CaptureDeviceWasDisconnected")

    /// Every device: cameras found by GstDeviceMonitor, then the virtual back and front cameras
    /// where no hardware camera is connected or where `listsVirtualDevices` asks for them (so that
    /// code choosing a camera by position finds the real one). The virtual cameras are always
    /// found by uniqueID and by `find("virtual")`.
    public static func devices() -> [CaptureDevice] {
        DeviceRegistry.shared.devices()
    }

    /// Whether `devices()` lists the virtual cameras beside hardware ones; false by default, true
    /// when the environment sets `CAPTUREKIT_VIRTUAL_DEVICES=1` (tests and demos ask this way).
    public static var listsVirtualDevices: Bool {
        get { DeviceRegistry.shared.listsVirtual.load(ordering: .relaxed) }
        set { DeviceRegistry.shared.listsVirtual.store(newValue, ordering: .relaxed) }
    }

    /// The devices that produce `mediaType`.
    public static func devices(for mediaType: MediaType) -> [CaptureDevice] {
        devices().filter { $0.hasMediaType(mediaType) }
    }

    /// The default device for `mediaType`: the first hardware camera, or the virtual back camera
    /// where none is connected. Nil for media types no device produces.
    public static func `default`(for mediaType: MediaType) -> CaptureDevice? {
        DeviceRegistry.shared.defaultDevice(for: mediaType)
    }

    /// The device with that uniqueID, if present (the virtual cameras always are). A camera
    /// unplugged and plugged in again is a new device: its old instance stays disconnected.
    public convenience init?(uniqueID: String) {
        guard let device = DeviceRegistry.shared.device(uniqueID: uniqueID) else { return nil }
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
    /// `CaptureDevice.listsVirtualDevices`.
    let listsVirtual = Atomic<Bool>(ProcessInfo.processInfo.environment["CAPTUREKIT_VIRTUAL_DEVICES"] == "1")

    func devices() -> [CaptureDevice] {
        startMonitoringIfNeeded()
        let order = hardwareOrder.withLock { $0 }
        let cameras = known.withLock { known in order.compactMap { known[$0] }.filter(\.isConnected) }
        let virtual = cameras.isEmpty || listsVirtual.load(ordering: .relaxed)
        return cameras + (virtual ? [VirtualCamera.back, VirtualCamera.front] : [])
    }

    /// The first hardware device for `mediaType`, else the first listed one.
    func defaultDevice(for mediaType: MediaType) -> CaptureDevice? {
        let candidates = devices().filter { $0.hasMediaType(mediaType) }
        return candidates.first { $0.source != .virtual } ?? candidates.first
    }

    /// The connected device with that uniqueID, listed or not.
    func device(uniqueID: String) -> CaptureDevice? {
        if uniqueID == VirtualCamera.back.uniqueID { return VirtualCamera.back }
        if uniqueID == VirtualCamera.front.uniqueID { return VirtualCamera.front }
        startMonitoringIfNeeded()
        return known.withLock { $0[uniqueID] }.flatMap { $0.isConnected ? $0 : nil }
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
            for found in deviceMonitor.devices() { if let description = V4L2DeviceDescription(found) { _ = register(description) } }
            let watch = deviceMonitor.start { [weak self] message in
                self?.handle(message)
            }
            slot = (deviceMonitor, watch)
        }
    }

    private func handle(_ message: BusMessage) {
        switch message {
        case .deviceAdded(let found):
            if let description = V4L2DeviceDescription(found), let device = register(description) {
                NotificationCenter.default.post(name: CaptureDevice.wasConnectedNotification, object: device)
            }
        case .deviceRemoved(let found):
            if let description = V4L2DeviceDescription(found), let device = unregister(uniqueID: description.uniqueID) {
                NotificationCenter.default.post(name: CaptureDevice.wasDisconnectedNotification, object: device)
            }
        default:
            break
        }
    }

    /// Adds a monitored device; returns it when it is a camera CaptureKit can open. A device
    /// opened by path before monitoring started is the same object, listed from now on. A device
    /// that comes back after it was removed is a new object (seed 000: an instance never
    /// reconnects); the old one stays disconnected.
    func register(_ description: V4L2DeviceDescription) -> CaptureDevice? {
        guard !description.formats.isEmpty else { return nil }
        let id = description.uniqueID
        defer { hardwareOrder.withLock { if !$0.contains(id) { $0.append(id) } } }
        if let existing = known.withLock({ $0[id] }), existing.isConnected { return existing }
        let device = description.makeDevice()
        known.withLock { $0[id] = device }
        return device
    }

    /// Marks a removed device disconnected; returns it when it was known.
    func unregister(uniqueID: String) -> CaptureDevice? {
        guard let device = known.withLock({ $0[uniqueID] }) else { return nil }
        device.setConnected(false)
        return device
    }
}
