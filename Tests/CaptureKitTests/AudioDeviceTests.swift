import Foundation
import GStreamerSwift
import Testing
@_spi(Plan) @testable import CaptureKit

/// Microphones: the virtual one, and hardware ones as GstDeviceMonitor describes them (none
/// exist on the test machines, so their descriptions are made by hand from what PulseAudio,
/// ALSA and PipeWire devices report).
@Suite("Audio devices", .ownDevices, .serialized)
struct AudioDeviceTests {
    /// A USB microphone as GStreamer's PulseAudio provider describes it.
    static func pulseMicrophone(name: String = "alsa_input.usb-Blue_Microphones_Yeti_Stereo_Microphone_REV8-00.analog-stereo",
                                deviceClass: String = "sound", isDefault: Bool = false) throws -> MicrophoneDescription? {
        let caps = try CapsStructure.parse(caps: "audio/x-raw, format=(string){ S16LE, F32LE, S24LE }, layout=(string)interleaved, rate=(int)[ 1, 384000 ], channels=(int)[ 1, 32 ]")
        return MicrophoneDescription(
            displayName: "Yeti Stereo Microphone Analog Stereo", deviceClass: "Audio/Source",
            properties: ["device.api": .string("alsa"), "device.class": .string(deviceClass), "device.vendor.id": .string("b58e"),
                         "device.product.id": .string("9e84"), "device.vendor.name": .string("Blue Microphones"),
                         "device.product.name": .string("Yeti Stereo Microphone"), "is-default": .bool(isDefault)],
            caps: caps, elementFactory: "pulsesrc", elementProperties: ["device": name])
    }

    @Test("devices(for: .audio) lists the virtual microphone, last, with its formats; it is no camera")
    func virtualMicrophoneListed() throws {
        let microphones = CaptureDevice.devices(for: .audio)
        let mic = try #require(microphones.last)
        #expect(mic.uniqueID == "virtual:microphone" && mic.localizedName == "CaptureKit Virtual Microphone")
        #expect(mic.hasMediaType(.audio) && !mic.hasMediaType(.video) && mic.mediaTypes == [.audio])
        #expect(mic.position == .unspecified && mic.manufacturer == "CaptureKit" && mic.isConnected)
        #expect(mic.formats.map(\.description) == ["48000 Hz 1 ch s16le", "48000 Hz 1 ch f32le", "48000 Hz 2 ch s16le", "48000 Hz 2 ch f32le"])
        #expect(mic.formats.allSatisfy { $0.mediaType == .audio && $0.width == 0 && $0.videoSupportedFrameRateRanges.isEmpty })
        #expect(mic.activeFormat.audioFormat == AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le))
        #expect(microphones.allSatisfy { $0.mediaTypes == [.audio] })
        #expect(!CaptureDevice.devices(for: .video).contains { $0.hasMediaType(.audio) })
        #expect(CaptureDevice.devices().suffix(microphones.count) == microphones[...], "microphones follow the cameras")
        #expect(CaptureDevice(uniqueID: "virtual:microphone") == mic)
        #expect(try CaptureDevice.find("virtual:microphone") == mic)
        let hardware = microphones.filter { !($0.backend is VirtualMicrophoneBackend) }
        #expect(CaptureDevice.default(for: .audio) == (hardware.first ?? mic), "a hardware microphone, else the virtual one")
        #expect(CaptureDevice.default(for: .video)?.hasMediaType(.video) == true)
        // Every preset suits a microphone (presets choose video formats); its input has one audio port.
        #expect(SessionPreset.allCases.allSatisfy(mic.supportsSessionPreset))
        let input = try CaptureDeviceInput(device: mic)
        #expect(input.ports.map(\.mediaType) == [.audio])
    }

