import Foundation
import Observation
import GStreamerSwift
import Synchronization

/// A camera, screen or microphone (AVCaptureDevice).
///
/// Every handle to the same `uniqueID` shares one state, so a configuration made through one
/// reference is seen through all (`==` holds between handles of one device; a camera plugged in again is a new device). Safe to use from any thread.
///
/// Observable (Swift Observation) like AVFoundation's key-value observed properties: mode,
/// value and format properties announce changes on the device callback queue, whichever handle
/// or thread made them; `values(of:)` gives them as an AsyncSequence.
public final class CaptureDevice: Sendable, Hashable, CustomStringConvertible, Observable {
    /// Stable across reconnects: the /dev/v4l/by-id path for V4L2 cameras, "virtual:back" and
    /// "virtual:front" for the virtual cameras, "screen:" and the X display for a screen
    /// ("screen::99").
    public let uniqueID: String
    /// The model: USB vendor:product, or driver and card name.
    public let modelID: String
    /// A name for people.
    public let localizedName: String
    /// The manufacturer, written as EXIF Make.
    public let manufacturer: String
    /// The formats the device offers.
    public let formats: [Format]
    /// Where it is mounted.
    public let position: Position
    /// What differs per kind of device: capabilities, source elements, what a running source needs.
    let backend: any DeviceBackend
    /// What the device can do, per control (its backend's table).
    var capabilities: DeviceCapabilities { backend.capabilities }
    let state: SharedState

    /// The mutable state every handle of one device shares.
    final class SharedState: Sendable {
        let value: Mutex<DeviceState>
        let configurationLock: DeviceConfigurationLock
        /// Observation of the device's properties, shared by every handle (see `observed`).
        let registrar = ObservationRegistrar()
        /// The handle observers are registered against, so that a change made through any handle
        /// reaches observers of every handle.
        let subject = Mutex(WeakSubject())
        /// Read on every frame by the subject-area monitor, so kept outside the state lock.
        let subjectAreaMonitoring = Atomic<Bool>(false)
        /// The sessions the device was added to (`CaptureDevice.sessions`).
        let sessions = Mutex<[CaptureSession.WeakSession]>([])
        /// The device's own queues, shared by its handles (a slow handler of one device never
        /// delays another's): completion handlers and change announcements, in order; the
        /// software loops' control writes; sessions told of a new pace.
        let callbacks: DispatchQueue
        let loopWrites: DispatchQueue
        let pacing: DispatchQueue
        init(_ state: DeviceState, uniqueID: String, processLocal: Bool) {
            value = Mutex(state)
            callbacks = DispatchQueue(label: "capturekit.device.callbacks.\(uniqueID)")
            loopWrites = DispatchQueue(label: "capturekit.device.loop-writes.\(uniqueID)")
            pacing = DispatchQueue(label: "capturekit.device.pacing.\(uniqueID)")
            configurationLock = DeviceConfigurationLock(uniqueID: uniqueID, acrossProcesses: !processLocal)
        }
        func withLock<R>(_ body: (inout DeviceState) -> R) -> R { value.withLock { body(&$0) } }
    }

    struct DeviceState {
        var activeFormat: Format
        var isConnected = true
        var activeFrameRate: Double?
        var maxFrameDuration: CaptureTime?
        var exposure = ExposureState()
        var focus = FocusState()
        var zoom = ZoomState()
        var torch = TorchState()
        var whiteBalance = WhiteBalanceState()
        var flash = FlashState()
        var lowLight = LowLightState()
        var hdr = VideoHDRState()
        /// The virtual scene's light level (1: lit for the metered exposure).
        var sceneLight = 1.0
        /// How many of the sensor's updates were the virtual scene's light, not a setting.
        var sceneChanges = 0
        /// Control values the source element starts with, by name, as the controller last wrote
        /// them (V4L2 controls for `extra-controls`, libcamera properties).
        var sourceControls: [String: String] = [:]
        /// The running source that control changes are handed to, while a session runs the device.
        var runningSource: (any RunningSourceControl)?
        /// V4L2 control changes whose completion handlers wait for the first frame carrying them.
        var pendingControlChanges: [(matcher: ControlChangeMatcher, handler: @Sendable (CaptureTime) -> Void)] = []
        /// The mean luma of the last frame metered (V4L2: the baseline a change is matched against).
        var lastMeteredLuma: Double?
        var sensor = SensorUpdates()
        /// A failure injected into a virtual camera.
        var virtualFault: VirtualCameraFault?
    }

    init(uniqueID: String, modelID: String, localizedName: String, manufacturer: String,
         position: Position, formats: [Format], activeFormat: Format, backend: any DeviceBackend) {
        self.uniqueID = uniqueID
        self.modelID = modelID
        self.localizedName = localizedName
        self.manufacturer = manufacturer
        self.position = position
        self.formats = formats
        self.backend = backend
        var initial = DeviceState(activeFormat: activeFormat)
        if let exposure = backend.initialExposure { initial.exposure = exposure }
        self.state = SharedState(initial, uniqueID: uniqueID, processLocal: backend.isProcessLocal)
        state.subject.withLock { $0.device = self }
    }

