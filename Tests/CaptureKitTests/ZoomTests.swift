import Foundation
import Testing
@testable import CaptureKit

@Suite("Zoom", .serialized)
struct ZoomTests {
    @Test("digital zoom crops the centre and scales it; stills record DigitalZoomRatio")
    func digitalZoom() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let still = StillImageOutput()
        try still.setOutputSettings(.uncompressed(.bgra))
        let test = try TestSession(preset: .vga640x480, device: device, outputs: [still])
        try await test.session.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.setVideoZoomFactor(1)
            device.unlockForConfiguration()
        }
        #expect(device.activeFormat.videoMaxZoomFactor == 16)
        try device.setVideoZoomFactor(2)
        #expect(device.videoZoomFactor == 2)
        try await Task.sleep(for: .milliseconds(50))
        let connection = try #require(still.connection(with: .video))
        let sample = try await still.captureStillImage(from: connection)
        let scene = VirtualScene.scene(width: 640, height: 480)
        try sample.withPlanes { planes in
            let plane = planes[0]
            func word(_ x: Int, _ y: Int) -> UInt32 {
                plane.bytes.loadUnaligned(fromByteOffset: y * plane.bytesPerRow + x * 4, as: UInt32.self)
            }
            // Output (x, y) shows scene (160 + x/2, 120 + y/2), away from the moving square's band.
            for (x, y) in [(0, 0), (100, 50), (400, 300), (639, 400)] {
                #expect(word(x, y) == scene.pixels[(120 + y / 2) * 640 + 160 + x / 2], "at \(x),\(y)")
            }
        }
        try still.setOutputSettings(.jpeg(quality: 0.9))
        let jpeg = try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        let file = try temporaryDirectory().appendingPathComponent("zoom.jpg")
        try StillImageOutput.jpegStillImageData(from: jpeg).write(to: file)
        #expect(try exifTags(file, ["DigitalZoomRatio"])["DigitalZoomRatio"] == "2")

        #expect(throws: CaptureError.outOfRange(name: "video zoom factor", value: 20, range: 1...16)) { try device.setVideoZoomFactor(20) }
    }

    @Test("a zoom ramp grows exponentially frame by frame to its target; cancelling stops it where it is")
    func ramp() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames])
        let stream = frames.sampleBuffers(bufferingNewest: 1)
        try await test.session.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.setVideoZoomFactor(1)
            device.unlockForConfiguration()
        }
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        // Two stops (1x → 4x) at four stops a second: about half a second, ~15 frames.
        try device.ramp(toVideoZoomFactor: 4, withRate: 4)
        #expect(device.isRampingVideoZoom)
        var factors: [Double] = []
        for _ in 0..<40 where device.isRampingVideoZoom {
            _ = await iterator.next()
            factors.append(device.videoZoomFactor)
        }
        #expect(!device.isRampingVideoZoom)
        #expect(device.videoZoomFactor == 4)
        #expect(zip(factors, factors.dropFirst()).allSatisfy { $0 <= $1 }, "\(factors)")
        #expect(factors.count >= 8, "the ramp took \(factors.count) frames")
        #expect(factors.contains { $0 > 1.5 && $0 < 3 }, "passes through the middle: \(factors)")

        try device.ramp(toVideoZoomFactor: 16, withRate: 1)
        for _ in 0..<6 { _ = await iterator.next() }
        try device.cancelVideoZoomRamp()
        let stopped = device.videoZoomFactor
        #expect(!device.isRampingVideoZoom)
        #expect(stopped > 4 && stopped < 8, "\(stopped)")
        for _ in 0..<3 { _ = await iterator.next() }
        #expect(device.videoZoomFactor == stopped)
        #expect(throws: CaptureError.self) { try device.ramp(toVideoZoomFactor: 2, withRate: 0) }
    }
}
