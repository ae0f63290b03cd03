import Foundation
import GStreamerSwift
import Synchronization

/// The devices of one `CaptureContext`: one object per uniqueID, hot-plug tracked by device
/// monitors, and the devices the kinds make for each context (the virtual ones).
///
/// Every kind in `DeviceKinds.all` describes what the monitors report. One physical device can
/// be found several ways (a camera through its V4L2 node and through libcamera or PipeWire):
/// candidates that share a `PhysicalKey` are one device, and only the connected one with the
/// highest precedence is listed. The others stay reachable by uniqueID and, for V4L2, by path.
///
/// The monitors start when something first lists or looks up hardware, so a context used only
/// for its virtual devices (a test's) never starts any.
final class DeviceRegistry: Sendable {
    /// The context's own devices, made by the kinds with the registry.
    let contextDevices: [CaptureDevice]

    init() {
        contextDevices = DeviceKinds.all.flatMap { $0.makeContextDevices() }
    }

    /// The context's own device with that uniqueID.
    func contextDevice(uniqueID: String) -> CaptureDevice? {
        contextDevices.first { $0.uniqueID == uniqueID }
    }

    /// A device found by a monitor, or opened by path, with what the dedupe needs.
    struct Entry {
        var device: CaptureDevice
        var sameDevice: Set<PhysicalKey>
        var precedence: Int
        /// Found only because something named it (a file), never by a monitor: not listed.
        var isNamedOnly = false
    }

    private let known = Mutex<[String: Entry]>([:])
    private let hardwareOrder = Mutex<[String]>([])
    /// The microphones the sound server calls its default, listed first.
    private let systemDefaults = Mutex<Set<String>>([])
    /// The camera (Video/Source) and microphone (Audio/Source) monitors, with their hot-plug
    /// watches; apart, so that one kind failing to start leaves the other monitored. The camera
    /// monitor shows every provider's devices (libcamera's and PipeWire's providers hide the
    /// v4l2 one, even for cameras they do not serve); the kinds and the dedupe decide.
    private let monitor = Mutex<[(DeviceMonitor, BusWatch?)]?>(nil)
    /// `CaptureDevice.listsVirtualDevices`.
    let listsVirtual = Atomic<Bool>(ProcessInfo.processInfo.environment["CAPTUREKIT_VIRTUAL_DEVICES"] == "1")
    /// The camera the user chose (`CaptureDevice.userPreferredCamera`).
    let userPreferredCamera = Mutex<CaptureDevice?>(nil)

    /// Hardware cameras in the order found, then the cameras and screens the kinds list by
    /// themselves (the virtual cameras where no hardware camera is connected or when
    /// `listsVirtual`; the screen of `$DISPLAY`); then hardware microphones, the sound server's
    /// default first, then in the order found; then the virtual microphone.
    func devices() -> [CaptureDevice] {
        listed(defaultsOnly: false)
    }

    /// The video devices `devices()` lists that may be the default: cameras, not screens.
    func cameras() -> [CaptureDevice] {
        listed(defaultsOnly: true).filter { $0.hasMediaType(.video) }
    }

    /// The audio devices `devices()` lists.
    func microphones() -> [CaptureDevice] {
        listed(defaultsOnly: true).filter { $0.hasMediaType(.audio) }
    }

    private func listed(defaultsOnly: Bool) -> [CaptureDevice] {
        let hardware = connectedHardware()
        let cameras = hardware.filter { $0.hasMediaType(.video) }, microphones = hardware.filter { $0.hasMediaType(.audio) }
        let defaults = systemDefaults.withLock { $0 }
        let listing = DeviceListing(hasHardwareCamera: !cameras.isEmpty, listsVirtual: listsVirtual.load(ordering: .relaxed), contextDevices: contextDevices)
        let own = DeviceKinds.ownDevices(listing, defaultsOnly: defaultsOnly)
        return cameras + own.filter { $0.hasMediaType(.video) }
            + microphones.filter { defaults.contains($0.uniqueID) } + microphones.filter { !defaults.contains($0.uniqueID) }
            + own.filter { $0.hasMediaType(.audio) }
    }

