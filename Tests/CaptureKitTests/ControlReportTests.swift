import Foundation
import Testing
@testable import CaptureKit

/// `ControlReport`, what `capture controls --json` prints: AVFoundation's names with numbers,
/// ranges and units; V4L2 controls from recorded tables with their types, ranges and menus.
@Suite("Control report", .ownDevices, .serialized)
struct ControlReportTests {
    @Test("the virtual camera's report carries its live values and ranges, and decodes back as written")
    func virtualReport() throws {
        let device = try #require(CaptureDevice(uniqueID: "virtual:back", context: TestContext.current))
        try device.lockForConfiguration()
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: 400)
        try device.checked.setExposureTargetBias(-1.5)
        try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1.25, blueGain: 2.5))
        try device.checked.setFocusModeLocked(lensPosition: 0.3)
        device.unlockForConfiguration()
        defer {
            try? device.lockForConfiguration()
            try? device.setExposureMode(.continuousAutoExposure)
            try? device.checked.setExposureTargetBias(0)
            try? device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
            try? device.setFocusMode(.continuousAutoFocus)
            device.unlockForConfiguration()
        }
        let report = try device.controlReport()
        #expect(report.serializationVersion == 1 && report.uniqueID == "virtual:back")
        #expect(report.exposureMode == .init(value: "custom", supported: ["locked", "autoExpose", "continuousAutoExposure", "custom"]))
        #expect(report.exposureDuration.value == 1.0 / 60 && report.exposureDuration.unit == "s")
        #expect(report.exposureDuration.min == device.activeFormat.minExposureDuration.seconds)
        #expect(report.iso == .init(value: 400, min: 50, max: 3200))
        #expect(report.exposureTargetBias == .init(value: -1.5, min: -8, max: 8, unit: "EV"))
        #expect(report.deviceWhiteBalanceGains == .init(red: 1, green: 1.25, blue: 2.5, min: 1, max: 8))
        #expect(report.whiteBalanceMode.value == "locked")
        let balance = device.temperatureAndTintValues(for: device.deviceWhiteBalanceGains)
        #expect(abs(report.temperature.value - Double(balance.temperature)) < 0.01 && report.temperature.unit == "K")
        #expect(report.lensPosition == .init(value: 0.3, min: 0, max: 1), "a Float's 0.3 is written as 0.3")
        #expect(report.focusMode.value == "locked")
        #expect(report.activeFormat.width == device.activeFormat.width && report.activeFormat.frameRate == 30)
        #expect(report.v4l2Controls == nil)
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(ControlReport.self, from: data) == report)
    }

    @Test("the front camera, which has neither, reports no torch mode and no flash mode but off, as isTorchModeSupported and isFlashModeSupported say")
    func frontReport() throws {
        let report = try #require(CaptureDevice(uniqueID: "virtual:front", context: TestContext.current)).controlReport()
        #expect(report.torchMode.supported.isEmpty && report.flashMode.supported == ["off"])
    }

    @Test("V4L2 controls keep their v4l2-ctl names, types, ranges, flags and menus (Logitech C270, recorded)")
    func v4l2Controls() throws {
        let table = try V4L2ControlTests.table("logitech-c270")
        let controls = table.controls.map(ControlReport.V4L2Control.init)
        let power = try #require(controls.first { $0.name == "power_line_frequency" })
        #expect(power.type == "menu" && power.value == 2 && power.min == 0 && power.max == 2 && power.default == 2)
        #expect(power.menu == [.init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz"), .init(index: 2, name: "60 Hz")])
        let exposure = try #require(controls.first { $0.name == "auto_exposure" })
        #expect(exposure.menu.map(\.index) == [1, 3], "menus may skip indices")
        let temperature = try #require(controls.first { $0.name == "white_balance_temperature" })
        #expect(temperature.type == "int" && temperature.step == 10 && temperature.max == 10000 && temperature.flags == ["inactive"])
        #expect(controls.first { $0.name == "white_balance_automatic" }?.type == "bool")
        let json = String(decoding: try JSONEncoder().encode(power), as: UTF8.self)
        #expect(json.contains("\"default\":2"), "\(json)")
    }
}
