import Foundation
import GStreamerSwift
import Synchronization

extension CaptureDevice {
    /// Posted when a device appears; the notification's object is the device. Posted on the
    /// device's own serial queue, never on a GStreamer thread.
    public static let wasConnectedNotification = Notification.Name("CaptureDeviceWasConnected")
    /// Posted when a device disappears; the notification's object is the device. Posted on the
    /// device's own serial queue, never on a GStreamer thread.
    public static let wasDisconnectedNotification = Notification.Name("CaptureDeviceWasDisconnected")

    /// Posts a hot-plug notification for `device` from the device's own queue, in order with
    /// its other announcements.
    static func post(_ name: Notification.Name, for device: CaptureDevice) {
        device.callbacks.async { NotificationCenter.default.post(name: name, object: device) }
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
        CaptureContext.shared.devices()
    }

    /// Whether another process is using the device now (a V4L2 camera whose node another process
    /// has open); false for the virtual devices and where it cannot be known. Read on each access.
    public var isInUseByAnotherApplication: Bool { backend.isInUseByAnotherProcess }

    /// Whether `devices()` lists the virtual cameras beside hardware ones; false by default, true
    /// when the environment sets `CAPTUREKIT_VIRTUAL_DEVICES=1` (tests and demos ask this way).
    public static var listsVirtualDevices: Bool {
        get { CaptureContext.shared.listsVirtualDevices }
        set { CaptureContext.shared.listsVirtualDevices = newValue }
    }

    /// The devices that produce `mediaType`.
    public static func devices(for mediaType: MediaType) -> [CaptureDevice] {
        CaptureContext.shared.devices(for: mediaType)
    }

    /// The default device for `mediaType`: for video the first hardware camera, or the virtual
    /// back camera where none is connected (never a screen); for audio the first hardware microphone (the sound
    /// server's default source where it says which), or the virtual microphone. Nil for media
    /// types no device produces.
    public static func `default`(for mediaType: MediaType) -> CaptureDevice? {
        CaptureContext.shared.default(for: mediaType)
    }

    /// The device with that uniqueID, if present (the virtual cameras always are; a screen's,
    /// `screen:<display>`, when that X display answers, whether or not `$DISPLAY` names it). A
    /// camera unplugged and plugged in again is a new device: its old instance stays disconnected.
    public convenience init?(uniqueID: String) {
        self.init(uniqueID: uniqueID, context: .shared)
    }

    /// The device of `context` with that uniqueID, if present: another handle to the device
    /// `context.device(uniqueID:)` returns, equal to it and sharing its state.
    public convenience init?(uniqueID: String, context: CaptureContext) {
        guard let device = context.device(uniqueID: uniqueID) else { return nil }
        self.init(sharing: device)
    }

    /// A device by uniqueID, localized name, index in `devices()`, "virtual" / "virtual-front",
    /// "screen" (the screen of `$DISPLAY`), "default" (`default(for: .video)`, else the virtual
    /// back camera), the path of its V4L2 node (or a link to it), or `file:PATH`: a video, an
    /// image or a numbered image sequence played as a camera (`init(fileURL:)`). A path opens
    /// that node alone, without discovering other devices.
    public static func find(_ reference: String) throws(CaptureError) -> CaptureDevice {
        try CaptureContext.shared.find(reference)
    }
}
