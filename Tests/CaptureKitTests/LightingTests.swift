import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// Flash, low-light boost and video HDR on the virtual camera.
@Suite("Flash, low light and HDR", .ownDevices, .serialized)
struct LightingTests {
    /// A session with frames and BGRA or JPEG stills.
    struct Rig {
        var live: LiveFrames
        let still: StillImageOutput
        let device: CaptureDevice

        init(jpeg: Bool = false) async throws {
            device = CaptureDevice.find(virtual: .back)
            device.restoreDefaultControls()
            still = StillImageOutput()
            try still.setOutputSettings(jpeg ? .jpeg(quality: 0.9) : .uncompressed(.bgra))
            live = try await LiveFrames(device: device)
            try live.test.session.checked.addOutput(still)
            try await live.next()
        }

        func capture() async throws -> SampleBuffer {
            try await still.captureStillImage(from: try #require(still.connection(with: .video)))
        }
    }

    @Test("flash on lights the still (+2 EV) and only the still; EXIF Flash records it fired")
    func flashOn() async throws {
        var rig = try await Rig()
        defer { rig.live.stop() }
        let device = rig.device
        #expect(device.hasFlash && device.isFlashAvailable && !CaptureDevice.find(virtual: .front).hasFlash)
        #expect(throws: CaptureError.notLocked(device: "virtual:back")) { try device.setFlashMode(.on) }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        // Exposure held, so the frames after the still show the flash has gone out.
        try device.setExposureMode(.locked)
        #expect(!device.isFlashActive)
        let unlit = try await rig.capture()
        try device.setFlashMode(.on)
        #expect(device.isFlashActive)
        let lit = try await rig.capture()
        #expect(try AutoModesTests.patch(unlit, index: 1).1 == 51)
        #expect(try AutoModesTests.patch(lit, index: 1).1 == 204, "four times the light on the 51 patch")
        #expect(lit.presentationTime > unlit.presentationTime)
        // Frames queue in the stream: skip to those after the lit still.
        try await rig.live.frames(untilSample: { $0.presentationTime > lit.presentationTime })
        try await rig.live.next()
        let after = try await rig.live.next()
        #expect(try AutoModesTests.patch(after, index: 1).1 == 51, "the flash is out after the still")
        #expect(throws: CaptureError.unsupported(feature: "flash mode on", device: "virtual:front")) {
            let front = CaptureDevice.find(virtual: .front)
            try front.lockForConfiguration()
            defer { front.unlockForConfiguration() }
            try front.setFlashMode(.on)
        }
        try device.setFlashMode(.off)
    }

    @Test("flash auto fires only when auto exposure cannot reach a dark scene; EXIF says so")
    func flashAuto() async throws {
        var rig = try await Rig(jpeg: true)
        defer { rig.live.stop() }
        let device = rig.device
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setFlashMode(.auto)
        #expect(!device.isFlashActive, "a normally lit scene")
        let directory = try temporaryDirectory()
        let normal = directory.appendingPathComponent("normal.jpg")
        try StillImageOutput.jpegStillImageData(from: try await rig.capture()).write(to: normal)
        device.setVirtualSceneLight(ev: -8)
        _ = try await rig.live.frames(until: { !device.isAdjustingExposure }, minimum: 5)
        #expect(device.isFlashActive, "offset \(device.exposureTargetOffset) at \(device.exposureDuration) ISO \(device.iso)")
        let dark = directory.appendingPathComponent("dark.jpg")
        try StillImageOutput.jpegStillImageData(from: try await rig.capture()).write(to: dark)
        // EXIF Flash: bit 0 fired, bits 3–4 = 3 for auto mode.
        #expect(try exifTags(normal, ["Flash"])["Flash"] == "24", "auto, did not fire")
        #expect(try exifTags(dark, ["Flash"])["Flash"] == "25", "auto, fired")
        try device.setFlashMode(.off)
    }

