import GStreamerSwift

/// Microphones GstDeviceMonitor reports (PulseAudio, PipeWire, ALSA sources). The sound server
/// hides ALSA's devices when it serves them, which is the dedupe wanted here, so its monitor
/// does not show hidden providers.
struct MicrophoneKind: DeviceKind {
    let monitoredClass: String? = "Audio/Source"

    func describe(_ found: MonitoredDevice) -> DeviceCandidate? {
        MicrophoneDescription(found)?.candidate
    }
}

extension MicrophoneDescription {
    /// The microphone as the registry keeps it.
    var candidate: DeviceCandidate {
        DeviceCandidate(uniqueID: uniqueID, mediaType: .audio, sameDevice: [], precedence: DevicePrecedence.only,
                        isSystemDefault: isSystemDefault, make: makeDevice)
    }
}
