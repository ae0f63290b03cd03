import GStreamerSwift

/// The virtual microphone: a live `audiotestsrc` whose buffers `VirtualMicrophoneSignal` fills.
struct VirtualMicrophoneBackend: DeviceBackend {
    let mediaType = MediaType.audio
    var deviceType: CaptureDevice.DeviceType { .microphone }
    var route: String { "virtual" }
    var isBuiltIn: Bool { true }
    var isProcessLocal: Bool { true }

    /// How long each buffer lasts: 10 ms (`samplesperbuffer` is a hundredth of the rate).
    static let buffersPerSecond = 100

    /// `audiotestsrc` `prefix_src` (live, silence, 10 ms buffers; `prepare` installs
    /// `VirtualMicrophoneSignal` on its src pad) ! `capsfilter` `prefix_caps`.
    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        guard let audio = format.audioFormat ?? device.activeFormat.audioFormat else { return [] }
        return [
            .init("audiotestsrc", .src, in: prefix, [
                .init("is-live", true), .init("wave", .nick("silence")),
                .init("samplesperbuffer", .int(max(1, audio.sampleRate / Self.buffersPerSecond))),
            ]),
            .init("capsfilter", .caps, in: prefix, [.init("caps", .caps(audio.caps))]),
        ]
    }

    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> (any FramePainter)? {
        if let audio = format.audioFormat ?? device.activeFormat.audioFormat {
            VirtualMicrophoneSignal.install(on: try bin.element(.src, in: prefix).staticPad("src"), format: audio)
        }
        return nil
    }
}