    /// Another handle to the same device and state.
    init(sharing device: CaptureDevice) {
        uniqueID = device.uniqueID
        modelID = device.modelID
        localizedName = device.localizedName
        manufacturer = device.manufacturer
        position = device.position
        formats = device.formats
        backend = device.backend
        state = device.state
    }

    /// Handles to the same device are equal; a camera plugged in again is a new device, unequal
    /// to its old instance though it has the same uniqueID.
    public static func == (lhs: CaptureDevice, rhs: CaptureDevice) -> Bool { lhs.state === rhs.state }
    public func hash(into hasher: inout Hasher) { hasher.combine(uniqueID) }

    /// Reads the shared state without announcing anything: for getters and per-frame reads.
    func readState<R>(_ body: (DeviceState) -> R) -> R { state.value.withLock { body($0) } }

    /// Reads or changes the shared state. Observable properties that changed are announced to
    /// observers on the device callback queue, never on the changing thread (which may be a
    /// GStreamer streaming thread: the sensor meters exposure and white balance, ramps zoom).
    func withState<R>(_ body: (inout DeviceState) -> R) -> R {
        let (result, before, after) = state.withLock { state in
            let before = ObservedValues(state)
            let result = body(&state)
            return (result, before, ObservedValues(state))
        }
        if before != after { callbacks.async { self.announceChanges(from: before, to: after) } }
        return result
    }

    /// The configuration lock every handle of the device shares.
    var configurationLock: DeviceConfigurationLock { state.configurationLock }

    /// Whether the device is present.
    public var isConnected: Bool {
        observed(\.isConnected)
        return state.withLock { $0.isConnected }
    }

    func setConnected(_ connected: Bool) { withState { $0.isConnected = connected } }

    /// The format in use. The session preset chooses it unless the preset is `inputPriority`.
    public var activeFormat: Format {
        get {
            observed(\.activeFormat)
            return state.withLock { $0.activeFormat }
        }
        set { reportingFailure(of: "activeFormat", newValue) { () throws(CaptureError) in try setActiveFormat(newValue) } }
    }

    /// Chooses the active format; it must be one of `formats`, and the device must be locked
    /// for configuration. Sessions using the device switch their preset to `inputPriority` and,
    /// when running, restart their pipeline with the format's caps.
    public func setActiveFormat(_ format: Format) throws(CaptureError) {
        try requireConfigurationLock()
        guard formats.contains(format) else {
            throw .unsupportedFormat(format.description, available: formats.map(\.description))
        }
        // Seed 000: while automaticallyAdjustsVideoHDREnabled (the default), setting a format
        // turns video HDR off.
        if automaticallyAdjustsVideoHDREnabled && isVideoHDREnabled {
            try applyControl(.videoHDR(false))
            setHDR(false)
        }
        applyActiveFormat(format)
        CaptureSession.deviceFormatChosen(self, formatChanged: true)
    }

    /// Sets the active format without the lock: the session applying its preset. The frame rate
    /// chosen stays when the new format supports it.
    func applyActiveFormat(_ format: Format) {
        withState {
            let rate = $0.activeFrameRate
            $0.activeFormat = format
            $0.activeFrameRate = rate.flatMap { format.supportsFrameRate($0) ? $0 : nil }
            if let limit = $0.maxFrameDuration, !format.supportsFrameRate(1 / limit.seconds) { $0.maxFrameDuration = nil }
        }
    }

    /// Returns every control to a new device's setting, keeping the format, connection and
    /// running elements (tests start from a known state).
    func restoreDefaultControls() {
        withState { state in
            var fresh = DeviceState(activeFormat: state.activeFormat)
            if let exposure = backend.initialExposure { fresh.exposure = exposure }
            fresh.isConnected = state.isConnected
            fresh.activeFrameRate = state.activeFrameRate
            fresh.runningSource = state.runningSource
            fresh.sourceControls = state.sourceControls
            fresh.focus.searchRequest = state.focus.searchRequest
            fresh.sensor = state.sensor
            fresh.sensor.changed(notifying: nil)
            state = fresh
        }
    }

    /// The frame rate the source runs at: 1 / `activeVideoMinFrameDuration`.
    var activeFrameRate: Double {
        state.withLock { $0.activeFrameRate ?? $0.activeFormat.defaultFrameRate }
    }

    /// How CaptureKit reaches the device: "v4l2" (its node, directly, with every control),
    /// "virtual" (CaptureKit's own), "x11" (a screen), or the sound server for a microphone
    /// ("pulse", "pipewire", "alsa"). One camera reachable several ways is listed once, by the
    /// route that `devices()` prefers; `capture devices --json` prints it.
    public var route: String { backend.route }

    /// The media types the device produces: video for cameras and screens, audio for microphones.
    public var mediaTypes: Set<MediaType> { [backend.mediaType] }

    /// Whether the device produces `mediaType`.
    public func hasMediaType(_ mediaType: MediaType) -> Bool { mediaTypes.contains(mediaType) }

    /// Whether the device has a format for `preset`. Microphones support every preset: presets
    /// choose video formats, and leave a microphone's `activeFormat` alone.
    public func supportsSessionPreset(_ preset: SessionPreset) -> Bool {
        !hasMediaType(.video) || preset.bestFormat(among: formats) != nil
    }

    public var description: String { "\(localizedName) [\(uniqueID)]" }
}
