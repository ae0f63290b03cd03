import Foundation
import Testing
@testable import CaptureKit

/// Runs only where a real V4L2 camera exists, e.g. vivid in ../shared/v4l2vm:
/// `v4l2vm run -- .build/debug/CaptureKitPackageTests.xctest --testing-library swift-testing --filter V4L2LiveTests`
@Suite("V4L2 live", .serialized, .enabled(if: FileManager.default.fileExists(atPath: "/dev/video0")))
struct V4L2LiveTests {
    static func meanLuma(_ sample: SampleBuffer) throws -> Double {
        try sample.withPlanes { planes in
            let plane = planes[0]
            var sum = 0
            for y in 0..<plane.height { for x in stride(from: 0, to: sample.formatDescription.width, by: 4) { sum += Int(plane.bytes[y * plane.bytesPerRow + x]) } }
            return Double(sum) / Double(plane.height * sample.formatDescription.width / 4)
        }
    }

    @Test("brightness set on the running pipeline shows in the pixels")
    func brightnessWhileRunning() async throws {
        let device = try #require(CaptureDevice.devices(for: .video).first { if case .v4l2 = $0.source { true } else { false } })
        let output = VideoDataOutput()
        try output.setVideoSettings(.init(pixelFormat: .gray8))
        let test = try TestSession(preset: .vga640x480, device: device, outputs: [output])
        let stream = output.sampleBuffers(bufferingNewest: 1)
        try await test.session.startRunning()
        defer { test.session.stopRunning() }
        var iterator = stream.makeAsyncIterator()
        for _ in 0..<3 { _ = await iterator.next() }
        let before = try Self.meanLuma(try #require(await iterator.next()))
        try device.lockForConfiguration()
        defer {
            try? device.setV4L2Control("brightness", to: 128)
            device.unlockForConfiguration()
        }
        try device.setV4L2Control("brightness", to: 250)
        var after = before
        for _ in 0..<10 { after = try Self.meanLuma(try #require(await iterator.next())) }
        #expect(after > before + 40, "mean luma \(before) -> \(after)")
        #expect(test.session.isRunning)
    }

    @Test("unplugging the camera while running (vivid's disconnect control) posts a runtime error and stops the session")
    func disconnectWhileRunning() async throws {
        let device = try #require(CaptureDevice.devices(for: .video).first { if case .v4l2 = $0.source { true } else { false } })
        let output = VideoDataOutput()
        let test = try TestSession(preset: .vga640x480, device: device, outputs: [output])
        let errors = AsyncStream<CaptureError>.makeStream()
        let observer = NotificationCenter.default.addObserver(forName: CaptureSession.runtimeErrorNotification, object: test.session, queue: nil) { note in
            if let error = note.userInfo?[CaptureSession.errorKey] as? CaptureError { errors.continuation.yield(error) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let stream = output.sampleBuffers()
        try await test.session.startRunning()
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setV4L2Control("disconnect", to: 1)
        var errorIterator = errors.stream.makeAsyncIterator()
        let error = try #require(await errorIterator.next())
        guard case .pipelineFailed(let element, let message) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(element == "input0_src", "\(message)")
        #expect(!message.isEmpty)
        #expect(!test.session.isRunning)
    }
}
