/// The built-in synthetic microphone: always present, the default where no hardware exists.
///
/// A live `audiotestsrc` sets the pace and stamps buffers with running time; a probe fills each
/// buffer with `VirtualMicrophoneSignal`, a tone whose pitch changes every second, computed
/// from the buffer's presentation time so tests can predict every sample.
enum VirtualMicrophone {
    static let uniqueID = "virtual:microphone"
    static let manufacturer = "CaptureKit"
    static let model = "Virtual Microphone"

    /// 48 kHz, mono and stereo, in S16LE and F32LE. Stereo carries the same signal on both
    /// channels. An `AudioDataOutput` converts to any other rate or layout.
    static let formats: [CaptureDevice.Format] = [1, 2].flatMap { channels in
        AudioSampleFormat.allCases.map { format in
            CaptureDevice.Format(audioFormat: AudioFormat(sampleRate: 48000, channelCount: channels, sampleFormat: format))
        }
    }

    /// A new virtual microphone, with state of its own (each context has one,
    /// `VirtualMicrophoneKind.makeContextDevices`); it starts in 48000 Hz stereo S16LE.
    static func make() -> CaptureDevice {
        CaptureDevice(uniqueID: uniqueID, modelID: "capturekit:virtual-microphone",
                                      localizedName: "CaptureKit Virtual Microphone", manufacturer: manufacturer,
                                      position: .unspecified, formats: formats,
                                      activeFormat: CaptureDevice.Format(audioFormat: AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le)),
                                      backend: VirtualMicrophoneBackend())
    }
}
