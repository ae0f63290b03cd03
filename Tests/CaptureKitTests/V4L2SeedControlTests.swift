import Foundation
import Testing
@_spi(Plan) @testable import CaptureKit

/// The seed controls on V4L2 cameras, from recorded control tables of real webcams: what gets
/// written (v4l2src extra-controls) for each AVFoundation call.
@Suite("V4L2 seed controls", .ownDevices)
struct V4L2SeedControlTests {
    /// A camera answering as the recorded webcam `fixture` does. Its uniqueID is the by-id link
    /// with a suffix of its own: the configuration lock of a V4L2 camera is a file named for the
    /// uniqueID, shared by every object of it in every process, and tests run side by side.
    static func camera(_ fixture: String) throws -> CaptureDevice {
        let mapping = V4L2ControlMapping(try V4L2ControlTests.table(fixture))
        let format = CaptureDevice.Format(pixelFormat: .yuy2, width: 640, height: 480,
                                          videoSupportedFrameRateRanges: [.init(minFrameRate: 30, maxFrameRate: 30)])
        return CaptureDevice(uniqueID: "/dev/v4l/by-id/\(fixture)-\(UUID().uuidString)", modelID: fixture, localizedName: fixture, manufacturer: "Logitech",
                             position: .unspecified, formats: [format], activeFormat: format, backend: V4L2Backend(path: "/dev/video-\(fixture)", mapping: mapping))
    }

    static func extraControls(_ device: CaptureDevice) -> String? {
        let chain = PipelineCompiler.sourceChain(.init(name: "input0", device: device, mediaType: .video, format: device.activeFormat, frameRate: 30))
        return chain[0].properties.first { $0.name == "extra-controls" }?.value.description
    }

