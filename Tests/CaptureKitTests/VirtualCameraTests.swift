import Foundation
import Testing
@testable import CaptureKit

@Suite("Virtual camera", .ownDevices, .serialized)
struct VirtualCameraTests {
    @Test("the scene's QR code and EAN-13 barcode decode from a still", arguments: [SessionPreset.vga640x480, .hd1280x720])
    func codesDecode(preset: SessionPreset) async throws {
        let output = StillImageOutput()
        try output.setOutputSettings(.jpeg(quality: 0.95))
        let test = try TestSession(preset: preset, outputs: [output])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let sample = try await output.captureStillImage(from: try #require(output.connection(with: .video)))
        let file = try temporaryDirectory().appendingPathComponent("scene.jpg")
        try StillImageOutput.jpegStillImageData(from: sample).write(to: file)
        let decoded = try run("/usr/bin/zbarimg", ["-q", file.path])
        #expect(decoded.contains("QR-Code:\(VirtualScene.qrText)"), "\(decoded)")
        #expect(decoded.contains("EAN-13:\(VirtualScene.ean13Digits)"), "\(decoded)")
    }

    @Test("the sensor paints every frame: gray patches hold their levels and the square moves")
    func sensorPaints() throws {
        let sensor = VirtualCameraSensor(device: nil, width: 640, height: 480)
        #expect(sensor.squareX(frame: 0) == 0)
        #expect(sensor.squareX(frame: 30) > sensor.squareX(frame: 0))
        let scene = sensor.scene
        for (index, level) in VirtualScene.grayLevels.enumerated() {
            let rect = VirtualScene.patchRect(index: index, row: 0, width: 640, height: 480)
            let word = scene.pixels[(rect.y.lowerBound + 2) * 640 + rect.x.lowerBound + 2]
            #expect(word == Canvas.word(b: level, g: level, r: level))
        }
    }

    @Test("a painter slower than the frame rate drops frames instead of falling behind: every frame delivered is within ten frame durations of the clock, plus its painting")
    func slowPainterKeepsTime() async throws {
        let frames = VideoDataOutput()
        let stream = frames.sampleBuffers(bufferingNewest: 256)
        let test = try TestSession(preset: .cif352x288, outputs: [frames])
        try await test.session.checked.startRunning()
        defer { test.session.stopRunning() }
        let pipeline = try #require(test.session.runtime?.pipeline)
        // After the painter, on the frames it painted: 50 ms each, a painter at 20 fps for a 30 fps format.
        try pipeline.element(named: "input0_caps").staticPad("src").addBufferProbe { _ in
            Thread.sleep(forTimeInterval: 0.05)
            return .pass
        }
        let clock = ContinuousClock(), start = clock.now
        var lags: [Double] = []
        for await sample in stream {
            guard clock.now - start < .seconds(3) else { break }
            guard clock.now - start > .seconds(1), let now = pipeline.runningTime else { continue }
            lags.append(Double(Int64(now) - sample.presentationTime.nanoseconds) / 1e9)
        }
        // Stamped by count, the frames fell 0.33 s further behind each second (1.04 s by the
        // end); now a frame is at most `queuedFrames` durations (333 ms) old when painted, plus
        // the 50 ms stall and its delivery (0.38 s measured).
        #expect(lags.count >= 20 && (lags.max() ?? 1) < 0.5, "\(lags.count) frames, lag up to \(lags.max() ?? -1) s")
    }
}
