import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// A session with a camera and the virtual microphone: both on one clock, audio as the signal says.
@Suite("Audio in a session", .ownDevices, .serialized)
struct AudioSessionTests {
    @Test("video and audio share the session's clock: the first samples of each are within 20 ms, and audio matches the virtual microphone's signal")
    func sharedClock() async throws {
        let frames = VideoDataOutput(), audio = AudioDataOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [frames])
        let mic = CaptureDevice.virtualMicrophone
        try test.session.checked.addInput(CaptureDeviceInput(device: mic))
        try test.session.checked.addOutput(audio)
        #expect(audio.connection(with: .audio) != nil)
        #expect(test.session.pipelineDescription.contains("audiotestsrc name=input1_src"))
        let videoStream = frames.sampleBuffers(bufferingNewest: 100)
        let audioStream = audio.sampleBuffers(bufferingNewest: 200)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var videoIterator = videoStream.makeAsyncIterator(), audioIterator = audioStream.makeAsyncIterator()
        let firstVideo = try #require(await videoIterator.next())
        var buffers = [try #require(await audioIterator.next())]
        let gap = abs(Double(firstVideo.presentationTime.nanoseconds - buffers[0].presentationTime.nanoseconds)) / 1e6
        #expect(gap <= 20, "first video at \(firstVideo.presentationTime), first audio at \(buffers[0].presentationTime): \(gap) ms apart")
        while buffers.count < 20, let next = await audioIterator.next() { buffers.append(next) }
        for buffer in buffers {
            let channels = try AudioDataOutputTests.channels(of: buffer)
            let predicted = AudioDataOutputTests.prediction(for: buffer)
            for channel in channels {
                let worst = zip(channel, predicted).map { abs($0 - $1) }.max() ?? 1
                #expect(worst < 1e-3, "samples differ from the signal at \(buffer.presentationTime) by \(worst)")
            }
        }
        for (earlier, later) in zip(buffers, buffers.dropFirst()) {
            #expect(abs(later.presentationTime.nanoseconds - (earlier.presentationTime + earlier.duration).nanoseconds) < 1_000_000_000 / 48000 + 1)
        }
    }

    @Test("adding an audio output to a running session joins the microphone without touching video")
    func addAudioLive() async throws {
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, outputs: [frames])
        let mic = CaptureDevice.virtualMicrophone
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let pipeline = try #require(test.session.runtime?.pipeline)
        let audio = AudioDataOutput()
        test.session.beginConfiguration()
        try test.session.checked.addInput(CaptureDeviceInput(device: mic))
        try test.session.checked.addOutput(audio)
        try test.session.checked.commitConfiguration()
        #expect(test.session.runtime?.pipeline === pipeline)
        var iterator = audio.sampleBuffers(bufferingNewest: 10).makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.numSamples > 0)
        #expect(first.presentationTime.nanoseconds > 0, "joins at the running time, not at zero")
    }
}