    /// The frame rates the recorded `--list-formats-ext` table offers for one size of its
    /// first format (YUYV), as CaptureKit lists them: one range per discrete interval.
    static func recordedRates(_ fixture: String, size: String) throws -> [CaptureDevice.FrameRateRange] {
        let text = try String(contentsOf: V4L2ControlTests.fixtures.appendingPathComponent("\(fixture).formats.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex(of: "Size: Discrete \(size)"))
        return lines[(start + 1)...].prefix { $0.hasPrefix("Interval:") }.compactMap { line in
            let fps = line.split(separator: "(").last?.split(separator: " ").first.flatMap { Double($0) }
            return fps.map { .init(minFrameRate: $0, maxFrameRate: $0) }
        }
    }

    @Test("C920: the frame rate is chosen among the driver's recorded frame intervals between the two frame durations")
    func c920FrameIntervals() throws {
        let rates = try Self.recordedRates("logitech-c920", size: "640x480")
        #expect(rates.map(\.maxFrameRate) == [30, 24, 20, 15, 10, 7.5, 5])
        let base = try Self.camera("logitech-c920")
        let format = CaptureDevice.Format(pixelFormat: .yuy2, width: 640, height: 480, videoSupportedFrameRateRanges: rates)
        let device = CaptureDevice(uniqueID: base.uniqueID + "-intervals", modelID: base.modelID, localizedName: base.localizedName,
                                   manufacturer: base.manufacturer, position: .unspecified, formats: [format], activeFormat: format,
                                   backend: base.backend)
        func caps() -> String? {
            let chain = PipelineCompiler.sourceChain(.init(name: "input0", device: device, mediaType: .video, format: format, frameRate: 30))
            return chain.first { $0.name == "input0_caps" }?.properties.first?.value.description
        }
        func exposing(_ timescale: Int32) throws -> String? {
            try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: timescale), iso: CaptureDevice.currentISO)
            return caps()
        }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(try exposing(20) == "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1", "a fixed rate by default")
        try device.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 15))
        #expect(try exposing(100) == "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1", "a short exposure keeps the fastest")
        #expect(try exposing(20) == "video/x-raw,format=YUY2,width=640,height=480,framerate=20/1", "1/20 s: the 0.050 s interval")
        #expect(try exposing(18) == "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1", "1/18 s: the next longer, 0.067 s")
        #expect(try exposing(10) == "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1", "never slower than the maximum")
        try device.setActiveVideoMaxFrameDuration(CaptureTime(value: 2, timescale: 15))
        #expect(caps() == "video/x-raw,format=YUY2,width=640,height=480,framerate=10/1", "1/10 s with a 0.133 s maximum")
        try device.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 15))
        try device.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 15))
        #expect(try exposing(100) == "video/x-raw,format=YUY2,width=640,height=480,framerate=15/1", "min = max = 1/15 s")
        #expect(throws: CaptureError.self, "12 fps is no interval the driver offers") {
            try device.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 12))
        }
    }

    @Test("C920: custom exposure writes manual mode, exposure time in 100 µs units and ISO as gain")
    func c920Exposure() async throws {
        let device = try Self.camera("logitech-c920")
        let mapping = try #require(device.v4l2Mapping)
        #expect(device.isExposureModeSupported(.custom) && device.isExposureModeSupported(.continuousAutoExposure))
        #expect(device.exposureLimits.duration == 0.0003...0.2047)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let done = AsyncStream<CaptureTime>.makeStream()
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 100), iso: 400) { done.continuation.yield($0) }
        var iterator = done.stream.makeAsyncIterator()
        #expect(await iterator.next() == .zero, "no session runs it: applied at start")
        let gain = try #require(mapping.gain(forISO: 400))
        #expect(Self.extraControls(device) == "c,auto_exposure=1,exposure_time_absolute=100,gain=\(gain)")
        #expect(device.exposureMode == .custom && device.iso == 400)
        #expect(throws: CaptureError.outOfRange(name: "exposure duration", value: 1, range: 0.0003...0.2047)) {
            try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 1), iso: CaptureDevice.currentISO)
        }
        try device.setExposureMode(.continuousAutoExposure)
        #expect(Self.extraControls(device)?.contains("auto_exposure=3") == true)
    }

    @Test("C920: locking the lens writes focus_automatic_continuous=0 and focus_absolute; the C270 has no focus")
    func focus() throws {
        let c920 = try Self.camera("logitech-c920")
        try c920.lockForConfiguration()
        defer { c920.unlockForConfiguration() }
        try c920.checked.setFocusModeLocked(lensPosition: 0.5)
        let value = try #require(c920.v4l2Mapping?.focusValue(forLensPosition: 0.5))
        #expect(Self.extraControls(c920)?.contains("focus_automatic_continuous=0") == true)
        #expect(Self.extraControls(c920)?.contains("focus_absolute=\(value)") == true)
        try c920.setFocusMode(.continuousAutoFocus)
        #expect(Self.extraControls(c920)?.contains("focus_automatic_continuous=1") == true)

        let c270 = try Self.camera("logitech-c270")
        #expect(!c270.isFocusModeSupported(.locked))
        try c270.lockForConfiguration()
        defer { c270.unlockForConfiguration() }
        #expect(throws: CaptureError.unsupported(feature: "locked focus", device: c270.uniqueID)) {
            try c270.checked.setFocusModeLocked(lensPosition: 0.5)
        }
    }

    @Test("C920: locked white balance writes the temperature the gains correct for; zoom writes zoom_absolute, or zooms digitally on the C270")
    func whiteBalanceAndZoom() throws {
        let c920 = try Self.camera("logitech-c920")
        #expect(c920.isWhiteBalanceModeSupported(.locked) && c920.isWhiteBalanceModeSupported(.continuousAutoWhiteBalance))
        try c920.lockForConfiguration()
        defer { c920.unlockForConfiguration() }
        try c920.checked.setWhiteBalanceModeLocked(with: c920.deviceWhiteBalanceGains(for: .init(temperature: 4000, tint: 0)))
        let controls = try #require(Self.extraControls(c920))
        #expect(controls.contains("white_balance_automatic=0"), "\(controls)")
        let kelvin = try #require(controls.split(separator: ",").first { $0.hasPrefix("white_balance_temperature=") }?.split(separator: "=").last.flatMap { Int($0) })
        #expect(abs(kelvin - 4000) <= 2, "\(kelvin)")
        try c920.setVideoZoomFactor(2)
        #expect(Self.extraControls(c920)?.contains("zoom_absolute=200") == true)
        #expect(throws: CaptureError.outOfRange(name: "video zoom factor", value: 6, range: 1...5)) { try c920.setVideoZoomFactor(6) }

        let c270 = try Self.camera("logitech-c270")
        try c270.lockForConfiguration()
        defer { c270.unlockForConfiguration() }
        // No zoom_absolute: digital zoom in the pipeline, up to 4×.
        #expect(c270.zoomsInPipeline && c270.maxZoomFactor == DigitalZoom.maxFactor)
        try c270.setVideoZoomFactor(2)
        #expect(Self.extraControls(c270)?.contains("zoom") != true)
        #expect(throws: CaptureError.outOfRange(name: "video zoom factor", value: 5, range: 1...4)) { try c270.setVideoZoomFactor(5) }
    }
}