    private func connectedHardware() -> [CaptureDevice] {
        startMonitoringIfNeeded()
        let order = hardwareOrder.withLock { $0 }
        let connected = known.withLock { known in order.compactMap { known[$0] }.filter(\.device.isConnected) }
        return Self.listed(connected).map(\.device)
    }

    /// The entries listed, in order: each one unless a connected entry of the same device
    /// (sharing a key) has a higher precedence, or the same and was found first.
    static func listed(_ entries: [Entry]) -> [Entry] {
        entries.enumerated().filter { index, entry in
            !entries.enumerated().contains { other, rival in
                other != index && !rival.sameDevice.isDisjoint(with: entry.sameDevice)
                    && (rival.precedence > entry.precedence || (rival.precedence == entry.precedence && other < index))
            }
        }.map(\.element)
    }

    /// The first hardware device for `mediaType`, else the first listed one (a virtual one);
    /// never a screen.
    func defaultDevice(for mediaType: MediaType) -> CaptureDevice? {
        let candidates = listed(defaultsOnly: true).filter { $0.hasMediaType(mediaType) }
        return candidates.first { !$0.backend.isBuiltIn } ?? candidates.first
    }

    /// The device a kind resolves `reference` to (`file:clip.mp4`, `virtual`, `screen`): the
    /// same object while connected. Nil when no kind claims the reference.
    func resolve(_ reference: String) throws(CaptureError) -> CaptureDevice? {
        if let named = known.withLock({ $0[reference] }), named.isNamedOnly, named.device.isConnected { return named.device }
        return try DeviceKinds.device(named: reference, in: self)
    }

    /// The device of `candidate`: the one already kept under its uniqueID while connected, else
    /// a new one, kept (listed unless `namedOnly`).
    func keep(_ candidate: DeviceCandidate, namedOnly: Bool) -> CaptureDevice {
        known.withLock { known in
            if let existing = known[candidate.uniqueID]?.device, existing.isConnected { return existing }
            let entry = Entry(device: candidate.make(), sameDevice: candidate.sameDevice, precedence: candidate.precedence, isNamedOnly: namedOnly)
            known[candidate.uniqueID] = entry
            return entry.device
        }
    }

    /// The connected device with that uniqueID, listed or not.
    func device(uniqueID: String) -> CaptureDevice? {
        if let resolved = try? resolve(uniqueID), resolved.isConnected { return resolved }
        startMonitoringIfNeeded()
        return known.withLock { $0[uniqueID]?.device }.flatMap { $0.isConnected ? $0 : nil }
    }

    /// The device kept with physical key `key` at `precedence` (a V4L2 node's direct route),
    /// connected or not.
    func knownDevice(sharing key: PhysicalKey, precedence: Int) -> CaptureDevice? {
        known.withLock { known in
            known.values.first { $0.precedence == precedence && $0.sameDevice.contains(key) }?.device
        }
    }

    /// Whether the device monitors have started (a listing or a hot-plug watch has run).
    var isMonitoring: Bool { monitor.withLock { $0 != nil } }

    private func startMonitoringIfNeeded() {
        monitor.withLock { slot in
            guard slot == nil else { return }
            _ = startMonitors(into: &slot)
        }
    }

    /// Starts the monitors into `slot` (none running); returns the uniqueIDs they found.
    private func startMonitors(into slot: inout [(DeviceMonitor, BusWatch?)]?) -> Set<String> {
        // libcamera's provider logs every camera manager start at INFO on stderr; keep its
        // warnings and errors unless the user chose levels.
        setenv("LIBCAMERA_LOG_LEVELS", "*:WARN", 0)
        for kind in DeviceKinds.all { kind.prepareMonitoring() }
        var found: Set<String> = []
        slot = [(deviceClass: "Video/Source", showAll: true), ("Audio/Source", false)].map { kind in
            let deviceMonitor = DeviceMonitor(deviceClass: kind.deviceClass, showAll: kind.showAll)
            let kinds = DeviceKinds.monitoring(kind.deviceClass)
            for device in deviceMonitor.devices() {
                if let registered = register(device, kinds: kinds) { found.insert(registered.uniqueID) }
            }
            let watch = deviceMonitor.start { [weak self] message in
                self?.handle(message, kinds: kinds)
            }
            return (deviceMonitor, watch)
        }
        return found
    }

