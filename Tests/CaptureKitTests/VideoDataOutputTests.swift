import Dispatch
import Foundation
import Synchronization
import Testing
@testable @_spi(Benchmark) import CaptureKit

/// Collects what a delegate receives.
final class RecordingDelegate: VideoDataOutputSampleBufferDelegate {
    let delay: Duration
    let frames = Mutex<[CaptureTime]>([])
    let drops = Atomic<Int>(0)
    let devices = Mutex<Set<String>>([])

    init(delay: Duration = .zero) { self.delay = delay }

    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        frames.withLock { $0.append(sampleBuffer.presentationTime) }
        devices.withLock { _ = $0.insert(sampleBuffer.attachments.deviceUniqueID) }
        if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds)) }
    }

    func captureOutput(_ output: CaptureOutput, didDrop sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        drops.add(1, ordering: .relaxed)
    }
}

@Suite("VideoDataOutput", .ownDevices, .serialized)
struct VideoDataOutputTests {
    @Test("frames arrive in order with increasing presentation times, in the requested format")
    func framesInOrder() async throws {
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .gray8, width: 320, height: 240))
        let test = try TestSession(outputs: [output])
        let stream = output.sampleBuffers(bufferingNewest: 64)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var times: [CaptureTime] = []
        var moving: Set<[UInt8]> = []
        for await sample in stream {
            #expect(sample.formatDescription.pixelFormat == .gray8)
            #expect(sample.formatDescription.width == 320 && sample.formatDescription.height == 240)
            times.append(sample.presentationTime)
            // The band with the moving square differs from frame to frame.
            let band = try sample.withPlanes { planes in
                Array(planes[0].bytes[(225 * planes[0].bytesPerRow)..<(225 * planes[0].bytesPerRow + 320)])
            }
            moving.insert(band)
            if times.count == 15 { break }
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let gaps = zip(times, times.dropFirst()).map { $1.seconds - $0.seconds }
        #expect(gaps.allSatisfy { abs($0 - 1.0 / 30) < 0.005 }, "\(gaps)")
        #expect(moving.count > 10)
    }

    @Test("plane access is zero-copy over the frame with its strides")
    func planes() async throws {
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .nv12))
        let test = try TestSession(outputs: [output])
        let stream = output.sampleBuffers()
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        var iterator = stream.makeAsyncIterator()
        let sample = try #require(await iterator.next())
        try sample.withPlanes { planes in
            #expect(planes.count == 2)
            #expect(planes[0].height == 480 && planes[1].height == 240)
            #expect(planes[0].bytesPerRow >= 640)
            // Luma of the black and white gray patches.
            let black = VirtualScene.patchRect(index: 0, row: 0, width: 640, height: 480)
            let white = VirtualScene.patchRect(index: 5, row: 0, width: 640, height: 480)
            let y0 = planes[0].bytes[(black.y.lowerBound + 4) * planes[0].bytesPerRow + black.x.lowerBound + 4]
            let y1 = planes[0].bytes[(white.y.lowerBound + 4) * planes[0].bytesPerRow + white.x.lowerBound + 4]
            #expect(y0 <= 20 && y1 >= 230, "black \(y0) white \(y1)")
        }
        try sample.withUnsafeBytes { #expect($0.count == sample.dataLength) }
    }

    @Test("a slow delegate gets late frames dropped and reported")
    func lateFramesDropped() async throws {
        let output = VideoDataOutput()
        let delegate = RecordingDelegate(delay: .milliseconds(100))
        output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "slow"))
        #expect(output.alwaysDiscardsLateVideoFrames)
        let test = try TestSession(preset: .cif352x288, outputs: [output])
        try await test.session.checked.startRunning()
        try await Task.sleep(for: .seconds(1))
        await test.session.checked.stopRunning()
        let delivered = delegate.frames.withLock { $0.count }
        let dropped = delegate.drops.load(ordering: .relaxed)
        #expect(delivered >= 5 && delivered <= 12, "delivered \(delivered)")
        #expect(dropped >= 10, "dropped \(dropped)")
    }

    @Test("a source that is not live, into a delegate slower than it that keeps late frames, loses none: the source waits")
    func notLiveSourceKeepsEveryFrame() async throws {
        let count = 120
        let session = CaptureSession()
        session.sessionPreset = .inputPriority
        session.addInput(try CaptureDeviceInput(device: .testPattern(width: 64, height: 48, isLive: false, frameCount: count)))
        let output = VideoDataOutput()
        output.alwaysDiscardsLateVideoFrames = false
        // Slower than the source by far for the first frames, as a first session's delegate is.
        let delegate = RecordingDelegate(delay: .milliseconds(10))
        output.setSampleBufferDelegate(delegate, queue: DispatchQueue(label: "kept"))
        try session.checked.addOutput(output)
        try await session.checked.startRunning()
        defer { session.stopRunning() }
        let deadline = ContinuousClock.now + .seconds(20)
        while delegate.frames.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let times = delegate.frames.withLock { $0 }
        #expect(times.count == count, "\(times.count) of \(count) frames, \(delegate.drops.load(ordering: .relaxed)) dropped")
        #expect(delegate.drops.load(ordering: .relaxed) == 0)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("frames are turned and mirrored in pixels as the connection asks, as AVFoundation's are; a front camera's are not mirrored unless asked")
    func turnedPixels() async throws {
        let straight = VideoDataOutput(), turned = VideoDataOutput(), mirrored = VideoDataOutput()
        for output in [straight, turned, mirrored] { try output.setVideoSettings(.init(pixelFormat: .bgra)) }
        let test = try TestSession(preset: .vga640x480, device: .find(virtual: .front), outputs: [straight, turned, mirrored])
        let turnedConnection = try #require(turned.connection(with: .video)), mirroredConnection = try #require(mirrored.connection(with: .video))
        #expect(![straight, turned, mirrored].contains { $0.connection(with: .video)?.isVideoMirrored == true },
                "AVFoundation mirrors a front camera's preview by default, not its video data")
        turnedConnection.videoOrientation = .portrait
        mirroredConnection.videoOrientation = .portrait
        mirroredConnection.isVideoMirrored = true
        let streams = [straight, turned, mirrored].map { $0.sampleBuffers(bufferingNewest: 64) }
        let seen = SeenFrames()
        let collectors = streams.enumerated().map { index, stream in
            Task {
                for await sample in stream {
                    let values = try? VideoPreviewTests.lattice(sample)
                    #expect(sample.attachments.videoOrientation == .landscapeRight && !sample.attachments.isVideoMirrored,
                            "the pixels are turned: nothing is left for a viewer to do")
                    seen.lattices.withLock { $0[index][sample.presentationTime.nanoseconds] = values }
                    seen.sizes.withLock { $0[index] = [sample.formatDescription.width, sample.formatDescription.height] }
                }
            }
        }
        defer { collectors.forEach { $0.cancel() } }
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        // Until three frames of the same times have come from each output.
        _ = await waitFor {
            seen.lattices.withLock { all in Set(all[0].keys).intersection(all[1].keys).intersection(all[2].keys).count >= 3 }
        }
        let all = seen.lattices.withLock { $0 }
        #expect(seen.sizes.withLock { $0 } == [[640, 480], [480, 640], [480, 640]])
        let common = Set(all[0].keys).intersection(all[1].keys).intersection(all[2].keys).sorted().prefix(3)
        #expect(common.count == 3, "frames of the same time from the three outputs")
        for time in common {
            let source = try #require(all[0][time] ?? nil), portrait = try #require(all[1][time] ?? nil), mirror = try #require(all[2][time] ?? nil)
            let clockwise = VideoPreviewTests.turnedClockwise(source)
            #expect(VideoPreviewTests.difference(portrait, clockwise) < 12 && VideoPreviewTests.difference(portrait, clockwise) * 2 < VideoPreviewTests.difference(portrait, source))
            // Mirrored after turning: each row of the portrait picture reversed.
            let reversed = (0..<16).flatMap { row in (0..<16).reversed().map { clockwise[row * 16 + $0] } }
            #expect(VideoPreviewTests.difference(mirror, reversed) < 12 && VideoPreviewTests.difference(mirror, reversed) * 2 < VideoPreviewTests.difference(mirror, clockwise))
        }
    }
}

/// The lattices and sizes of three outputs' frames, by output.
final class SeenFrames: Sendable {
    let lattices = Mutex<[[Int64: [Double]]]>([[:], [:], [:]])
    let sizes = Mutex<[[Int]]>([[], [], []])
}
