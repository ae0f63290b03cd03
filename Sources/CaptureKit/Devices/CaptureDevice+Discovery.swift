import Foundation
import GStreamerSwift
import Synchronization

extension CaptureDevice {
    /// Posted when a device appears; the notification's object is the device. Posted on
    /// CaptureKit's serial device-notification queue, never on a GStreamer thread.
    public static let wasConnectedNotification = Notification.Name("CaptureDeviceWasConnected")
    /// Posted when a device disappears; the notification's object is the device. Posted on
    /// CaptureKit's serial device-notification queue, never on a GStreamer thread.
    public static let wasDisconnectedNotification = Notification.Name("CaptureDeviceWasDisconnected")

    /// Where hot-plug notifications are posted, in order.
    static let notificationQueue = DispatchQueue(label: "capturekit.devices.notifications")

    /// Posts a hot-plug notification for `device` from the device-notification queue.
    static func post(_ name: Notification.Name, for device: CaptureDevice) {
        notificationQueue.async { NotificationCenter.default.post(name: name, object: device) }
    }

    /// Every device: cameras found by GstDeviceMonitor, then the virtual back and front cameras
    /// where no hardware camera is connected or where `listsVirtualDevices` asks for them (so that
    /// code choosing a camera by position finds the real one); then the screen of the X display
    /// `$DISPLAY` names, when one answers (`screen:` and the display, e.g. `screen::99`,
    /// grabbed by `ximagesrc`; none where `$DISPLAY` is unset); then microphones found by
    /// GstDeviceMonitor (class Audio/Source: PulseAudio, PipeWire, ALSA) and the virtual
    /// microphone, which is always listed. The virtual cameras are always found by uniqueID and
    /// by `find("virtual")`.
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

    /// The default device for `mediaType`: for video the first hardware camera, or the virtual
    /// back camera where none is connected (never a screen); for audio the first hardware microphone (the sound
    /// server's default source where it says which), or the virtual microphone. Nil for media
    /// types no device produces.
    public static func `default`(for mediaType: MediaType) -> CaptureDevice? {
        DeviceRegistry.shared.defaultDevice(for: mediaType)
    }

    /// The device with that uniqueID, if present (the virtual cameras always are; a screen's,
    /// `screen:<display>`, when that X display answers, whether or not `$DISPLAY` names it). A
    /// camera unplugged and plugged in again is a new device: its old instance stays disconnected.
    public convenience init?(uniqueID: String) {
        guard let device = DeviceRegistry.shared.device(uniqueID: uniqueID) else { return nil }
        self.init(sharing: device)
    }

    /// A device by uniqueID, localized name, index in `devices()`, "virtual" / "virtual-front",
    /// "screen" (the screen of `$DISPLAY`), "default" (`default(for: .video)`, else the virtual
    /// back camera), or the path of its V4L2 node (or a link to it). A path opens that node alone,
    /// without discovering other devices.
    public static func find(_ reference: String) throws(CaptureError) -> CaptureDevice {
        switch reference {
        case "default": return `default`(for: .video) ?? VirtualCamera.back
        case "virtual", "virtual-back", VirtualCamera.back.uniqueID: return VirtualCamera.back
        case "virtual-front", VirtualCamera.front.uniqueID: return VirtualCamera.front
        case "screen": if let screen = DeviceRegistry.shared.screens().first { return screen }
        default: if reference.hasPrefix(ScreenDescription.uniqueIDPrefix), let screen = DeviceRegistry.shared.device(uniqueID: reference) { return screen }
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
    /// The microphones the sound server calls its default, listed first.
    private let systemDefaults = Mutex<Set<String>>([])
    /// The camera (Video/Source) and microphone (Audio/Source) monitors, with their hot-plug
    /// watches; apart, so that one kind failing to start leaves the other monitored.
    private let monitor = Mutex<[(DeviceMonitor, BusWatch?)]?>(nil)
    /// Screens by uniqueID: one object per display while it answers with the same screen.
    private let knownScreens = Mutex<[String: CaptureDevice]>([:])
    /// `CaptureDevice.listsVirtualDevices`.
    let listsVirtual = Atomic<Bool>(ProcessInfo.processInfo.environment["CAPTUREKIT_VIRTUAL_DEVICES"] == "1")

    /// Cameras, then screens, then microphones.
    func devices() -> [CaptureDevice] {
        cameras() + screens() + microphones()
    }

    /// Hardware cameras in the order found, then the virtual cameras where none is connected or
    /// when `listsVirtual`.
    func cameras() -> [CaptureDevice] {
        let cameras = connectedHardware().filter { $0.hasMediaType(.video) }
        let virtual = cameras.isEmpty || listsVirtual.load(ordering: .relaxed)
        return cameras + (virtual ? [VirtualCamera.back, VirtualCamera.front] : [])
    }

    /// Hardware microphones, the sound server's default first, then in the order found; then
    /// the virtual microphone (always).
    func microphones() -> [CaptureDevice] {
        let hardware = connectedHardware().filter { $0.hasMediaType(.audio) }
        let defaults = systemDefaults.withLock { $0 }
        return hardware.filter { defaults.contains($0.uniqueID) } + hardware.filter { !defaults.contains($0.uniqueID) } + [VirtualMicrophone.device]
    }

    private func connectedHardware() -> [CaptureDevice] {
        startMonitoringIfNeeded()
        let order = hardwareOrder.withLock { $0 }
        return known.withLock { known in order.compactMap { known[$0] }.filter(\.isConnected) }
    }

    /// The screen of the display `$DISPLAY` names, when it answers; none where it is unset.
    func screens() -> [CaptureDevice] {
        guard let display = ScreenDescription.currentDisplay, let screen = screen(display: display) else { return [] }
        return [screen]
    }

    /// The screen of `display`, asked afresh: the device found before while the display answers
    /// with the same screen, else a new one (the old one disconnected); nil when it does not answer.
    func screen(display: String) -> CaptureDevice? {
        let uniqueID = ScreenDescription.uniqueIDPrefix + display
        let description = display.isEmpty ? nil : ScreenDescription.probe(display: display)
        return knownScreens.withLock { known in
            if let description, let existing = known[uniqueID], existing.isConnected, existing.formats == [description.format] {
                return existing
            }
            known[uniqueID]?.setConnected(false)
            known[uniqueID] = description?.makeDevice()
            return known[uniqueID]
        }
    }

    /// The first hardware device for `mediaType`, else the first listed one (a virtual one);
    /// never a screen.
    func defaultDevice(for mediaType: MediaType) -> CaptureDevice? {
        let candidates = (cameras() + microphones()).filter { $0.hasMediaType(mediaType) }
        return candidates.first { !$0.backend.isBuiltIn } ?? candidates.first
    }

    /// The connected device with that uniqueID, listed or not.
    func device(uniqueID: String) -> CaptureDevice? {
        if uniqueID == VirtualCamera.back.uniqueID { return VirtualCamera.back }
        if uniqueID == VirtualCamera.front.uniqueID { return VirtualCamera.front }
        if uniqueID == VirtualMicrophone.uniqueID { return VirtualMicrophone.device }
        if uniqueID.hasPrefix(ScreenDescription.uniqueIDPrefix) { return screen(display: String(uniqueID.dropFirst(ScreenDescription.uniqueIDPrefix.count))) }
        startMonitoringIfNeeded()
        return known.withLock { $0[uniqueID] }.flatMap { $0.isConnected ? $0 : nil }
    }

    /// The camera whose V4L2 node is `path` (or a link to it). Before any listing, the node is
    /// described alone (`V4L2DeviceProbe`) instead of starting a monitor that probes every device;
    /// the device joins the registry, so later listings and hot-plug events give the same object.
    /// Nil when no such camera is known or the node is not one (the caller then lists devices).
    func device(atPath path: String) -> CaptureDevice? {
        let node = realPath(path) ?? path
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
                guard let path = device.backend.devicePath else { return false }
                return (realPath(path) ?? path) == node
            }
        }
    }