    /// Starts the device monitors again where they run, after what a kind connects through
    /// changed (the camera portal handed over a PipeWire connection). Devices reported again
    /// stay the same objects; connected ones no longer reported are disconnected, with
    /// `wasDisconnectedNotification`, and new ones are posted as connected.
    func restartMonitoring() {
        let (gone, added): ([CaptureDevice], [CaptureDevice]) = monitor.withLock { slot in
            guard slot != nil else { return ([], []) }
            // The old monitors stop before the new ones start: providers are shared, and one
            // already started would not start again with what changed.
            for (_, watch) in slot ?? [] { watch?.stop() }
            slot = nil
            let before = Set(known.withLock { $0.filter { !$0.value.isNamedOnly && $0.value.device.isConnected }.keys })
            let found = startMonitors(into: &slot)
            let gone = known.withLock { known in before.subtracting(found).compactMap { known[$0]?.device } }
            for device in gone { device.setConnected(false) }
            let added = known.withLock { known in found.subtracting(before).compactMap { known[$0]?.device } }
            return (gone, added)
        }
        for device in gone { CaptureDevice.post(CaptureDevice.wasDisconnectedNotification, for: device) }
        for device in added { CaptureDevice.post(CaptureDevice.wasConnectedNotification, for: device) }
    }

    private func handle(_ message: BusMessage, kinds: [any DeviceKind]) {
        switch message {
        case .deviceAdded(let found):
            if let device = register(found, kinds: kinds) {
                CaptureDevice.post(CaptureDevice.wasConnectedNotification, for: device)
            }
        case .deviceRemoved(let found):
            if let uniqueID = Self.describe(found, kinds: kinds)?.uniqueID, let device = unregister(uniqueID: uniqueID) {
                CaptureDevice.post(CaptureDevice.wasDisconnectedNotification, for: device)
            }
        default:
            break
        }
    }

    /// The first kind's description of a device a monitor reported.
    static func describe(_ found: MonitoredDevice, kinds: [any DeviceKind]) -> DeviceCandidate? {
        kinds.lazy.compactMap { $0.describe(found) }.first
    }

    /// Adds a device a monitor found; returns it when one of the kinds can open it.
    private func register(_ found: MonitoredDevice, kinds: [any DeviceKind]) -> CaptureDevice? {
        Self.describe(found, kinds: kinds).map { register($0) }
    }

    /// Adds a device one kind described. A device opened by path before monitoring started is
    /// the same object, listed from now on. A device that comes back after it was removed is a
    /// new object (seed 000: an instance never reconnects); the old one stays disconnected.
    func register(_ candidate: DeviceCandidate) -> CaptureDevice {
        let id = candidate.uniqueID
        if candidate.mediaType == .audio {
            systemDefaults.withLock { defaults in
                if candidate.isSystemDefault { defaults.insert(id) } else { defaults.remove(id) }
            }
        }
        defer { hardwareOrder.withLock { if !$0.contains(id) { $0.append(id) } } }
        if let existing = known.withLock({ $0[id]?.device }), existing.isConnected { return existing }
        let entry = Entry(device: candidate.make(), sameDevice: candidate.sameDevice, precedence: candidate.precedence)
        known.withLock { $0[id] = entry }
        return entry.device
    }

    /// Marks a removed device disconnected; returns it when it was known.
    func unregister(uniqueID: String) -> CaptureDevice? {
        guard let device = known.withLock({ $0[uniqueID]?.device }) else { return nil }
        device.setConnected(false)
        return device
    }
}
