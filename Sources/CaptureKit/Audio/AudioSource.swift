/// The source part of a microphone's pipeline, as plan elements: what makes its samples, up to
/// and including the caps filter that pins the device's format. The caller adds the tee.
enum AudioSource {
    /// How long each of the virtual microphone's buffers lasts: 10 ms (`samplesperbuffer` is a
    /// hundredth of the rate).
    static let virtualBuffersPerSecond = 100

    /// The source elements for `device` delivering `format`, named `prefix_…`:
    ///
    /// - the virtual microphone: `audiotestsrc` `prefix_src` (live, silence, 10 ms buffers;
    ///   `VirtualMicrophoneSignal.install(on:format:)` must go on its src pad) ! `capsfilter`
    ///   `prefix_caps`;
    /// - a hardware microphone: the element its GstDevice makes (`pulsesrc`, `alsasrc`,
    ///   `pipewiresrc`) with the device's properties as `prefix_src`, ! `audioconvert`
    ///   `prefix_convert` ! `audioresample` `prefix_resample` (so a format the device offers only
    ///   through its server's conversion still arrives exactly; both pass through when the
    ///   device sends the format) ! `capsfilter` `prefix_caps`. PulseAudio and ALSA sources get
    ///   `provide-clock=false`: the pipeline keeps the system clock, so a microphone added or
    ///   removed while running never takes the pipeline's clock with it.
    ///
    /// Devices without audio (cameras) have no audio source: the chain is empty. A format that is
    /// not an audio format is replaced by the device's active format.
    static func sourceChain(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        guard device.backend.mediaType == .audio else { return [] }
        return device.backend.sourceElements(prefix: prefix, device: device, format: format)
    }

    /// The virtual microphone's chain (`VirtualMicrophoneBackend`).
    static func virtualChain(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        guard let audio = format.audioFormat ?? device.activeFormat.audioFormat else { return [] }
        return [
            .init("audiotestsrc", name: "\(prefix)_src", [
                .init("is-live", "true"), .init("wave", "silence"),
                .init("samplesperbuffer", String(max(1, audio.sampleRate / virtualBuffersPerSecond))),
            ]),
            .init("capsfilter", name: "\(prefix)_caps", [.init("caps", audio.caps)]),
        ]
    }

    /// A monitored microphone's chain (`MicrophoneBackend`).
    static func microphoneChain(prefix: String, factory: String, properties: [String: String],
                                device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        guard let audio = format.audioFormat ?? device.activeFormat.audioFormat else { return [] }
        var settings = properties.sorted { $0.key < $1.key }.map { PipelinePlan.Property($0.key, $0.value) }
        if ["pulsesrc", "alsasrc"].contains(factory) && properties["provide-clock"] == nil {
            settings.append(.init("provide-clock", "false"))
        }
        return [
            .init(factory, name: "\(prefix)_src", settings),
            .init("audioconvert", name: "\(prefix)_convert"),
            .init("audioresample", name: "\(prefix)_resample"),
            .init("capsfilter", name: "\(prefix)_caps", [.init("caps", audio.caps)]),
        ]
    }
}