    private func startMonitoringIfNeeded() {
        monitor.withLock { slot in
            guard slot == nil else { return }
            slot = [(deviceClass: "Video/Source", mediaType: MediaType.video), ("Audio/Source", .audio)].map { kind in
                let deviceMonitor = DeviceMonitor(deviceClass: kind.deviceClass)
                for found in deviceMonitor.devices() { _ = register(found, as: kind.mediaType) }
                let watch = deviceMonitor.start { [weak self] message in
                    self?.handle(message, mediaType: kind.mediaType)
                }
                return (deviceMonitor, watch)
            }
        }
    }

    private func handle(_ message: BusMessage, mediaType: MediaType) {
        switch message {
        case .deviceAdded(let found):
            if let device = register(found, as: mediaType) {
                CaptureDevice.post(CaptureDevice.wasConnectedNotification, for: device)
            }
        case .deviceRemoved(let found):
            let uniqueID = mediaType == .video ? V4L2DeviceDescription(found)?.uniqueID : MicrophoneDescription(found)?.uniqueID
            if let uniqueID, let device = unregister(uniqueID: uniqueID) {
                CaptureDevice.post(CaptureDevice.wasDisconnectedNotification, for: device)
            }
        default:
            break
        }
    }

    /// Adds a device a monitor of `mediaType` found; returns it when CaptureKit can open it.
    private func register(_ found: MonitoredDevice, as mediaType: MediaType) -> CaptureDevice? {
        switch mediaType {
        case .video: V4L2DeviceDescription(found).flatMap { register($0) }
        default: MicrophoneDescription(found).flatMap { register($0) }
        }
    }

    /// Adds a monitored microphone, under the same rules as a camera.
    func register(_ description: MicrophoneDescription) -> CaptureDevice? {
        systemDefaults.withLock { defaults in
            if description.isSystemDefault { defaults.insert(description.uniqueID) } else { defaults.remove(description.uniqueID) }
        }
        return register(uniqueID: description.uniqueID, make: description.makeDevice)
    }

    /// Adds a monitored device; returns it when it is a camera CaptureKit can open. A device
    /// opened by path before monitoring started is the same object, listed from now on. A device
    /// that comes back after it was removed is a new object (seed 000: an instance never
    /// reconnects); the old one stays disconnected.
    func register(_ description: V4L2DeviceDescription) -> CaptureDevice? {
        guard !description.formats.isEmpty else { return nil }
        return register(uniqueID: description.uniqueID, make: description.makeDevice)
    }

    private func register(uniqueID id: String, make: () -> CaptureDevice) -> CaptureDevice? {
        defer { hardwareOrder.withLock { if !$0.contains(id) { $0.append(id) } } }
        if let existing = known.withLock({ $0[id] }), existing.isConnected { return existing }
        let device = make()
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