    @Test("low-light boost lets auto exposure raise ISO past 800 to reach a dark scene")
    func lowLightBoost() async throws {
        var rig = try await Rig()
        defer { rig.live.stop() }
        let device = rig.device
        #expect(device.isLowLightBoostSupported && !device.automaticallyEnablesLowLightBoostWhenAvailable)
        device.setVirtualSceneLight(ev: -6)
        _ = try await rig.live.frames(until: { !device.isAdjustingExposure }, minimum: 5)
        #expect(device.iso == 800 && device.exposureTargetOffset < -0.5, "held at ISO 800: \(device.iso), \(device.exposureTargetOffset)")
        #expect(!device.isLowLightBoostEnabled)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setAutomaticallyEnablesLowLightBoostWhenAvailable(true)
        _ = try await rig.live.frames(until: { !device.isAdjustingExposure && abs(device.exposureTargetOffset) <= AutoExposure.tolerance },
                                      "offset \(device.exposureTargetOffset) ISO \(device.iso)")
        #expect(device.iso > 800 && device.isLowLightBoostEnabled, "\(device.iso)")
        try device.setAutomaticallyEnablesLowLightBoostWhenAvailable(false)
        #expect(!device.isLowLightBoostEnabled)
    }

    @Test("video HDR rolls highlights off instead of clipping them; automatic HDR turns on for a scene too bright to expose")
    func videoHDR() async throws {
        var rig = try await Rig()
        defer { rig.live.stop() }
        let device = rig.device
        let everything = MeterRect(x: 0, y: 0, width: 1, height: 1)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(device.isVideoHDRSupported && device.automaticallyAdjustsVideoHDREnabled && !device.isVideoHDREnabled)
        #expect(throws: CaptureError.self) { try device.setVideoHDREnabled(true) }
        try device.setAutomaticallyAdjustsVideoHDREnabled(false)
        // Twice the metered light: the background and the bright patches clip.
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: CaptureDevice.currentISO)
        for _ in 0..<3 { try await rig.live.next() }
        let clipped = try AutoModesTests.statistics(try await rig.live.next(), everything).clippedFraction
        try device.setVideoHDREnabled(true)
        for _ in 0..<3 { try await rig.live.next() }
        let mapped = try await rig.live.next()
        let rolled = try AutoModesTests.statistics(mapped, everything).clippedFraction
        #expect(clipped > 0.4 && rolled < 0.05, "clipped \(clipped) without HDR, \(rolled) with")
        #expect(try AutoModesTests.patch(mapped, index: 0).1 == 0 && AutoModesTests.patch(mapped, index: 1).1 == 102, "shadows untouched")

        try device.setVideoHDREnabled(false)
        try device.setAutomaticallyAdjustsVideoHDREnabled(true)
        try device.setExposureMode(.continuousAutoExposure)
        device.setVirtualSceneLight(ev: 9)
        _ = try await rig.live.frames(until: { device.isVideoHDREnabled }, minimum: 3, "offset \(device.exposureTargetOffset)")
        device.setVirtualSceneLight(ev: 0)
        _ = try await rig.live.frames(until: { !device.isVideoHDREnabled }, minimum: 3, "offset \(device.exposureTargetOffset)")
    }
}

@Suite("Auto torch", .ownDevices, .serialized)
struct AutoTorchTests {
    @Test("auto torch lights when auto exposure runs out in a dark scene, and goes out when the light comes back")
    func autoTorch() async throws {
        let device = CaptureDevice.find(virtual: .back)
        var live = try await LiveFrames(device: device)
        defer { live.stop() }
        try device.lockForConfiguration()
        defer {
            try? device.setTorchMode(.off)
            device.unlockForConfiguration()
        }
        #expect(device.isTorchModeSupported(.auto))
        try device.setTorchMode(.auto)
        for _ in 0..<5 { try await live.next() }
        #expect(!device.isTorchActive, "a normally lit scene")
        device.setVirtualSceneLight(ev: -7)
        _ = try await live.frames(until: { device.isTorchActive }, "offset \(device.exposureTargetOffset) ISO \(device.iso)")
        #expect(device.torchMode == .auto && device.torchLevel == 1)
        device.setVirtualSceneLight(ev: 0)
        _ = try await live.frames(until: { !device.isTorchActive }, "exposure \(device.exposureDuration) ISO \(device.iso)")
    }
}
