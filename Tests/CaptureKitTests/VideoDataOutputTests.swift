import Dispatch
import Foundation
import Synchronization
import Testing
@testable import CaptureKit

/// Collects what a delegate receives.
final class RecordingDelegate: VideoDataOutputSampleBufferDelegate {
    let delay: Duration
    let frames = Mutex<[CaptureTime]>([])
    let drops = Atomic<Int>(0)
    let devices = Mutex<Set<String>>([])

    init(delay: Duration = .zero) { self.delay = delay }

    func captureOutput(_ output: VideoDataOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        frames.withLock { $0.append(sampleBuffer.presentationTime) }
        devices.withLock { _ = $0.insert(sampleBuffer.attachments.deviceUniqueID) }
        if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds)) }
    }

    func captureOutput(_ output: VideoDataOutput, didDrop sampleBuffer: SampleBuffer, from connection: CaptureConnection) {
        drops.add(1, ordering: .relaxed)
    }
}

@Suite("VideoDataOutput", .serialized)
struct VideoDataOutputTests {
    @Test("frames arrive in order with increasing presentation times, in the requested format")
    func framesInOrder() async throws {
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .gray8, width: 320, height: 240))
        let test = try TestSession(outputs: [output])
        let stream = output.sampleBuffers(bufferingNewest: 64)
        try await test.session.startRunning()
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
        try await test.session.startRunning()
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
        try await test.session.startRunning()
        try await Task.sleep(for: .seconds(1))
        await test.session.stopRunning()
        let delivered = delegate.frames.withLock { $0.count }
        let dropped = delegate.drops.load(ordering: .relaxed)
        #expect(delivered >= 5 && delivered <= 12, "delivered \(delivered)")
        #expect(dropped >= 10, "dropped \(dropped)")
    }

    @Test("orientation and mirroring travel as attachments")
    func attachments() async throws {
        let output = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: .find(virtual: .front), outputs: [output])
        let connection = try #require(output.connection(with: .video))
        #expect(connection.isVideoMirrored, "front cameras mirror automatically")
        connection.videoOrientation = .portrait
        let stream = output.sampleBuffers()
        try await test.session.startRunning()
        defer { test.session.stopRunning() }
        var iterator = stream.makeAsyncIterator()
        let sample = try #require(await iterator.next())
        #expect(sample.attachments.videoOrientation == .portrait)
        #expect(sample.attachments.isVideoMirrored)
        #expect(sample.attachments.exifOrientation == 7)
        #expect(sample.attachments.deviceUniqueID == "virtual:front")
        #expect(sample.formatDescription.width == 352, "pixels are never rotated")
    }
}
