import Dispatch
import Foundation
import GStreamerSwift
import Synchronization
import Testing
@testable import CaptureKit

/// Collects what an audio delegate receives, and whether it ran on its queue.
final class AudioRecordingDelegate: AudioDataOutputSampleBufferDelegate {
    static let queueKey = DispatchSpecificKey<String>()
    let queue: DispatchQueue
    let buffers = Mutex<[SampleBuffer]>([])
    let offQueueCalls = Atomic<Int>(0)

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.queueKey, value: label)
    }

    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        if DispatchQueue.getSpecific(key: Self.queueKey) != queue.label { offQueueCalls.add(1, ordering: .relaxed) }
        buffers.withLock { $0.append(sampleBuffer) }
    }
}

/// AudioDataOutput on a standalone pipeline: the virtual microphone's source chain linked to the
/// output's branch (no tee, no session), its signal installed, the appsink attached.
@Suite("AudioDataOutput", .ownDevices, .serialized)
struct AudioDataOutputTests {
    struct Run {
        var delegated: [SampleBuffer]
        var streamed: [SampleBuffer]
        var offQueueCalls: Int
    }

    /// Runs the virtual microphone in `deviceFormat` into `output` for `seconds`.
    static func run(_ output: AudioDataOutput, deviceFormat: AudioFormat, seconds: Double = 1.0) async throws -> Run {
        let mic = CaptureDevice.virtualMicrophone
        let format = try #require(mic.formats.first { $0.audioFormat == deviceFormat })
        let chain = AudioSource.sourceChain(prefix: "input0", device: mic, format: format) + output.audioBranch(prefix: "output0")
        let built = try PlanPipeline(chain)
        VirtualMicrophoneSignal.install(on: try built["input0_src"].staticPad("src"), format: deviceFormat)
        let connection = CaptureConnection(inputPorts: try CaptureDeviceInput(device: mic).ports, output: output)
        output.attach(sink: built["output0_sink"], connection: connection)
        let delegate = AudioRecordingDelegate(label: "audio-test-delegate")
        output.setSampleBufferDelegate(delegate, queue: delegate.queue)
        let streamed = Mutex<[SampleBuffer]>([])
        let stream = output.sampleBuffers(bufferingNewest: streamLimit)
        let consumer = Task {
            for await buffer in stream { streamed.withLock { $0.append(buffer) } }
        }
        try built.pipeline.setState(.playing)
        try await Task.sleep(for: .seconds(seconds))
        try built.pipeline.setState(.null)
        delegate.queue.sync {}
        try await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        output.setSampleBufferDelegate(nil, queue: nil)
        return Run(delegated: delegate.buffers.withLock { $0 }, streamed: streamed.withLock { $0 },
                   offQueueCalls: delegate.offQueueCalls.load(ordering: .relaxed))
    }

    /// The buffer's samples as values in -1…1, channel by channel.
    static func channels(of buffer: SampleBuffer) throws -> [[Double]] {
        let format = try #require(buffer.formatDescription.audioFormat)
        let interleaved: [Double] = switch format.sampleFormat {
        case .s16le: try buffer.withAudioSamples(as: Int16.self) { $0.map { Double($0) / 32767 } }
        case .f32le: try buffer.withAudioSamples(as: Float.self) { $0.map(Double.init) }
        }
        #expect(interleaved.count == buffer.numSamples * format.channelCount)
        return (0..<format.channelCount).map { channel in
            stride(from: channel, to: interleaved.count, by: format.channelCount).map { interleaved[$0] }
        }
    }

    /// What the virtual microphone's signal says the buffer holds, from its presentation time.
    static func prediction(for buffer: SampleBuffer) -> [Double] {
        let rate = buffer.formatDescription.audioFormat!.sampleRate
        let start = UInt64(buffer.presentationTime.value)
        return (0..<buffer.numSamples).map { VirtualMicrophoneSignal.value(presentationTime: start, frame: $0, rate: rate) }
    }

