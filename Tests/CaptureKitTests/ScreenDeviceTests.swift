import Foundation
import Testing
@testable import CaptureKit

/// The screen device: an X display's screen found through `$DISPLAY`, recordable like a camera,
/// judged under an Xvfb server of the test's own (800x600, 24-bit).
@Suite("Screen device", .ownDevices, .serialized)
struct ScreenDeviceTests {
    static let xvfbMissing = "Xvfb is not installed (make test installs it: scripts/apt-packages.txt)"

    /// Runs `body` with `$DISPLAY` naming `display` (unset for nil), then restores it.
    static func withDisplay<T>(_ display: String?, _ body: () async throws -> T) async rethrows -> T {
        let saved = ProcessInfo.processInfo.environment["DISPLAY"]
        setDisplay(display)
        defer { setDisplay(saved) }
        return try await body()
    }

    private static func setDisplay(_ display: String?) {
        if let display { setenv("DISPLAY", display, 1) } else { unsetenv("DISPLAY") }
    }

    /// The screen `devices(for: .video)` lists for `xvfb`.
    static func screen(of xvfb: XvfbDisplay) throws -> CaptureDevice {
        try #require(CaptureDevice.devices(for: .video).first { $0.uniqueID == "screen:\(xvfb.name)" },
                     "\(CaptureDevice.devices(for: .video).map(\.uniqueID))")
    }

    /// Blue, green and red of the pixel at `x`, `y` of a BGRx frame.
    static func colour(of sample: SampleBuffer, x: Int, y: Int) throws -> [UInt8] {
        let stride = try #require(sample.formatDescription.bytesPerRow.first)
        return try sample.withUnsafeBytes { bytes in (0..<3).map { bytes[y * stride + x * 4 + $0] } }
    }

    @Test("with $DISPLAY unset there is no screen device, and find(\"screen\") throws deviceNotFound naming the devices there are")
    func noDisplay() async throws {
        await Self.withDisplay(nil) {
            #expect(!CaptureDevice.devices().contains { $0.uniqueID.hasPrefix("screen:") }, "\(CaptureDevice.devices().map(\.uniqueID))")
            let available = CaptureDevice.devices().enumerated().map { "\($0.offset): \($0.element.uniqueID)" }
            #expect(throws: CaptureError.deviceNotFound("screen", available: available)) { try CaptureDevice.find("screen") }
            #expect(CaptureDevice(uniqueID: "screen:") == nil)
        }
    }

    @Test("under Xvfb the screen is listed with its size, found by \"screen\" and uniqueID as one device, never the default camera, and has no camera controls",
          .enabled(if: XvfbDisplay.isInstalled, Comment(rawValue: xvfbMissing)))
    func discovered() async throws {
        let xvfb = try XvfbDisplay(width: 800, height: 600)
        try await Self.withDisplay(xvfb.name) {
            let screen = try Self.screen(of: xvfb)
            #expect(screen.localizedName == "Screen \(xvfb.name)")
            #expect(screen.position == .unspecified && screen.hasMediaType(.video) && !screen.hasMediaType(.audio))
            #expect(screen.formats == [screen.activeFormat])
            #expect(screen.activeFormat.width == 800 && screen.activeFormat.height == 600 && screen.activeFormat.pixelFormat == .bgrx)
            #expect(screen.activeFormat.videoSupportedFrameRateRanges == [.init(minFrameRate: 1, maxFrameRate: 60)])
            #expect(screen.activeVideoMinFrameDuration == CaptureTime(value: 1, timescale: 30), "30 fps unless told")
            #expect(try CaptureDevice.find("screen") === screen)
            #expect(try CaptureDevice.find(screen.uniqueID) === screen)
            #expect(try #require(CaptureDevice(uniqueID: screen.uniqueID)) == screen)
            #expect(try Self.screen(of: xvfb) === screen, "a second listing gives the same device")
            #expect(CaptureDevice.default(for: .video)?.uniqueID != screen.uniqueID)
            #expect(CaptureDevice.ExposureMode.allCases.allSatisfy { !screen.isExposureModeSupported($0) })
            #expect(CaptureDevice.FocusMode.allCases.allSatisfy { !screen.isFocusModeSupported($0) })
            #expect(CaptureDevice.WhiteBalanceMode.allCases.allSatisfy { !screen.isWhiteBalanceModeSupported($0) })
            #expect(!screen.hasTorch && !screen.hasFlash && screen.activeFormat.videoMaxZoomFactor == 1)
            try screen.lockForConfiguration()
            defer { screen.unlockForConfiguration() }
            #expect(throws: CaptureError.unsupported(feature: "focus mode continuousAutoFocus", device: screen.uniqueID)) {
                try screen.setFocusMode(.continuousAutoFocus)
            }
            #expect(throws: CaptureError.unsupported(feature: "exposure mode continuousAutoExposure", device: screen.uniqueID)) {
                try screen.setExposureMode(.continuousAutoExposure)
            }
            #expect(throws: CaptureError.unsupported(feature: "torch mode off", device: screen.uniqueID)) { try screen.setTorchMode(.off) }
        }
        #expect(CaptureDevice(uniqueID: "screen:\(xvfb.name)") != nil, "found by uniqueID whether or not $DISPLAY names it")
    }

    @Test("a movie of the screen is H.264 at 800x600 with a frame a 1/30 s recorded, showing what the screen shows",
          .enabled(if: XvfbDisplay.isInstalled, Comment(rawValue: xvfbMissing)))
    func recording() async throws {
        let xvfb = try XvfbDisplay(width: 800, height: 600)
        try xvfb.paint("#ff0000")
        let screen = try await Self.withDisplay(xvfb.name) { try Self.screen(of: xvfb) }
        let (url, events, movie) = try await MovieFileOutputTests.record("mp4", seconds: 1.5, audio: false, device: screen, preset: .high)
        #expect(events.all == [.started(url), .finished(url, nil)])
        let probe = try MovieProbe(url.path)
        let video = try #require(probe.video, "\(probe)")
        #expect(video.codec == "h264" && video.width == 800 && video.height == 600)
        let recorded = movie.recordedDuration.seconds
        #expect(abs(Double(video.frames) / 30 - recorded) <= 1.0 / 30 + 1e-6, "\(video.frames) frames for \(recorded) s recorded")
        // A frame of the last 0.2 s, decoded: red (within the encoder's error) away from the pointer in the middle.
        let frame = url.deletingPathExtension().appendingPathExtension("rgb")
        try run("/usr/bin/ffmpeg", ["-v", "error", "-sseof", "-0.2", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", frame.path])
        let pixels = try Data(contentsOf: frame)
        try #require(pixels.count == 800 * 600 * 3, "\(pixels.count) bytes decoded")
        let corner = Array(pixels[(100 * 800 + 100) * 3 ..< (100 * 800 + 100) * 3 + 3])
        #expect(corner[0] > 230 && corner[1] < 25 && corner[2] < 25, "RGB \(corner)")
    }

    @Test("frames of the screen show what is drawn on it as it changes",
          .enabled(if: XvfbDisplay.isInstalled, Comment(rawValue: xvfbMissing)))
    func pixels() async throws {
        let xvfb = try XvfbDisplay(width: 800, height: 600)
        let screen = try await Self.withDisplay(xvfb.name) { try Self.screen(of: xvfb) }
        var frames = try await LiveFrames(device: screen, preset: .high)
        defer { frames.test.session.stopRunning() }
        let first = try await frames.next()
        #expect(first.formatDescription.pixelFormat == .bgrx && first.formatDescription.width == 800 && first.formatDescription.height == 600)
        // BGR at two places away from the pointer in the middle, until the painted window shows.
        for (colour, bgr) in [("#ff0000", [UInt8(0), 0, 255]), ("#0000ff", [255, 0, 0])] {
            try xvfb.paint(colour)
            var shown = false
            for _ in 0..<60 where !shown {
                let frame = try await frames.next()
                shown = try Self.colour(of: frame, x: 100, y: 100) == bgr && Self.colour(of: frame, x: 700, y: 500) == bgr
            }
            #expect(shown, "the screen showed \(colour) within 60 frames")
        }
    }
}
