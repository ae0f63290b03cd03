import Foundation
import Testing
@testable import CaptureKit

/// The code samples of PortingFromAVFoundation.md, compiled here and run on the virtual camera;
/// a test checks that every sample in the article appears in this file verbatim.
@Suite("Porting guide samples", .serialized)
struct PortingGuideTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CaptureKit/CaptureKit.docc/PortingFromAVFoundation.md")

    @Test("every swift block of the article is compiled here, word for word")
    func samplesMatch() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        // This file's lines with their indentation removed, joined: a sample matches wherever it is nested.
        let flattened = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { String($0.components(separatedBy: "```")[0]) }
        #expect(blocks.count >= 6)
        for block in blocks {
            let sample = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            #expect(flattened.contains(sample), "not compiled in PortingGuideTests.swift:\n\(block)")
        }
    }

    @Test("manual controls, errors and observation as the article shows them")
    func controls() async throws {
        let device = CaptureDevice.find(virtual: .back)
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [VideoDataOutput()])
        try await test.session.startRunning()
        defer { test.session.stopRunning() }
        do {
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            if device.isFocusModeSupported(.continuousAutoFocus) {
                try device.setFocusMode(.continuousAutoFocus)
            }
            try device.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: 400) { syncTime in
                print("first frame with the new exposure at \(syncTime.seconds) s")
            }
            try device.setWhiteBalanceModeLocked(
                deviceWhiteBalanceGains: device.deviceWhiteBalanceGains(for: .init(temperature: 5000, tint: 0)))
        }
        #expect(device.iso == 400 && device.whiteBalanceMode == .locked)

        try device.lockForConfiguration()
        defer {
            device.unlockForConfiguration()
            device.restoreDefaultControls()
        }
        #expect(throws: CaptureError.outOfRange(name: "video zoom factor", value: 100, range: 1...16)) { try device.setVideoZoomFactor(100) }
        do {
            try device.setVideoZoomFactor(100)
        } catch {
            switch error.code {
            case .outOfRange: print(error)  // video zoom factor 100.0 is out of range 1.0...16.0
            case .notLocked: print("call lockForConfiguration() first")
            default: throw error
            }
        }

        try device.setFocusModeLocked(lensPosition: 0.1)
        try device.setFocusMode(.autoFocus)
        for await adjusting in device.values(of: \.isAdjustingFocus) {
            print(adjusting ? "focusing…" : "in focus")
            if !adjusting { break }
        }
        #expect(!device.isAdjustingFocus)
    }

    @Test("typed settings, times and orientations as the article shows them")
    func values() throws {
        let still = StillImageOutput()
        try still.setOutputSettings(.jpeg(quality: 0.9))                        // [AVVideoCodecKey: AVVideoCodecJPEG]
        try still.setOutputSettings(.uncompressed(.nv12, range: .full))         // '420f'
        let frames = VideoDataOutput()
        try frames.setVideoSettings(.init(pixelFormat: .bgra, width: 640, height: 360))  // kCVPixelFormatType_32BGRA
        #expect(still.outputSettings == .uncompressed(.nv12, range: .full) && frames.videoSettings?.width == 640)

        let orientation = VideoOrientation(rawValue: 1)                    // .portrait
        let keep = CaptureDevice.currentExposureDuration                   // AVCaptureExposureDurationCurrent
        let frameTime = CaptureTime(value: 1, timescale: 30) + CaptureTime(value: 1, timescale: 60)  // 3/60
        #expect(orientation == .portrait && !keep.isValid && frameTime == CaptureTime(value: 3, timescale: 60))
    }

    @Test("a session delivering frames as the article shows it")
    func session() async throws {
        let session = CaptureSession()
        try session.setSessionPreset(.vga640x480)
        try session.addInput(CaptureDeviceInput(device: CaptureDevice.default(for: .video)!))
        let output = VideoDataOutput()
        try session.addOutput(output)
        try await session.startRunning()
        for await frame in output.sampleBuffers() {
            print(frame.presentationTime.seconds, frame.formatDescription.width)
            break
        }
        await session.stopRunning()
        #expect(session.pipelineDescription.contains("width=640") && !session.isRunning, "\(session.pipelineDescription)")
    }
}
