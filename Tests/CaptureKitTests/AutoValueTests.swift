import CaptureKitV4L2
import Foundation
import Testing
@testable import CaptureKit

/// A camera's own automatic values, read back from its controls (`AutoValueReadback`), on the
/// recorded control table of a C920 (which has auto exposure, continuous focus and automatic
/// white balance of its own). The polling of a live driver is checked on vivid
/// (`V4L2LiveTests`, in scripts/v4l2vm-e2e.sh).
@Suite("Auto values read back", .ownDevices)
struct AutoValueTests {
    @Test("a value that changed within the last three readings is adjusting; the first reading is not a change")
    func adjustment() {
        var adjustment = AutoAdjustment()
        let base = AutoValues(exposureDuration: CaptureTime(value: 1, timescale: 30), iso: 100, lensPosition: 0.5,
                              whiteBalanceGains: .init(redGain: 2, greenGain: 1, blueGain: 1.5))
        #expect(adjustment.take(base) == .init())
        var brighter = base
        brighter.iso = 200
        #expect(adjustment.take(brighter) == .init(exposure: true))
        #expect(adjustment.take(brighter) == .init(exposure: true))
        var focused = brighter
        focused.lensPosition = 0.4
        #expect(adjustment.take(focused) == .init(exposure: true, focus: true))
        #expect(adjustment.take(focused) == .init(exposure: false, focus: true), "three readings without a change settle")
        #expect(adjustment.take(focused) == .init(focus: true))
        #expect(adjustment.take(focused) == .init())
    }

    @Test("the C920's switches: auto exposure in aperture priority, continuous focus on, automatic white balance off")
    func switches() throws {
        let mapping = V4L2ControlMapping(try V4L2ControlTests.table("logitech-c920"))
        let switches = mapping.automaticSwitches
        #expect(switches.exposure.map(\.name).contains("auto_exposure") && switches.focus.count == 1 && switches.whiteBalance.count == 1)
        let values = Dictionary(uniqueKeysWithValues: switches.all.compactMap { control in control.value.map { (control.id, $0) } })
        #expect(V4L2AutomaticSwitches.anyOn(switches.exposure, in: values), "auto_exposure=3")
        #expect(V4L2AutomaticSwitches.anyOn(switches.focus, in: values))
        #expect(!V4L2AutomaticSwitches.anyOn(switches.whiteBalance, in: values), "recorded with white_balance_automatic=0")
        let manual = Dictionary(uniqueKeysWithValues: switches.exposure.map { ($0.id, Int64($0.name == "auto_exposure" ? 1 : 0)) })
        #expect(!V4L2AutomaticSwitches.anyOn(switches.exposure, in: manual), "auto_exposure=1 is manual")
        #expect(V4L2Controller(mapping: mapping, path: "/dev/null").readsAutoValues)
    }

    @Test("values the camera moves by itself reach the device's properties and their observers; others stay")
    func applied() async throws {
        let device = try V4L2SeedControlTests.camera("logitech-c920")
        let (duration, lens, gains) = (device.exposureDuration, device.lensPosition, device.deviceWhiteBalanceGains)
        var isos = device.values(of: \.iso).makeAsyncIterator()
        let first = await isos.next()
        let read = AutoValues(exposureDuration: CaptureTime(value: 1, timescale: 50), iso: 400, lensPosition: 0.25,
                              whiteBalanceGains: .init(redGain: 1.8, greenGain: 1, blueGain: 1.4), exposureIsAutomatic: false,
                              focusIsAutomatic: false, whiteBalanceIsAutomatic: false)
        device.applyAutoValues(read, adjusting: .init(exposure: true, focus: true, whiteBalance: true))
        #expect(device.iso == first && device.exposureDuration == duration && device.lensPosition == lens && device.deviceWhiteBalanceGains == gains,
                "switches off: CaptureKit's values stay")
        #expect(!device.isAdjustingExposure && !device.isAdjustingFocus)
        var automatic = read
        (automatic.exposureIsAutomatic, automatic.focusIsAutomatic, automatic.whiteBalanceIsAutomatic) = (true, true, true)
        device.applyAutoValues(automatic, adjusting: .init(exposure: true, focus: false, whiteBalance: true))
        #expect(await isos.next() == 400, "observers hear the ISO the camera reached")
        #expect(device.exposureDuration == CaptureTime(value: 1, timescale: 50) && device.lensPosition == 0.25)
        #expect(device.deviceWhiteBalanceGains == CaptureDevice.WhiteBalanceGains(redGain: 1.8, greenGain: 1, blueGain: 1.4))
        #expect(device.isAdjustingExposure && !device.isAdjustingFocus && device.isAdjustingWhiteBalance)
    }
}
