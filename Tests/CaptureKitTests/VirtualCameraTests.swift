import Foundation
import Testing
@testable import CaptureKit

@Suite("Virtual camera", .serialized)
struct VirtualCameraTests {
    @Test("the scene's QR code and EAN-13 barcode decode from a still", arguments: [SessionPreset.vga640x480, .hd1280x720])
    func codesDecode(preset: SessionPreset) async throws {
        let output = StillImageOutput()
        try output.setOutputSettings(.jpeg(quality: 0.95))
        let test = try TestSession(preset: preset, outputs: [output])
        try await test.session.startRunning()
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
}
