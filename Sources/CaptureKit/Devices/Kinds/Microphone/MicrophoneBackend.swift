/// A microphone found by GstDeviceMonitor: the element its GstDevice makes (pulsesrc,
/// alsasrc, pipewiresrc) with the properties the device set on it, in `Element.set`'s text.
struct MicrophoneBackend: DeviceBackend {
    let factory: String
    let properties: [String: String]
    let mediaType = MediaType.audio
    var deviceType: CaptureDevice.DeviceType { .microphone }
    /// The sound server or API: "pulse", "alsa", "pipewire".
    var route: String { MicrophoneDescription.api(of: factory) }

    /// The element as `prefix_src` with the device's properties ! `audioconvert` `prefix_convert`
    /// ! `audioresample` `prefix_resample` (so a format the device offers only through its
    /// server's conversion still arrives exactly; both pass through when the device sends the
    /// format) ! `capsfilter` `prefix_caps`. PulseAudio and ALSA sources get
    /// `provide-clock=false`: the pipeline keeps the system clock, so a microphone added or
    /// removed while running never takes the pipeline's clock with it.
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        guard let audio = format.audioFormat ?? device.activeFormat.audioFormat else { return [] }
        var settings = properties.sorted { $0.key < $1.key }.map { PipelinePlan.Property($0.key, .serialized($0.value)) }
        if ["pulsesrc", "alsasrc"].contains(factory) && properties["provide-clock"] == nil {
            settings.append(.init("provide-clock", false))
        }
        return [
            .init(factory, .src, in: prefix, settings),
            .init("audioconvert", .convert, in: prefix),
            .init("audioresample", .resample, in: prefix),
            .init("capsfilter", .caps, in: prefix, [.init("caps", .caps(audio.caps))]),
        ]
    }
}
