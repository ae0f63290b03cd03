import CaptureKit
import Foundation
import Testing

/// Runs the ports (code written as AVFoundation's samples write it, `AV` dropped) on the
/// virtual camera and checks what they produce.
extension SharedDevices {
    @Suite("Ported AVFoundation samples run", .serialized)
    struct PortedSampleTests {
        @Test("QRScanner (metadata output, delegate on the main queue) reads the virtual scene's QR code, then stops")
        func qrScanner() async throws {
            let scanner = QRScanner()
            let found = Found()
            scanner.didFindCode = { found.add($0) }
            scanner.startScanning()
            defer { scanner.stopScanning() }
            let codes = await found.wait { $0.contains("https://capturekit.dev/virtual-camera") }
            #expect(codes.contains("https://capturekit.dev/virtual-camera"), "\(codes)")
            #expect(Set(codes).isSubset(of: ["https://capturekit.dev/virtual-camera", "4006381333931"]), "only QR and EAN-13 were asked for: \(codes)")
        }

        @Test("FrameExtractor (video data output, CMSampleBuffer and CVPixelBuffer calls) gets BGRA frames, portrait as its connection asks")
        func frameExtractor() async throws {
            let extractor = FrameExtractor()
            #expect(extractor.setUp())
            let means = Found()
            extractor.onFrame = { mean, time in means.add("\(mean) \(CMTimeGetSeconds(time))") }
            extractor.start()
            defer { extractor.stop() }
            let frames = await means.wait { $0.count >= 5 }
            #expect(frames.count >= 5)
            let values = frames.compactMap { Double($0.split(separator: " ")[0]) }
            #expect(values.allSatisfy { (20...235).contains($0) }, "mean green of the virtual scene: \(values)")
            let times = frames.compactMap { Double($0.split(separator: " ")[1]) }
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 1 / 15 - 0.001 }, "at most fps frames a second: \(times)")
            #expect(extractor.lastSize.height > extractor.lastSize.width, "portrait: \(extractor.lastSize)")
        }
    }
}

/// Strings a port reports from its own queue, for the test to wait on.
final class Found: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) { lock.withLock { items.append(item) } }

    var all: [String] { lock.withLock { items } }

    func wait(seconds: Double = 10, until done: ([String]) -> Bool) async -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let now = lock.withLock { items }
            if done(now) { return now }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return lock.withLock { items }
    }
}

/// AVCamManual's slider mappings, observed by block KVO as that sample observes them.
extension SharedDevices {
    @Suite("Ported manual controls", .serialized)
    struct ManualControlsPortTests {
        @Test("ManualControls (AVCamManual's mappings and KVO) sets lens, exposure up to the format's 1 s, ISO and white balance; its observations follow")
        func manualControls() async throws {
            let device = try #require(CaptureDevice.default(for: .video))
            let session = CaptureSession()
            session.sessionPreset = .vga640x480
            session.addInput(try CaptureDeviceInput(device: device))
            session.addOutput(VideoDataOutput())
            session.startRunning()
            defer {
                session.stopRunning()
                if (try? device.lockForConfiguration()) != nil {
                    device.setExposureModeCustom(duration: CMTimeMake(value: 1, timescale: 120), iso: 100, completionHandler: nil)
                    device.exposureMode = .continuousAutoExposure
                    device.activeVideoMaxFrameDuration = CaptureDevice.defaultFrameDuration
                    device.unlockForConfiguration()
                }
            }
            let controls: ManualControls? = ManualControls(device: device)
            let ui = try #require(controls)
            #expect(ui.shownISO == device.iso, ".initial reports at once")

            ui.setLensPosition(0.3)
            #expect(await Self.eventually { ui.shownLensPosition == 0.3 }, "\(ui.shownLensPosition)")
            ui.setExposureDuration(1.0)
            #expect(device.exposureDuration == device.activeFormat.maxExposureDuration, "the slider's top is the format's longest exposure")
            #expect(device.activeVideoMaxFrameDuration == CMTimeMake(value: 1, timescale: 1), "the frames lengthen to hold it")
            #expect(await Self.eventually { ui.shownExposure == "1/1" }, "\(ui.shownExposure)")
            ui.setExposureDuration(0.5)
            #expect(await Self.eventually { ui.shownExposure == "1/31" }, "\(ui.shownExposure)")
            ui.setISO(0.5)
            #expect(device.iso == 1625)
            #expect(await Self.eventually { ui.shownISO == 1625 }, "\(ui.shownISO)")
            ui.setWhiteBalance(temperature: 5000, tint: 0)
            #expect(device.whiteBalanceMode == .locked)
            ui.setAutomatic()
            #expect(device.focusMode == .continuousAutoFocus && device.exposureMode == .continuousAutoExposure && device.whiteBalanceMode == .continuousAutoWhiteBalance)
            #expect(!device.isLockedForConfiguration)

            _ = controls
        }

        @Test("observe(_:options:changeHandler:) reports old and new values until its token is invalidated or released; a session's isRunning too")
        func keyValueObserving() async throws {
            let device = try #require(CaptureDevice.default(for: .video))
            let seen = Found()
            var kept: NSKeyValueObservation? = device.observe(\.videoZoomFactor, options: [.old, .new]) { _, change in
                seen.add("kept \(change.oldValue ?? 0)→\(change.newValue ?? 0)")
            }
            var released: NSKeyValueObservation? = device.observe(\.videoZoomFactor, options: .new) { _, change in
                seen.add("released \(change.newValue ?? 0)")
            }
            released = nil
            try device.lockForConfiguration()
            defer {
                device.videoZoomFactor = 1
                device.unlockForConfiguration()
            }
            device.videoZoomFactor = 2
            #expect(await Self.eventually { seen.all.contains("kept 1.0→2.0") }, "\(seen.all)")
            kept?.invalidate()
            device.videoZoomFactor = 3
            try await Task.sleep(for: .milliseconds(200))
            #expect(seen.all == ["kept 1.0→2.0"], "nothing after invalidation, nothing from a released token: \(seen.all)")
            _ = (kept, released)
            kept = nil

            let session = CaptureSession()
            session.addInput(try CaptureDeviceInput(device: device))
            session.addOutput(VideoDataOutput())
            let running = session.observe(\.isRunning, options: [.initial, .new]) { _, change in seen.add("running \(change.newValue ?? false)") }
            session.startRunning()
            #expect(await Self.eventually { seen.all.last == "running true" }, "\(seen.all)")
            session.stopRunning()
            #expect(await Self.eventually { seen.all.suffix(3) == ["running false", "running true", "running false"] }, "\(seen.all)")
            running.invalidate()
        }

        static func eventually(_ condition: () -> Bool) async -> Bool {
            for _ in 0..<300 {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return condition()
        }
    }
}
