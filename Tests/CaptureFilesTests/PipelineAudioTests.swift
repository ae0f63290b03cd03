@testable import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Microphone inputs and `audioData` outputs in pipeline files, once devices are involved: how
/// inputs resolve to microphones and formats, how outputs find their audio or video input, and
/// what runs write.
///
/// Serialized: the virtual microphone is a process-wide device whose active format files set;
/// each test that sets it puts back its default (48000 Hz stereo S16LE).
@Suite("Pipeline files with audio", .serialized)
struct PipelineAudioTests {
    static func at(_ file: String, _ line: Int, _ column: Int) -> PipelineFile.SourceLocation {
        PipelineFile.SourceLocation(file: file, line: line, column: column)
    }

    /// The microphones as a device-not-found error lists them: `INDEX: UNIQUEID` in `devices()`.
    static var microphoneList: [String] {
        CaptureDevice.devices().enumerated().filter { $0.element.hasMediaType(.audio) }.map { "\($0.offset): \($0.element.uniqueID)" }
    }

    // MARK: - Resolving microphones and formats

    @Test("virtual-mic is the virtual microphone, and an audioData output connects to its audio port")
    func virtualMicrophone() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual-mic
            outputs:
              - audioData:
            run:
              seconds: 1
            """
        let built = try PipelineFile.parse(yaml, fileName: "mic.yaml").makeSession(context: CaptureContext())
        #expect(built.inputs.map(\.device.uniqueID) == ["virtual:microphone"])
        let output = try #require(built.outputs.first as? AudioDataOutput)
        #expect(output.audioSettings == nil)
        #expect(output.connections.first?.inputPorts.map(\.description) == ["virtual:microphone/audio"])
        #expect(built.session.pipelineDescription.hasPrefix("audiotestsrc name=input0_src is-live=true"), "\(built.session.pipelineDescription)")
    }

    @Test("an audio format picks the device format with every part given, preferring the active one (each file on a new context's microphone)")
    func audioFormatSelection() throws {
        for (written, expected) in [
            ("48000Hz mono", AudioFormat(sampleRate: 48000, channelCount: 1, sampleFormat: .s16le)),
            ("f32le", AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .f32le)),
            ("48kHz stereo s16le", AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le)),
        ] {
            let yaml = """
                version: 1
                preset: vga640x480
                inputs:
                  - { name: mic, device: virtual-mic, format: \(written) }
                outputs:
                  - audioData: { name: sound }
                run:
                  seconds: 1
                """
            let built = try PipelineFile.parse(yaml, fileName: "mic.yaml").makeSession(context: CaptureContext())
            #expect(built.input(named: "mic")?.device.activeFormat.audioFormat == expected, "\(written)")
            let caps = "caps=audio/x-raw,format=\(expected.sampleFormat.rawValue.uppercased()),layout=interleaved,"
                + "rate=\(expected.sampleRate),channels=\(expected.channelCount)"
            #expect(built.session.pipelineDescription.contains(caps), "\(built.session.pipelineDescription)")
            #expect(built.session.sessionPreset == .vga640x480, "an audio format leaves the preset alone")
        }
    }

    @Test("an audio format the microphone does not offer is reported at the format, listing its formats in file syntax")
    func unofferedAudioFormat() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual-mic
                format: 44100Hz mono
            outputs:
              - audioData:
            run:
              seconds: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "rate.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == Self.at("rate.yaml", 4, 13))
        let available = ["48000Hz mono s16le", "48000Hz mono f32le", "48000Hz stereo s16le", "48000Hz stereo f32le"]
        #expect(error.kind == .capture(.unsupportedFormat("44100Hz mono", available: available)))
        #expect(error.description == "rate.yaml:4:13: format '44100Hz mono' is not offered; available: " + available.joined(separator: ", "))
    }

    @Test("an audio format on a camera named by unique ID is reported at the format, listing the camera's formats")
    func audioFormatOnCamera() throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual:back
                format: 48000Hz
            outputs:
              - audioData:
            run:
              seconds: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "camera.yaml")
        let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
        #expect(error.location == Self.at("camera.yaml", 4, 13))
        guard case .capture(let captureError) = error.kind, captureError.code == .unsupportedFormat else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(captureError.value == "48000Hz")
        #expect(captureError.validValues.contains { $0.hasPrefix("640x480 bgra") }, "\(captureError.validValues)")
    }

    @Test("a microphone no device matches is reported at its value, listing the microphones")
    func missingMicrophone() throws {
        // Known to be a microphone by its audio format, or by the audioData output naming it.
        for (input, output) in [
            ("{ name: usb, device: \"No Such Mic\", format: 48000Hz }", "audioData: {}"),
            ("{ name: usb, device: \"No Such Mic\" }", "audioData: { connection: { input: usb } }"),
        ] {
            let yaml = """
                version: 1
                inputs:
                  - \(input)
                outputs:
                  - \(output)
                run:
                  seconds: 1
                """
            let file = try PipelineFile.parse(yaml, fileName: "mic.yaml")
            let error = try #require(throws: PipelineFileError.self) { try file.makeSession(context: CaptureContext()) }
            #expect(error.location == Self.at("mic.yaml", 3, 26))
            #expect(error.kind == .capture(.deviceNotFound("No Such Mic", available: Self.microphoneList)))
            #expect(Self.microphoneList.contains { $0.hasSuffix(": virtual:microphone") })
            #expect(!Self.microphoneList.contains { $0.hasSuffix(": virtual:back") })
            #expect(error.description.hasPrefix("mic.yaml:3:26: no device 'No Such Mic'; available: "), "\(error)")
            #expect(error.description.hasSuffix(": virtual:microphone"), "\(error)")
        }
    }

    // MARK: - Connections by media type

    @Test("without a named input, each output takes the first input whose device has its media type")
    func connectionsByMediaType() throws {
        // Identifiers: the file does not show which is the camera; the devices do.
        let yaml = """
            version: 1
            inputs:
              - { name: mic, device: virtual:microphone }
              - { name: camera, device: virtual:back }
            outputs:
              - videoData: { name: frames }
              - audioData: { name: sound }
              - still: { name: photo }
            run:
              seconds: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "media.yaml")
        #expect(file.outputs.allSatisfy { !$0.connection.namesInput })
        let built = try file.makeSession(context: CaptureContext())
        #expect(built.output(named: "frames")?.connections.first?.inputPorts.map(\.description) == ["virtual:back/video"])
        #expect(built.output(named: "photo")?.connections.first?.inputPorts.map(\.description) == ["virtual:back/video"])
        #expect(built.output(named: "sound")?.connections.first?.inputPorts.map(\.description) == ["virtual:microphone/audio"])
        let line = built.session.pipelineDescription
        #expect(line.contains("tee name=input0_tee allow-not-linked=true ! queue name=output1_queue leaky=downstream"), "\(line)")
    }

    @Test("a still named to a microphone, or an audioData output with only a camera, fails at the connection with a suggestion")
    func wrongMediaAfterResolution() throws {
        let named = """
            version: 1
            inputs:
              - { name: camera, device: virtual:back }
              - { name: mic, device: "CaptureKit Virtual Microphone" }
            outputs:
              - still:
                  name: snap
                  connection: { input: mic }
            run:
              frames: 1
            """
        let error = try #require(throws: PipelineFileError.self) { try PipelineFile.parse(named, fileName: "still.yaml").makeSession(context: CaptureContext()) }
        #expect(error.location == Self.at("still.yaml", 8, 19))
        #expect(error.kind == .wrongMediaInput(kind: "still", output: "snap", needs: .video, input: "mic", suggestion: "camera"))
        #expect(error.description == "still.yaml:8:19: still output 'snap' needs a video input, but input 'mic' is a microphone; "
            + "connect it to 'camera' with 'connection: { input: camera }'")

        let cameraOnly = """
            version: 1
            inputs:
              - device: virtual:back
            outputs:
              - audioData: { name: sound }
            run:
              seconds: 1
            """
        let missing = try #require(throws: PipelineFileError.self) { try PipelineFile.parse(cameraOnly, fileName: "audio.yaml").makeSession(context: CaptureContext()) }
        #expect(missing.location == Self.at("audio.yaml", 5, 5))
        #expect(missing.kind == .wrongMediaInput(kind: "audioData", output: "sound", needs: .audio, input: nil, suggestion: nil))
        #expect(missing.description.hasSuffix("audioData output 'sound' needs an audio input, but the file has no audio input; "
            + "add an input with 'device: virtual-mic' or a microphone's name or unique ID (see 'capture devices')"))
    }

    // MARK: - Runs

    @Test("an audioData count with a converting format: the run waits for the buffers; the WAV is 32-bit float at the output's rate")
    func countedFloatRecording() async throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual-mic
            outputs:
              - audioData:
                  name: tone
                  format: 16000Hz mono f32le
                  count: 50
                  write: audio/tone.wav
            run:
              seconds: 0.1
            """
        let built = try PipelineFile.parse(yaml, fileName: "tone.yaml").makeSession(context: CaptureContext())
        let directory = try PipelineExamplesTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await built.run(writingTo: directory)
        let tone = try #require(report.output(named: "tone"))
        let path = directory.appendingPathComponent("audio/tone.wav").path
        #expect(tone.count == 50, "exactly the count: later buffers are ignored")
        #expect(tone.audioFormat == AudioFormat(sampleRate: 16000, channelCount: 1, sampleFormat: .f32le))
        #expect(tone.files == [path])
        #expect(report.seconds >= 0.3, "50 buffers of 10 ms cannot arrive in \(report.seconds) s")
        // RIFF, fmt (18 bytes), fact and data headers: 58 bytes, then 4 bytes a frame.
        #expect(try PipelineExamplesTests.size(of: path) == 58 + tone.audioFrames * 4)
        #expect(abs((tone.audioSeconds ?? 0) - 0.5) < 0.01, "\(String(describing: tone.audioSeconds))")
        try PipelineExamplesTests.expectWAV(at: path, codec: "pcm_f32le", sampleRate: 16000, channels: 1, seconds: 0.5)
        #expect(report.description.contains("audioData 'tone': 50 sample buffers (0.50 s of 16000 Hz 1 ch f32le), 0 dropped"),
                "\(report.description)")
    }

    @Test("an audioData output without write counts buffers over the run and writes nothing")
    func countOverTheRun() async throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual-mic
            outputs:
              - audioData: { name: ears }
            run:
              seconds: 1
            """
        let built = try PipelineFile.parse(yaml, fileName: "ears.yaml").makeSession(context: CaptureContext())
        let directory = try PipelineExamplesTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await built.run(writingTo: directory)
        let ears = try #require(report.output(named: "ears"))
        #expect(ears.count >= 90 && ears.count <= 110, "\(ears.count) buffers of 10 ms in 1 s")
        #expect(ears.files.isEmpty && report.filesWritten.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("a run that cannot reach its audio count times out naming it")
    func audioCountTimesOut() async throws {
        let yaml = """
            version: 1
            inputs:
              - device: virtual-mic
            outputs:
              - audioData: { name: long, count: 100000, write: long.wav }
            run:
              seconds: 0.1
            """
        let built = try PipelineFile.parse(yaml, fileName: "long.yaml").makeSession(context: CaptureContext())
        #expect(built.expectedLength == .seconds(1000))
        let directory = try PipelineExamplesTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: PipelineRunError.self) {
            try await built.run(writingTo: directory, timeout: .milliseconds(500))
        }
        #expect(!built.session.isRunning)
        guard case .timedOut(_, let waiting)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(waiting.count == 1)
        #expect(waiting.first?.hasPrefix("audioData output 'long': ") == true, "\(waiting)")
        #expect(waiting.first?.hasSuffix(" of 100000 sample buffers") == true, "\(waiting)")
        // What was recorded before the failure is a complete WAV file.
        let path = directory.appendingPathComponent("long.wav").path
        let (samples, rate, channels) = try PipelineExamplesTests.wavSamples(at: path)
        #expect(rate == 48000 && channels == 2 && !samples.isEmpty)
    }
}
