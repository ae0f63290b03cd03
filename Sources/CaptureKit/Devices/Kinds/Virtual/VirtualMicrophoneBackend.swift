import GStreamerSwift

/// The virtual microphone: a live `audiotestsrc` whose buffers `VirtualMicrophoneSignal` fills.
struct VirtualMicrophoneBackend: DeviceBackend {
    let mediaType = MediaType.audio
    var route: String { "virtual" }
    var isBuiltIn: Bool { true }

    func sourceElements(prefix: String, device: CaptureDevice, format: CaptureDevice.Format) -> [PipelinePlan.Element] {
        AudioSource.virtualChain(prefix: prefix, device: device, format: format)
    }

    func prepare(_ bin: Bin, prefix: String, device: CaptureDevice, format: CaptureDevice.Format) throws(GStreamerError) -> VirtualCameraSensor? {
        if let audio = format.audioFormat ?? device.activeFormat.audioFormat {
            VirtualMicrophoneSignal.install(on: try bin.element(named: "\(prefix)_src").staticPad("src"), format: audio)
        }
        return nil
    }
}
