import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Decoding microphone inputs and `audioData` outputs, and the errors a file shows without any
/// device: each with its exact position and message.
@Suite struct PipelineFileAudioTests {
    private func at(_ line: Int, _ column: Int) -> PipelineFile.SourceLocation {
        PipelineFile.SourceLocation(file: "audio.yaml", line: line, column: column)
    }

    /// Parses `yaml` as `audio.yaml` and returns the error it must throw.
    private func parseError(in yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> PipelineFileError? {
        do {
            let file = try PipelineFile.parse(yaml, fileName: "audio.yaml")
            Issue.record("expected an error, decoded \(file)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Audio format syntax

    @Test(arguments: [
        ("48000Hz stereo s16le", PipelineFile.AudioFormatSpec(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le)),
        ("48kHz", PipelineFile.AudioFormatSpec(sampleRate: 48000)),
        ("44.1kHz mono", PipelineFile.AudioFormatSpec(sampleRate: 44100, channelCount: 1)),
        ("F32LE  2ch", PipelineFile.AudioFormatSpec(channelCount: 2, sampleFormat: .f32le)),
        ("mono", PipelineFile.AudioFormatSpec(channelCount: 1)),
        ("s16le 16000HZ", PipelineFile.AudioFormatSpec(sampleRate: 16000, sampleFormat: .s16le)),
        ("6ch", PipelineFile.AudioFormatSpec(channelCount: 6)),
    ])
    func audioFormatStrings(written: String, expected: PipelineFile.AudioFormatSpec) {
        #expect(PipelineFile.AudioFormatSpec(parsing: written) == expected)
    }

    @Test(arguments: ["", "48000", "48000 Hz", "48000Hz 44100Hz", "mono stereo", "s16le f32le", "s16", "kHz", "Hz",
                      "44.1234kHz", "48000Hz stereo s16le mono", "1280x720", "-48000Hz", "ch", "48000Hz,stereo"])
    func malformedAudioFormatStrings(written: String) {
        #expect(PipelineFile.AudioFormatSpec(parsing: written) == nil)
    }

    @Test("an audio format prints in file syntax, only the parts given")
    func audioFormatDescription() {
        #expect(PipelineFile.AudioFormatSpec(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le).description == "48000Hz stereo s16le")
        #expect(PipelineFile.AudioFormatSpec(channelCount: 1, sampleFormat: .f32le).description == "mono f32le")
        #expect(PipelineFile.AudioFormatSpec(sampleRate: 16000, channelCount: 4).description == "16000Hz 4ch")
        let full = AudioFormat(sampleRate: 8000, channelCount: 1, sampleFormat: .s16le)
        #expect(PipelineFile.AudioFormatSpec(full).matches(full))
        #expect(PipelineFile.AudioFormatSpec(channelCount: 1).matches(full))
        #expect(!PipelineFile.AudioFormatSpec(sampleRate: 48000).matches(full))
    }

    // MARK: - Decoding

    @Test("microphone inputs and an audioData output decode; default connections follow the media type")
    func audioFileDecodes() throws {
        let yaml = """
            version: 1
            inputs:
              - name: mic
                device: virtual-mic
                format: 48000Hz mono
              - name: camera
                device: virtual
              - name: usb
                device: "USB Audio"
                format: 44.1kHz
            outputs:
              - videoData: { name: frames }
              - audioData:
                  name: sound
                  format: 16kHz stereo f32le
                  count: 100
                  write: out/sound.wav
              - audioData: { write: usb.WAV, connection: { input: usb } }
            run:
              seconds: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "audio.yaml")
        #expect(file.inputs.map(\.device) == [.virtualMicrophone, .virtual(position: .back), .identifier("USB Audio")])
        #expect(file.inputs.map(\.audioFormat) == [.init(sampleRate: 48000, channelCount: 1), nil, .init(sampleRate: 44100)])
        #expect(file.inputs.allSatisfy { $0.format == nil })
        #expect(file.inputs[0].formatLocation == at(5, 13))
        #expect(file.outputs.map(\.kindName) == ["videoData", "audioData", "audioData"])
        #expect(file.outputs[0].connection.input == "camera", "video outputs take the first video input")
        guard case .audioData(let sound) = file.outputs[1], case .audioData(let usb) = file.outputs[2] else {
            Issue.record("expected audioData outputs: \(file.outputs)")
            return
        }
        #expect(sound == PipelineFile.AudioDataSpec(
            name: "sound",
            format: .init(sampleRate: 16000, channelCount: 2, sampleFormat: .f32le),
            count: 100,
            path: "out/sound.wav",
            connection: .init(input: "mic", namesInput: false, orientation: nil, mirrored: nil, location: at(13, 5)),
            location: at(13, 5),
            pathLocation: at(17, 14)
        ))
        #expect(usb.name == "output2" && usb.count == nil && usb.format == nil && usb.path == "usb.WAV")
        #expect(usb.connection.input == "usb" && usb.connection.namesInput)
    }

    @Test("without a declared audio input, an audioData output takes the first input only its device can tell")
    func audioDefaultsToAnUndeclaredInput() throws {
        let yaml = """
            version: 1
            inputs:
              - { name: camera, device: virtual }
              - { name: other, device: 3 }
            outputs:
              - audioData:
              - still:
            run:
              frames: 1
            """
        let file = try PipelineFile.parse(yaml, fileName: "audio.yaml")
        #expect(file.outputs.map(\.connection.input) == ["other", "camera"])
    }

    @Test("virtual-mic is a device reference")
    func virtualMicReference() throws {
        let file = try PipelineFile.parse(
            "version: 1\ninputs:\n  - device: virtual-mic\noutputs:\n  - audioData:\nrun: {seconds: 1}\n", fileName: "audio.yaml")
        #expect(file.inputs[0].device == .virtualMicrophone)
        #expect(file.inputs[0].declaredMediaType == .audio)
    }

    // MARK: - Errors

    @Test("the virtual microphone takes only an audio format, a virtual camera only a video format")
    func formatSyntaxFollowsTheDevice() throws {
        let mic = try #require(parseError(in: """
            version: 1
            inputs:
              - device: virtual-mic
                format: 640x480
            outputs:
              - audioData:
            run: {seconds: 1}
            """))
        #expect(mic.location == at(4, 13))
        #expect(mic.kind == .malformedValue(key: "format", value: "640x480", expected: PipelineFile.AudioFormatSpec.syntaxDescription))
        #expect(mic.description == "audio.yaml:4:13: malformed value '640x480' for 'format': expected a sample rate (48000Hz or 48kHz), "
            + "mono|stereo|Nch and s16le|f32le, in any order, e.g. '48000Hz stereo s16le'")

        let camera = try #require(parseError(in: """
            version: 1
            inputs:
              - device: virtual
                format: 48000Hz
            outputs:
              - still:
            run: {frames: 1}
            """))
        #expect(camera.location == at(4, 13))
        #expect(camera.kind == .malformedValue(key: "format", value: "48000Hz", expected: PipelineFile.FormatSpec.syntaxDescription))

        let other = try #require(parseError(in: """
            version: 1
            inputs:
              - device: usb
                format: fast
            outputs:
              - still:
            run: {frames: 1}
            """))
        #expect(other.location == at(4, 13))
        #expect(other.kind == .malformedValue(key: "format", value: "fast", expected: PipelineFileDecoder.inputFormatDescription))
        #expect(other.description.contains("for a camera, or a sample rate"), "\(other)")

        let zero = try #require(parseError(in: """
            version: 1
            inputs:
              - device: virtual-mic
                format: 0Hz
            outputs:
              - audioData:
            run: {seconds: 1}
            """))
        #expect(zero.kind == .outOfRange(key: "format", value: "0Hz", valid: "a sample rate of at least 1 Hz and at least 1 channel"))
    }

    @Test("an audioData output's keys are checked where they are written")
    func audioDataSettings() throws {
        func output(_ settings: String) -> String {
            "version: 1\ninputs:\n  - device: virtual-mic\noutputs:\n  - audioData: \(settings)\nrun: {seconds: 1}\n"
        }
        let typo = try #require(parseError(in: output("{ wirte: a.wav }")))
        #expect(typo.location == at(5, 18))
        #expect(typo.kind == .unknownKey("wirte", context: "audioData output", allowed: ["name", "format", "count", "write", "connection"],
                                         suggestion: "write"))

        let rate = try #require(parseError(in: output("{ format: 4000Hz mono }")))
        #expect(rate.location == at(5, 26))
        #expect(rate.kind == .outOfRange(key: "format", value: "4000Hz mono", valid: "a sample rate of 8000...192000 Hz and mono or stereo"))
        let channels = try #require(parseError(in: output("{ format: 6ch }")))
        #expect(channels.kind == .outOfRange(key: "format", value: "6ch", valid: "a sample rate of 8000...192000 Hz and mono or stereo"))

        let count = try #require(parseError(in: output("{ count: 0 }")))
        #expect(count.location == at(5, 25))
        #expect(count.kind == .outOfRange(key: "count", value: "0", valid: "at least 1"))

        for path in ["sound.mp3", ".wav", "dir/.wav", "sound"] {
            let error = try #require(parseError(in: output("{ write: \"\(path)\" }")))
            #expect(error.location == at(5, 25))
            #expect(error.kind == .malformedValue(key: "write", value: path, expected: "a path ending in .wav, e.g. sound.wav"))
        }

        let orientation = try #require(parseError(in: output("{ connection: { input: input0, orientation: portrait } }")))
        #expect(orientation.location == at(5, 47))
        #expect(orientation.kind == .conflictingKeys(
            "orientation", with: "audioData",
            reason: "orientation and mirroring apply to video; an audioData output's connection takes only 'input'"))
    }

    @Test("an audioData output named to a camera, or a still to the virtual microphone, fails at the input with a suggestion")
    func wrongMediaInputs() throws {
        let inputs = "inputs:\n  - { name: camera, device: virtual }\n  - { name: mic, device: virtual-mic }\n"
        let audio = try #require(parseError(in: "version: 1\n" + inputs
            + "outputs:\n  - audioData: { name: sound, connection: { input: camera } }\nrun: {seconds: 1}\n"))
        #expect(audio.location == at(6, 52))
        #expect(audio.kind == .wrongMediaInput(kind: "audioData", output: "sound", needs: .audio, input: "camera", suggestion: "mic"))
        #expect(audio.description == "audio.yaml:6:52: audioData output 'sound' needs an audio input, but input 'camera' is a camera; "
            + "connect it to 'mic' with 'connection: { input: mic }'")

        let still = try #require(parseError(in: "version: 1\n" + inputs
            + "outputs:\n  - still: { connection: { input: mic } }\nrun: {frames: 1}\n"))
        #expect(still.location == at(6, 35))
        #expect(still.kind == .wrongMediaInput(kind: "still", output: "output0", needs: .video, input: "mic", suggestion: "camera"))
    }

    @Test("an output whose media type no input can have fails at the output, saying what to add")
    func noInputOfTheMediaType() throws {
        let audio = try #require(parseError(in: """
            version: 1
            inputs:
              - device: virtual-front
            outputs:
              - still:
              - audioData: { name: sound }
            run: {seconds: 1}
            """))
        #expect(audio.location == at(6, 5))
        #expect(audio.kind == .wrongMediaInput(kind: "audioData", output: "sound", needs: .audio, input: nil, suggestion: nil))
        #expect(audio.description == "audio.yaml:6:5: audioData output 'sound' needs an audio input, but the file has no audio input; "
            + "add an input with 'device: virtual-mic' or a microphone's name or unique ID (see 'capture devices')")

        let video = try #require(parseError(in: """
            version: 1
            inputs:
              - device: virtual-mic
            outputs:
              - metadata: { name: codes }
            run: {seconds: 1}
            """))
        #expect(video.location == at(5, 5))
        #expect(video.kind == .wrongMediaInput(kind: "metadata", output: "codes", needs: .video, input: nil, suggestion: nil))
        #expect(video.description.hasSuffix("add an input with 'device: virtual' or a camera's name or unique ID (see 'capture devices')"))
    }
}
