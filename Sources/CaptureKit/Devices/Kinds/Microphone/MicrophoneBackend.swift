/// A microphone found by GstDeviceMonitor: the element its GstDevice makes (pulsesrc,
/// alsasrc, pipewiresrc) with the properties the device set on it, in `Element.set`'s text.
struct MicrophoneBackend: DeviceBackend {
    let factory: String
    let properties: [String: String]
    let mediaType = MediaType.audio
    /// The sound server or API: "pulse", "alsa", "pipewire".
    var route: String { MicrophoneDescription.api(of: factory) }

    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        AudioSource.microphoneChain(prefix: prefix, factory: factory, properties: properties, device: device, format: format)
    }
}
