import Foundation
import Testing
@testable import CaptureKit

@Suite("Zoom", .ownDevices, .serialized)
struct ZoomTests {
    @Test("digital zoom crops the centre and scales it; stills record DigitalZoomRatio")
    func digitalZoom() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let still = StillImageOutput()
        try still.setOutputSettings(.uncompressed(.bgra))
        let test = try TestSession(preset: .vga640x480, device: device, outputs: [still])
        try await test.session.checked.startRunning()
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

    @Test("a zoom ramp grows exponentially frame by frame to its target; cancelling (or rate 0) slows it to a stop")
    func ramp() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let frames = VideoDataOutput()
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [frames])
        let stream = frames.sampleBuffers(bufferingNewest: 1)
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        try device.lockForConfiguration()
        defer {
            try? device.setVideoZoomFactor(1)
            device.unlockForConfiguration()
        }
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
        // Two stops (1x → 4x) at four stops a second: about half a second, ~15 frames.
        try device.checked.ramp(toVideoZoomFactor: 4, withRate: 4)
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

        // Cancelling slows the ramp to a stop (seed 000): it goes on by shrinking steps for a
        // quarter of a second, then holds.
        for index in 0..<2 {
            try device.setVideoZoomFactor(1)
            try device.checked.ramp(toVideoZoomFactor: 16, withRate: 1)
            for _ in 0..<6 { _ = await iterator.next() }
            if index == 0 { try device.checked.cancelVideoZoomRamp() } else { try device.checked.ramp(toVideoZoomFactor: 16, withRate: 0) }
            let cancelledAt = device.videoZoomFactor
            var slowing: [Double] = [cancelledAt]
            for _ in 0..<30 where device.isRampingVideoZoom {
                _ = await iterator.next()
                slowing.append(device.videoZoomFactor)
            }
            #expect(!device.isRampingVideoZoom, "case \(index): stopped within 30 frames: \(slowing)")
            let steps = zip(slowing, slowing.dropFirst()).map { log2($1 / $0) }.filter { $0 > 0 }
            #expect(steps.count >= 4 && steps.count <= 10, "case \(index): about 0.25 s of frames: \(slowing)")
            let braked = log2(slowing.last! / cancelledAt)
            #expect(braked > 0.05 && braked < 0.2, "case \(index): about 1 stop/s × 0.25 s / 2: \(braked) stops")
            let stopped = device.videoZoomFactor
            for _ in 0..<3 { _ = await iterator.next() }
            #expect(device.videoZoomFactor == stopped)
        }
        #expect(throws: CaptureError.self) { try device.checked.ramp(toVideoZoomFactor: 2, withRate: -1) }
    }

    @Test("a cancelled ramp's rate falls evenly to 0 over the braking time, frame by frame")
    func braking() {
        var ramp = ZoomState.Ramp(target: 16, rate: 1, startFactor: 1, startTime: nil, braking: nil)
        let frame = 1.0 / 30
        func time(_ index: Int) -> CaptureTime { CaptureTime(seconds: Double(index) * frame, preferredTimescale: 1_000_000) }
        var factors: [Double] = []
        for index in 0...6 { factors.append(ramp.advance(to: time(index)).factor) }
        ramp.braking = .requested
        var done = false
        var index = 7
        while !done && index < 40 {
            let next = ramp.advance(to: time(index))
            factors.append(next.factor)
            done = next.done
            index += 1
        }
        let rates = zip(factors, factors.dropFirst()).map { log2($1 / $0) / frame }
        #expect(rates.prefix(7).allSatisfy { abs($0 - 1) < 1e-4 }, "1 stop/s until cancelled: \(rates)")
        let braking = Array(rates.dropFirst(7))
        #expect(zip(braking, braking.dropFirst()).allSatisfy { $1 < $0 }, "each step smaller: \(braking)")
        #expect(Double(braking.count) * frame >= ZoomState.Ramp.brakingTime - 1e-9 && Double(braking.count) * frame < ZoomState.Ramp.brakingTime + 2 * frame)
        #expect(abs(log2(factors.last! / factors[7]) - 0.125) < 1e-4, "1 stop/s × 0.25 s / 2")
    }
}