    /// The stream got the delegate's buffers: all of them, or on a machine so loaded that its
    /// consumer only ran at the end, the newest `streamLimit` its buffering policy keeps.
    static func expectStreamed(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = run.delegated.suffix(streamLimit).map(\.presentationTime)
        #expect(run.streamed.map(\.presentationTime).suffix(expected.count) == expected[...] && run.streamed.count <= run.delegated.count,
                "the stream gets the same buffers", sourceLocation: sourceLocation)
    }

    static let streamLimit = 1000

    /// Each buffer starts where the one before ended, within one sample.
    static func expectContiguous(_ buffers: [SampleBuffer], rate: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let sample = 1_000_000_000 / Int64(rate) + 1
        for (before, after) in zip(buffers, buffers.dropFirst()) {
            let end = before.presentationTime.value + before.duration.value
            #expect(abs(after.presentationTime.value - end) <= sample,
                    "buffer at \(before.presentationTime.value) ns lasting \(before.duration.value) ns, next at \(after.presentationTime.value) ns",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("the device's format passes through: delegate and stream get every buffer, equal to the signal predicted from its PTS")
    func deviceFormat() async throws {
        let output = AudioDataOutput()
        let format = AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le)
        let run = try await Self.run(output, deviceFormat: format)
        #expect(run.offQueueCalls == 0, "the delegate runs on its queue")
        let buffers = run.delegated
        #expect(buffers.count >= 80, "about 100 buffers of 10 ms in a second: \(buffers.count)")
        #expect(buffers.first?.presentationTime.value ?? -1 < 50_000_000, "the first buffer is at the start of running time")
        Self.expectContiguous(buffers, rate: 48000)
        for buffer in buffers {
            #expect(buffer.formatDescription.audioFormat == format && buffer.formatDescription.mediaType == .audio)
            #expect(buffer.numSamples == 480 && buffer.duration == CaptureTime(nanoseconds: 10_000_000))
            #expect(buffer.attachments.deviceUniqueID == "virtual:microphone")
            let channels = try Self.channels(of: buffer)
            let predicted = Self.prediction(for: buffer)
            #expect(channels[0] == channels[1], "stereo carries the signal on both channels")
            let worst = zip(channels[0], predicted).map { abs($0 - VirtualMicrophoneSignal.s16ToValue(VirtualMicrophoneSignal.s16($1))) }.max() ?? 1
            #expect(worst == 0, "PTS \(buffer.presentationTime.value): exactly the predicted S16 samples (off by \(worst))")
        }
        Self.expectStreamed(run)
        #expect(output.droppedSampleBufferCount == 0)
        // The signal changes pitch at one second: the buffers of each second hold their tone.
        let firstSecond = buffers.filter { $0.presentationTime.value < 1_000_000_000 }.flatMap { try! Self.channels(of: $0)[0] }
        #expect(AudioAnalysis.strongest(of: VirtualMicrophoneSignal.frequencies, in: firstSecond, rate: 48000) == 440)
        let sample = try #require(buffers.first)
        #expect(throws: CaptureError.wrongSampleFormat(expected: "raw video", found: "audio 48000 Hz 2 ch s16le")) { try sample.withPlanes { _ in } }
        #expect(throws: CaptureError.wrongSampleFormat(expected: "f32le audio", found: "s16le audio")) {
            try sample.withAudioSamples(as: Float.self) { _ in }
        }
        try sample.withAudioBytes { #expect($0.count == 480 * 4 && $0.count == sample.dataLength) }
    }

    @Test("resampled to 16000 Hz mono S16LE: the format asked for, numSamples matching duration, contiguous, the predicted tone")
    func resampled() async throws {
        let output = AudioDataOutput()
        try output.setAudioSettings(.init(sampleRate: 16000, channelCount: 1, sampleFormat: .s16le))
        let run = try await Self.run(output, deviceFormat: AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le), seconds: 1.3)
        let buffers = run.delegated
        #expect(buffers.count >= 80)
        Self.expectContiguous(buffers, rate: 16000)
        var worst = 0.0
        for buffer in buffers {
            #expect(buffer.formatDescription.audioFormat == AudioFormat(sampleRate: 16000, channelCount: 1, sampleFormat: .s16le))
            let samplesDuration = Int64(buffer.numSamples) * 1_000_000_000 / 16000
            #expect(abs(samplesDuration - buffer.duration.value) <= 62_500, "\(buffer.numSamples) samples for \(buffer.duration.value) ns")
            let values = try Self.channels(of: buffer)[0]
            let predicted = Self.prediction(for: buffer)
            // The resampler's filter settles during its first buffer; after that it lags the
            // signal by about 5 µs, at most 0.25 · 2π · 880 Hz · 5 µs ≈ 0.007 of full scale.
            guard buffer !== buffers.first else { continue }
            worst = max(worst, zip(values, predicted).map { abs($0 - $1) }.max() ?? 0)
        }
        #expect(worst < 0.01, "resampled samples within 1% of full scale of the prediction: \(worst)")
        Self.expectStreamed(run)
        let firstSecond = buffers.filter { $0.presentationTime.value < 1_000_000_000 }.flatMap { try! Self.channels(of: $0)[0] }
        let secondSecond = buffers.filter { $0.presentationTime.value >= 1_000_000_000 }.flatMap { try! Self.channels(of: $0)[0] }
        #expect(AudioAnalysis.strongest(of: VirtualMicrophoneSignal.frequencies, in: firstSecond, rate: 16000) == 440)
        #expect(AudioAnalysis.strongest(of: VirtualMicrophoneSignal.frequencies, in: secondSecond, rate: 16000) == 494)
    }

    @Test("converted to F32LE mono at the device's rate: float samples of the predicted signal")
    func converted() async throws {
        let output = AudioDataOutput()
        try output.setAudioSettings(.init(channelCount: 1, sampleFormat: .f32le))
        let run = try await Self.run(output, deviceFormat: AudioFormat(sampleRate: 48000, channelCount: 2, sampleFormat: .s16le), seconds: 0.5)
        let buffers = run.delegated
        #expect(buffers.count >= 30)
        Self.expectContiguous(buffers, rate: 48000)
        for buffer in buffers {
            #expect(buffer.formatDescription.audioFormat == AudioFormat(sampleRate: 48000, channelCount: 1, sampleFormat: .f32le))
            #expect(buffer.numSamples == 480)
            let values = try Self.channels(of: buffer)[0]
            let worst = zip(values, Self.prediction(for: buffer)).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1e-4, "within S16 quantisation of the prediction: \(worst)")
        }
    }
}