    @Test("a PulseAudio microphone's properties and caps give its identity and formats; monitors and other classes are not microphones")
    func pulseDescription() throws {
        let mic = try #require(try Self.pulseMicrophone())
        #expect(mic.uniqueID == "pulse:alsa_input.usb-Blue_Microphones_Yeti_Stereo_Microphone_REV8-00.analog-stereo")
        #expect(mic.modelID == "b58e:9e84" && mic.manufacturer == "Blue Microphones" && mic.name == "Yeti Stereo Microphone Analog Stereo")
        #expect(mic.factory == "pulsesrc" && !mic.isSystemDefault)
        #expect(try Self.pulseMicrophone(isDefault: true)?.isSystemDefault == true)
        // Ranges offer the common rates and mono/stereo; S24LE is not offered.
        #expect(mic.formats.map(\.description) == [16000, 44100, 48000].flatMap { rate in
            [1, 2].flatMap { channels in ["s16le", "f32le"].map { "\(rate) Hz \(channels) ch \($0)" } }
        })
        let device = mic.makeDevice()
        #expect(device.activeFormat.description == "48000 Hz 2 ch s16le")
        let backend = try #require(device.backend as? MicrophoneBackend)
        #expect(backend.factory == "pulsesrc")
        #expect(backend.properties == ["device": "alsa_input.usb-Blue_Microphones_Yeti_Stereo_Microphone_REV8-00.analog-stereo"])
        #expect(device.mediaTypes == [.audio] && device.position == .unspecified)

        #expect(try Self.pulseMicrophone(deviceClass: "monitor") == nil, "a monitor of an output is not a microphone")
        let caps = try CapsStructure.parse(caps: "audio/x-raw, format=(string)S16LE, rate=(int)48000, channels=(int)2")
        #expect(MicrophoneDescription(displayName: "Speakers", deviceClass: "Audio/Sink", properties: [:], caps: caps,
                                      elementFactory: "pulsesink", elementProperties: [:]) == nil)
        #expect(MicrophoneDescription(displayName: "Mic", deviceClass: "Audio/Source", properties: [:], caps: caps,
                                      elementFactory: nil, elementProperties: [:]) == nil, "no element to open it with")
        let encoded = try CapsStructure.parse(caps: "audio/x-ac3, rate=(int)48000")
        #expect(MicrophoneDescription(displayName: "Mic", deviceClass: "Audio/Source", properties: [:], caps: encoded,
                                      elementFactory: "pulsesrc", elementProperties: [:]) == nil, "no raw audio")
    }

    @Test("ALSA and PipeWire microphones: identity from the device name (unquoted) or node name; fixed and listed caps")
    func alsaAndPipeWireDescriptions() throws {
        let alsaCaps = try CapsStructure.parse(caps: "audio/x-raw, format=(string)S32LE, layout=(string)interleaved, rate=(int){ 44100, 48000 }, channels=(int)1")
        let alsa = try #require(MicrophoneDescription(
            displayName: "USB Audio", deviceClass: "Audio/Source", properties: ["alsa.card_name": .string("USB PnP Sound Device")],
            caps: alsaCaps, elementFactory: "alsasrc", elementProperties: ["device": "\"hw:CARD\\=Device,DEV\\=0\""]))
        #expect(alsa.uniqueID == "alsa:hw:CARD=Device,DEV=0")
        #expect(alsa.modelID == "USB PnP Sound Device" && alsa.manufacturer == "Unknown")
        #expect(alsa.formats.map(\.description) == ["44100 Hz 1 ch s16le", "48000 Hz 1 ch s16le"],
                "S32LE only: offered as S16LE, converted in the source chain")

        let pipeWireCaps = try CapsStructure.parse(caps: "audio/x-raw, format=(string)F32LE, rate=(int)48000, channels=(int)2; audio/x-raw, format=(string)F32LE, rate=(int)48000, channels=(int)2")
        let pipeWire = try #require(MicrophoneDescription(
            displayName: "Built-in Audio Analog Stereo", deviceClass: "Audio/Source",
            properties: ["node.name": .string("alsa_input.pci-0000_00_1f.3.analog-stereo"), "object.serial": .int(57)],
            caps: pipeWireCaps, elementFactory: "pipewiresrc", elementProperties: ["target-object": "57"]))
        #expect(pipeWire.uniqueID == "pipewire:alsa_input.pci-0000_00_1f.3.analog-stereo", "node.name is stable; the serial is not")
        #expect(pipeWire.formats.map(\.description) == ["48000 Hz 2 ch f32le"], "duplicates are listed once")
        #expect(MicrophoneDescription.preferredFormat(among: alsa.formats)?.description == "48000 Hz 1 ch s16le")
    }

    @Test("the registry lists hardware microphones before the virtual one and makes them the default; unplugged, the virtual one again")
    func registry() throws {
        let registry = DeviceRegistry()
        let description = try #require(try Self.pulseMicrophone())
        let mic = registry.register(description.candidate)
        #expect(registry.microphones().map(\.uniqueID).suffix(2) == [description.uniqueID, "virtual:microphone"])
        #expect(registry.defaultDevice(for: .audio) == mic)
        #expect(!registry.cameras().contains(mic) && registry.devices() == registry.cameras() + registry.microphones())
        #expect(registry.device(uniqueID: description.uniqueID) == mic && registry.device(uniqueID: "virtual:microphone")?.uniqueID == "virtual:microphone"
                && registry.device(uniqueID: "virtual:microphone") != CaptureDevice.virtualMicrophone, "its own virtual microphone, not another context's")
        #expect(registry.register(description.candidate) === mic, "still connected: the same object")
        let builtIn = try #require(try Self.pulseMicrophone(name: "alsa_input.pci-0000_00_1f.3.analog-stereo", isDefault: true))
        let systemDefault = registry.register(builtIn.candidate)
        #expect(registry.microphones().map(\.uniqueID).suffix(3) == [builtIn.uniqueID, description.uniqueID, "virtual:microphone"],
                "the sound server's default source first, though found later")
        #expect(registry.defaultDevice(for: .audio) == systemDefault)
        _ = registry.unregister(uniqueID: builtIn.uniqueID)
        #expect(registry.defaultDevice(for: .audio) == mic)
        #expect(registry.unregister(uniqueID: description.uniqueID) === mic && !mic.isConnected)
        #expect(!registry.microphones().contains(mic))
        #expect(registry.defaultDevice(for: .audio) == registry.microphones().first)
        let again = registry.register(description.candidate)
        #expect(again !== mic && again.isConnected, "plugged in again: a new device")
    }

    @Test("source chains: the virtual microphone's audiotestsrc, a hardware microphone's own element with its properties; none for a camera")
    func sourceChains() throws {
        let virtual = CaptureDevice.virtualMicrophone
        let mono = try #require(virtual.formats.first { $0.description == "48000 Hz 1 ch f32le" })
        #expect(AudioSource.sourceChain(prefix: "input1", device: virtual, format: mono) == [
            .init("audiotestsrc", name: "input1_src", [.init("is-live", true), .init("wave", .nick("silence")), .init("samplesperbuffer", 480)]),
            .init("capsfilter", name: "input1_caps", [.init("caps", .caps("audio/x-raw,format=F32LE,layout=interleaved,rate=48000,channels=1"))]),
        ])
        let pulse = try #require(try Self.pulseMicrophone()).makeDevice()
        #expect(AudioSource.sourceChain(prefix: "input2", device: pulse, format: pulse.activeFormat) == [
            .init("pulsesrc", name: "input2_src", [.init("device", .serialized("alsa_input.usb-Blue_Microphones_Yeti_Stereo_Microphone_REV8-00.analog-stereo")),
                                                   .init("provide-clock", false)]),
            .init("audioconvert", name: "input2_convert"),
            .init("audioresample", name: "input2_resample"),
            .init("capsfilter", name: "input2_caps", [.init("caps", .caps("audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2"))]),
        ])
        #expect(AudioSource.sourceChain(prefix: "input0", device: CaptureDevice.find(virtual: .back), format: VirtualCamera.formats[0]).isEmpty)
        // A chain that GStreamer builds: pulsesrc exists here (no server to open, so not played).
        if GStreamer.hasElement("pulsesrc") {
            _ = try PlanPipeline(AudioSource.sourceChain(prefix: "input2", device: pulse, format: pulse.activeFormat))
        }
        let branch = AudioDataOutput().audioBranch(prefix: "output3")
        #expect(branch.map(\.name) == ["output3_queue", "output3_convert", "output3_resample", "output3_format", "output3_sink"])
        #expect(branch.last?.properties.contains(.init("max-buffers", 16)) == true)
        _ = try PlanPipeline(AudioSource.sourceChain(prefix: "input1", device: virtual, format: mono) + branch)
    }

    @Test("a session with a camera and the virtual microphone compiles the microphone's source and still runs its video output")
    func sessionWithMicrophone() async throws {
        let output = VideoDataOutput()
        let test = try TestSession(outputs: [output])
        let mic = try CaptureDeviceInput(device: CaptureDevice.virtualMicrophone)
        try test.session.checked.addInput(mic)
        #expect(test.session.connections.count == 1 && test.session.connections[0].inputPorts.allSatisfy { $0.mediaType == .video },
                "a microphone does not connect to a video output")
        #expect(test.session.pipelineDescription.contains(
            "audiotestsrc name=input1_src is-live=true wave=silence samplesperbuffer=480 ! capsfilter name=input1_caps"))
        let stream = output.sampleBuffers()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var iterator = stream.makeAsyncIterator()
        let frame = try #require(await iterator.next())
        #expect(frame.formatDescription.mediaType == .video && frame.numSamples == 1)
    }
}
