import CaptureKitV4L2
import Foundation
import GStreamerSwift
import Testing
@testable import CaptureKit

/// V4L2 control discovery and mapping: recorded `v4l2-ctl` tables of real cameras
/// (test resources in Fixtures/v4l2, each naming its source camera), old control names, malformed input, and a
/// live check against the kernel's vivid driver where /dev/video0 exists (the v4l2vm guest).
@Suite("V4L2 controls", .ownDevices)
struct V4L2ControlTests {
    typealias Capability = V4L2ControlMapping.Capability

    /// The recorded tables, copied into the test bundle's resources (Fixtures/v4l2).
    static let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/v4l2")

    static func table(_ camera: String) throws -> V4L2ControlTable {
        let text = try String(contentsOf: fixtures.appendingPathComponent("\(camera).ctrls.txt"), encoding: .utf8)
        return try V4L2ControlTable(parsing: text)
    }

    // MARK: Fixtures

    /// What every capability maps to on each recorded camera, exactly.
    static let expected: [String: [Capability: String]] = [
        // Fixed focus, no zoom; current kernel names, -L with menus.
        "logitech-c270": [
            .focusContinuous: "unsupported",
            .focusAutoOnce: "unsupported",
            .focusLocked: "unsupported",
            .lensPosition: "unsupported",
            .autoFocusRangeRestriction: "unsupported",
            .smoothAutoFocus: "unsupported",
            .exposureContinuous: "device(auto_exposure=3)",
            .exposureLocked: "device(auto_exposure=1)",
            .exposureCustom: "device(auto_exposure=1, exposure_time_absolute 1…10000 step 1, gain 0…255 step 1)",
            .exposureDuration: "device(auto_exposure=1, exposure_time_absolute 1…10000 step 1)",
            .iso: "device(gain 0…255 step 1)",
            .exposureTargetBias: "software(exposureLoop)",
            .exposureTargetOffset: "software(exposureMetering)",
            .whiteBalanceContinuous: "device(white_balance_automatic=1)",
            .whiteBalanceLocked: "device(white_balance_automatic=0)",
            .whiteBalanceGains: "device(white_balance_automatic=0, white_balance_temperature 0…10000 step 10)",
            .grayWorldGains: "software(grayWorld)",
            .zoom: "software(digitalZoom)",
            .torch: "unsupported",
            .flash: "unsupported",
            .lowLightBoost: "device(exposure_dynamic_framerate=1)",
            .videoHDR: "unsupported",
            .subjectAreaChangeMonitoring: "software(subjectAreaChangeDetector)",
        ],
        // Autofocus and zoom under uvcvideo's old names, -l without menus.
        "logitech-c615": [
            .focusContinuous: "device(focus_auto=1)",
            .focusAutoOnce: "software(contrastDetectAutoFocus)",
            .focusLocked: "device(focus_auto=0, focus_absolute 0…255 step 17)",
            .lensPosition: "device(focus_auto=0, focus_absolute 0…255 step 17)",
            .autoFocusRangeRestriction: "unsupported",
            .smoothAutoFocus: "software(lensMoveSmoothing)",
            .exposureContinuous: "device(exposure_auto=3)",
            .exposureLocked: "device(exposure_auto=1)",
            .exposureCustom: "device(exposure_auto=1, exposure_absolute 3…2047 step 1, gain 0…255 step 1)",
            .exposureDuration: "device(exposure_auto=1, exposure_absolute 3…2047 step 1)",
            .iso: "device(gain 0…255 step 1)",
            .exposureTargetBias: "software(exposureLoop)",
            .exposureTargetOffset: "software(exposureMetering)",
            .whiteBalanceContinuous: "device(white_balance_temperature_auto=1)",
            .whiteBalanceLocked: "device(white_balance_temperature_auto=0)",
            .whiteBalanceGains: "device(white_balance_temperature_auto=0, white_balance_temperature 2800…6500 step 1)",
            .grayWorldGains: "software(grayWorld)",
            .zoom: "device(zoom_absolute 1…5 step 1)",
            .torch: "unsupported",
            .flash: "unsupported",
            .lowLightBoost: "device(exposure_auto_priority=1)",
            .videoHDR: "unsupported",
            .subjectAreaChangeMonitoring: "software(subjectAreaChangeDetector)",
        ],
        // Autofocus and zoom_absolute 100…500 (the C920 has optical-style zoom steps);
        // current names, --all with menus.
        "logitech-c920": [
            .focusContinuous: "device(focus_automatic_continuous=1)",
            .focusAutoOnce: "software(contrastDetectAutoFocus)",
            .focusLocked: "device(focus_automatic_continuous=0, focus_absolute 0…250 step 5)",
            .lensPosition: "device(focus_automatic_continuous=0, focus_absolute 0…250 step 5)",
            .autoFocusRangeRestriction: "unsupported",
            .smoothAutoFocus: "software(lensMoveSmoothing)",
            .exposureContinuous: "device(auto_exposure=3)",
            .exposureLocked: "device(auto_exposure=1)",
            .exposureCustom: "device(auto_exposure=1, exposure_time_absolute 3…2047 step 1, gain 0…255 step 1)",
            .exposureDuration: "device(auto_exposure=1, exposure_time_absolute 3…2047 step 1)",
            .iso: "device(gain 0…255 step 1)",
            .exposureTargetBias: "software(exposureLoop)",
            .exposureTargetOffset: "software(exposureMetering)",
            .whiteBalanceContinuous: "device(white_balance_automatic=1)",
            .whiteBalanceLocked: "device(white_balance_automatic=0)",
            .whiteBalanceGains: "device(white_balance_automatic=0, white_balance_temperature 2000…6500 step 1)",
            .grayWorldGains: "software(grayWorld)",
            .zoom: "device(zoom_absolute 100…500 step 1)",
            .torch: "unsupported",
            .flash: "unsupported",
            .lowLightBoost: "device(exposure_dynamic_framerate=1)",
            .videoHDR: "unsupported",
            .subjectAreaChangeMonitoring: "software(subjectAreaChangeDetector)",
        ],
        // Like the C920 with a wider temperature range and zoom to 4×; -l without menus.
        "logitech-c930e": [
            .focusContinuous: "device(focus_automatic_continuous=1)",
            .focusAutoOnce: "software(contrastDetectAutoFocus)",
            .focusLocked: "device(focus_automatic_continuous=0, focus_absolute 0…255 step 5)",
            .lensPosition: "device(focus_automatic_continuous=0, focus_absolute 0…255 step 5)",
            .autoFocusRangeRestriction: "unsupported",
            .smoothAutoFocus: "software(lensMoveSmoothing)",
            .exposureContinuous: "device(auto_exposure=3)",
            .exposureLocked: "device(auto_exposure=1)",
            .exposureCustom: "device(auto_exposure=1, exposure_time_absolute 3…2047 step 1, gain 0…255 step 1)",
            .exposureDuration: "device(auto_exposure=1, exposure_time_absolute 3…2047 step 1)",
            .iso: "device(gain 0…255 step 1)",
            .exposureTargetBias: "software(exposureLoop)",
            .exposureTargetOffset: "software(exposureMetering)",
            .whiteBalanceContinuous: "device(white_balance_automatic=1)",
            .whiteBalanceLocked: "device(white_balance_automatic=0)",
            .whiteBalanceGains: "device(white_balance_automatic=0, white_balance_temperature 2000…7500 step 1)",
            .grayWorldGains: "software(grayWorld)",
            .zoom: "device(zoom_absolute 100…400 step 1)",
            .torch: "unsupported",
            .flash: "unsupported",
            .lowLightBoost: "device(exposure_dynamic_framerate=1)",
            .videoHDR: "unsupported",
            .subjectAreaChangeMonitoring: "software(subjectAreaChangeDetector)",
        ],
    ]

    @Test("every recorded table in Fixtures/v4l2 parses and has an expected mapping")
    func everyFixtureIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { $0.hasSuffix(".ctrls.txt") }.sorted()
        #expect(files.map { String($0.dropLast(".ctrls.txt".count)) } == Self.expected.keys.sorted())
        for file in files {
            let table = try Self.table(String(file.dropLast(".ctrls.txt".count)))
            #expect(!table.controls.isEmpty, "\(file)")
            let text = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
            #expect(text.hasPrefix("# Camera: ") && text.contains("\n# Source: "), "\(file) names its camera and source")
        }
    }

    @Test("each capability maps exactly as expected", arguments: ["logitech-c270", "logitech-c615", "logitech-c920", "logitech-c930e"])
    func capabilities(camera: String) throws {
        let mapping = V4L2ControlMapping(try Self.table(camera))
        let expected = try #require(Self.expected[camera])
        for capability in Capability.allCases {
            #expect(mapping[capability].description == expected[capability], "\(camera) \(capability)")
        }
    }

    @Test("the tables hold every control line, with ids, flags and menus as printed")
    func tableContents() throws {
        let c270 = try Self.table("logitech-c270")
        #expect(c270.controls.map(\.name) == [
            "brightness", "contrast", "saturation", "white_balance_automatic", "gain", "power_line_frequency",
            "white_balance_temperature", "sharpness", "backlight_compensation", "auto_exposure",
            "exposure_time_absolute", "exposure_dynamic_framerate",
        ])
        #expect(c270["power_line_frequency"]?.menu == [.init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz"), .init(index: 2, name: "60 Hz")])
        #expect(c270["auto_exposure"] == V4L2ControlInfo(
            id: 0x009a_0901, name: "auto_exposure", type: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3, value: 3,
            menu: [.init(index: 1, name: "Manual Mode"), .init(index: 3, name: "Aperture Priority Mode")]))
        #expect(c270["exposure_time_absolute"] == V4L2ControlInfo(
            id: 0x009a_0902, name: "exposure_time_absolute", type: .int, minimum: 1, maximum: 10000, step: 1,
            defaultValue: 166, value: 166, flags: .inactive))
        #expect(c270["exposure_dynamic_framerate"] == V4L2ControlInfo(
            id: 0x009a_0903, name: "exposure_dynamic_framerate", type: .bool, minimum: 0, maximum: 1, step: 1, defaultValue: 0, value: 1))

        let c615 = try Self.table("logitech-c615")
        #expect(c615.controls.count == 17)
        #expect(c615.controls.allSatisfy { $0.menu.isEmpty }) // -l prints no menu items
        #expect(c615["Exposure, Auto"]?.id == 0x009a_0901) // the kernel's old name finds it too
        #expect(c615["focus_absolute"]?.flags == .inactive)

        let c920 = try Self.table("logitech-c920")
        #expect(c920.controls.count == 17)
        #expect(c920["focus_absolute"] == V4L2ControlInfo(
            id: 0x009a_090a, name: "focus_absolute", type: .int, minimum: 0, maximum: 250, step: 5, defaultValue: 0, value: 0, flags: .inactive))
        #expect(c920["white_balance_automatic"]?.value == 0)
        #expect(c920["power_line_frequency"]?.menu.count == 3) // tab-indented items

        let c930e = try Self.table("logitech-c930e")
        #expect(c930e.controls.count == 17)
        #expect(c930e["auto_exposure"]?.menu == [])
    }

    @Test("derived ranges: lens position, exposure durations, ISO, zoom factors, temperatures")
    func derivedRanges() throws {
        let c920 = V4L2ControlMapping(try Self.table("logitech-c920"))
        #expect(c920.focusRange == 0...250)
        #expect(c920.lensPosition(forFocusValue: 0) == 1) // V4L2: larger is closer
        #expect(c920.lensPosition(forFocusValue: 250) == 0)
        #expect(c920.focusValue(forLensPosition: 0.5) == 125)
        #expect(c920.focusValue(forLensPosition: 0.312) == 170) // 172 → the 5-step grid
        #expect(c920.focusValue(forLensPosition: 2) == 0)
        let durations = try #require(c920.exposureDurationRange)
        #expect(durations.lowerBound == CaptureTime(value: 3, timescale: 10_000)) // 0.3 ms
        #expect(durations.upperBound == CaptureTime(value: 2047, timescale: 10_000)) // 204.7 ms
        #expect(abs(durations.lowerBound.seconds - 0.0003) < 1e-12 && abs(durations.upperBound.seconds - 0.2047) < 1e-12)
        #expect(c920.isoRange == 100...1600)
        #expect(c920.iso(forGain: 0) == 100 && c920.iso(forGain: 255) == 1600)
        #expect(c920.gain(forISO: 850) == 128)
        #expect(c920.zoomFactorRange == 1...5)
        #expect(c920.whiteBalanceTemperatureRange == 2000...6500)
        #expect(c920.exposureTargetBiasRange == nil)
        #expect(c920.torchLevelRange == nil)

        let c270 = V4L2ControlMapping(try Self.table("logitech-c270"))
        #expect(c270.focusRange == nil && c270.lensPosition(forFocusValue: 10) == nil)
        #expect(c270.exposureDurationRange == CaptureTime(value: 1, timescale: 10_000)...CaptureTime(value: 1, timescale: 1))
        #expect(c270.zoomFactorRange == nil)
        #expect(c270.whiteBalanceTemperatureRange == 0...10000)

        let c615 = V4L2ControlMapping(try Self.table("logitech-c615"))
        #expect(c615.zoomFactorRange == 1...5)
        #expect(c615.focusValue(forLensPosition: 0.5) == 136) // 127.5 on the 17-step grid
        #expect(V4L2ControlMapping(try Self.table("logitech-c930e")).zoomFactorRange == 1...4)
    }

    // MARK: Old names

    /// `v4l2-ctl` before 1.14 printed no ids, and before 2012 turned only spaces into `_`, so
    /// uvcvideo's old names came out as "exposure,_auto" and "focus_(absolute)".
    static let oldNames = """
                             brightness (int)    : min=0 max=255 step=1 default=128 value=128
        white_balance_temperature,_auto (bool)   : default=1 value=0
            white_balance_red_component (int)    : min=0 max=255 step=1 default=128 value=140
           white_balance_blue_component (int)    : min=0 max=255 step=1 default=128 value=120
                         exposure,_auto (menu)   : min=0 max=3 default=3 value=1
                    exposure_(absolute) (int)    : min=3 max=2047 step=1 default=166 value=300
                exposure,_auto_priority (bool)   : default=0 value=1
                       focus_(absolute) (int)    : min=0 max=255 step=17 default=51 value=51
                            focus,_auto (bool)   : default=1 value=1
                         zoom,_absolute (int)    : min=1 max=5 step=1 default=1 value=1
        """

    @Test("uvcvideo's old control names map like today's")
    func oldNameAliases() throws {
        let table = try V4L2ControlTable(parsing: Self.oldNames)
        #expect(table.controls.count == 10 && table.controls.allSatisfy { $0.id == 0 })
        #expect(table.controls[1].name == "white_balance_temperature,_auto") // kept as printed
        let mapping = V4L2ControlMapping(table)
        #expect(mapping[.exposureContinuous].description == "device(exposure_auto=3)")
        #expect(mapping[.exposureCustom].description == "device(exposure_auto=1, exposure_absolute 3…2047 step 1)")
        #expect(mapping[.focusContinuous].description == "device(focus_auto=1)")
        #expect(mapping[.lensPosition].description == "device(focus_auto=0, focus_absolute 0…255 step 17)")
        #expect(mapping[.whiteBalanceContinuous].description == "device(white_balance_temperature_auto=1)")
        #expect(mapping[.whiteBalanceGains].description
            == "device(white_balance_temperature_auto=0, white_balance_red_component 0…255 step 1, white_balance_blue_component 0…255 step 1)")
        #expect(mapping[.zoom].description == "device(zoom_absolute 1…5 step 1)")
        #expect(mapping[.lowLightBoost].description == "device(exposure_auto_priority=1)")
        #expect(mapping[.iso] == .unsupported) // no gain control
        #expect(mapping[.exposureTargetBias] == .software(.exposureLoop))

        // The same controls under the kernel's names, as an ioctl query names them.
        for (oldName, kernelName) in [("Exposure, Auto", "exposure_auto"), ("Exposure (Absolute)", "exposure_absolute"),
                                      ("Exposure, Auto Priority", "exposure_auto_priority"), ("Focus (absolute)", "focus_absolute"),
                                      ("Focus, Auto", "focus_auto"), ("White Balance Temperature, Auto", "white_balance_temperature_auto"),
                                      ("White Balance Component, Auto", "white_balance_component_auto"),
                                      ("Exposure Time, Absolute", "exposure_time_absolute"), ("Focus, Automatic Continuous", "focus_automatic_continuous"),
                                      ("Intensity, Torch Mode", "intensity_torch_mode")] {
            #expect(V4L2ControlInfo.variableName(oldName) == kernelName)
            #expect(V4L2ControlInfo.variableName(kernelName) == kernelName)
        }
        #expect(V4L2ControlInfo.variableName("  (odd) name,,  ") == "odd_name")
    }

    @Test("flash-class and camera-class extras: torch, flash, ISO sensitivity, bias, HDR, AF start and range")
    func flashAndExtras() throws {
        let text = """

            Camera Controls

                              auto_exposure 0x009a0901 (menu)   : min=0 max=3 default=0 value=0 (Auto Mode)
            \t\t\t\t0: Auto Mode
            \t\t\t\t1: Manual Mode
                     exposure_time_absolute 0x009a0902 (int)    : min=1 max=3000 step=1 default=100 value=100
                 focus_automatic_continuous 0x009a090c (bool)   : default=0 value=0
                         auto_exposure_bias 0x009a0913 (intmenu): min=0 max=2 default=1 value=1 (0 0x0)
            \t\t\t\t0: -1000 (0xfffffffffffffc18)
            \t\t\t\t1: 0 (0x0)
            \t\t\t\t2: 1000 (0x3e8)
                         wide_dynamic_range 0x009a0915 (bool)   : default=0 value=0
                            iso_sensitivity 0x009a0917 (intmenu): min=0 max=2 default=0 value=0 (100 0x64)
            \t\t\t\t0: 100 (0x64)
            \t\t\t\t1: 200 (0xc8)
            \t\t\t\t2: 400 (0x190)
                       iso_sensitivity_auto 0x009a0918 (menu)   : min=0 max=1 default=1 value=1 (Auto)
                           auto_focus_start 0x009a091c (button) : value=0 flags=write-only, execute-on-write
                           auto_focus_range 0x009a091f (menu)   : min=0 max=3 default=0 value=0 (Auto)

            Flash Controls

                                   led_mode 0x009c0901 (menu)   : min=0 max=2 default=0 value=0 (Off)
                              strobe_source 0x009c0902 (menu)   : min=0 max=1 default=0 value=0 (Software)
                                     strobe 0x009c0903 (button) : value=0 flags=write-only, execute-on-write
                       intensity_flash_mode 0x009c0907 (int)    : min=0 max=1000 step=1 default=500 value=500
                       intensity_torch_mode 0x009c0908 (int)    : min=0 max=100 step=1 default=50 value=50
            """
        let table = try V4L2ControlTable(parsing: text)
        #expect(table["auto_focus_start"]?.value == nil) // a button has no value
        #expect(table["auto_exposure_bias"]?.menu.map(\.value) == [-1000, 0, 1000])
        let mapping = V4L2ControlMapping(table)
        #expect(mapping[.exposureContinuous].description == "device(auto_exposure=0)") // no aperture priority: auto mode
        #expect(mapping[.exposureLocked].description == "device(auto_exposure=1)")
        #expect(mapping[.iso].description == "device(iso_sensitivity_auto=0, iso_sensitivity 0…2 step 1)")
        #expect(mapping.isoRange == 100...400)
        #expect(mapping[.exposureTargetBias].description == "device(auto_exposure_bias 0…2 step 1)")
        #expect(mapping.exposureTargetBiasRange == -1...1)
        #expect(mapping[.focusAutoOnce].description == "device(focus_automatic_continuous=0, auto_focus_start=1)")
        #expect(mapping[.focusLocked].description == "device(focus_automatic_continuous=0)")
        #expect(mapping[.lensPosition] == .unsupported)
        #expect(mapping[.autoFocusRangeRestriction].description == "device(auto_focus_range 0…3 step 1)")
        #expect(mapping[.videoHDR].description == "device(wide_dynamic_range=1)")
        #expect(mapping[.torch].description == "device(led_mode=2, intensity_torch_mode 0…100 step 1)")
        #expect(mapping.torchLevelRange == 0...100)
        #expect(mapping[.flash].description == "device(led_mode=1, strobe_source=0, intensity_flash_mode 0…1000 step 1, strobe=1)")
        #expect(mapping[.lowLightBoost] == .unsupported)
    }

    // MARK: Malformed input

    @Test("malformed lines are reported with their line number", arguments: [
        ("        gain 0x00980913 (int)    : min=0 max=2x55 step=1 default=0 value=0", V4L2ControlTable.ParseError.Reason.badNumber(field: "max", value: "2x55")),
        ("        gain 0x00980913 (int)    : min=0 max=255 default=0 value=0", .missingField("step")),
        ("        gain 0x00980913 (float)  : min=0 max=255 step=1 default=0 value=0", .unknownType("float")),
        ("        gain 0x00980913 (int)    : min=0 max=255 step=1 default=0 colour=red", .unknownField("colour")),
        ("        gain 0x00980913 (int)    : min=0 max=255 step=1 default=0 value=0 flags=inactive, shiny", .unknownFlag("shiny")),
        ("        gain 0x0098091g (int)    : min=0 max=255 step=1 default=0 value=0", .badNumber(field: "id", value: "0x0098091g")),
        ("        u8_array 0x0098f90a (u8)     : min=0 max=255 step=1 default=0 dims=[2][x]", .badDimensions("[2][x]")),
        ("        zoom_absolute 0x009a090d", .unexpectedLine),
        ("        zoom_absolute 0x009a090d (int : min=1 max=5 step=1 default=1 value=1", .unexpectedLine),
    ])
    func malformedLine(line: String, reason: V4L2ControlTable.ParseError.Reason) {
        let text = "# Camera: test\n\nUser Controls\n\n                     brightness 0x00980900 (int)    : min=0 max=255 step=1 default=128 value=128\n\(line)\n"
        #expect(throws: V4L2ControlTable.ParseError(line: 6, text: line, reason: reason)) {
            try V4L2ControlTable(parsing: text)
        }
    }

    @Test("a bad integer-menu item is reported with its line number; the --all preamble and error notes are skipped")
    func menuItemsAndPreamble() throws {
        let badItem = "            iso_sensitivity 0x009a0917 (intmenu): min=0 max=1 default=0 value=0 (100 0x64)\n\t\t\t\t0: 100 (0x64)\n\t\t\t\t1: lots\n"
        #expect(throws: V4L2ControlTable.ParseError(line: 3, text: "\t\t\t\t1: lots", reason: .badMenuItem)) {
            try V4L2ControlTable(parsing: badItem)
        }
        let all = """
            Driver Info:
            \tDriver name      : uvcvideo
            \tCard type        : HD Pro Webcam C920
            Priority: 2
            Video input : 0 (Camera 1: ok)
            Streaming Parameters Video Capture:
            \tFrames per second: 30.000 (30/1)

            User Controls

                                 brightness 0x00980900 (int)    : min=0 max=255 step=1 default=128 value=128
            error 5 getting ext_ctrl Focus, Automatic Continuous
                              zoom_absolute 0x009a090d (int)    : min=100 max=500 step=1 default=100 value=100
            """
        #expect(try V4L2ControlTable(parsing: all).controls.map(\.name) == ["brightness", "zoom_absolute"])
    }

    // MARK: ioctl

    @Test("ioctl errors name the path, the step and the errno text")
    func queryErrors() {
        #expect(throws: V4L2ControlQuery.Error(path: "/nonexistent/video9", operation: .open, errno: ENOENT)) {
            try V4L2ControlQuery.controls(ofDeviceAt: "/nonexistent/video9")
        }
        do throws(V4L2ControlQuery.Error) {
            _ = try V4L2ControlQuery.controls(ofDeviceAt: "/dev/null")
            Issue.record("/dev/null listed controls")
        } catch {
            #expect(error.isNotV4L2Device && error.path == "/dev/null" && error.reason == String(cString: strerror(ENOTTY)))
            #expect(error.description.contains("not a V4L2 device"))
        }
    }

    /// Runs where a V4L2 device exists, e.g. in the v4l2vm guest (vivid at /dev/video0):
    /// `v4l2vm run -- .build/debug/CaptureKitPackageTests.xctest --testing-library swift-testing --filter liveDevice`
    @Test("ioctl discovery on /dev/video0 matches `v4l2-ctl -L` and `--all` parsed by the same model",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/video0")))
    func liveDevice() throws {
        let path = "/dev/video0"
        let queried = try V4L2ControlQuery.controls(ofDeviceAt: path)
        #expect(queried.contains { $0.type == .ctrlClass }) // the query keeps classes; the table drops them
        let live = V4L2ControlTable(queried)
        let listed = try V4L2ControlTable(parsing: try run("/usr/bin/v4l2-ctl", ["-d", path, "-L"]))
        let all = try V4L2ControlTable(parsing: try run("/usr/bin/v4l2-ctl", ["-d", path, "--all"]))

        #expect(live.controls.map(\.name) == listed.controls.map(\.name))
        #expect(all.controls.map(\.name) == listed.controls.map(\.name))
        for (ioctl, text) in zip(live.controls, listed.controls) {
            #expect(ioctl.id == text.id && ioctl.type == text.type && ioctl.flags == text.flags, "\(ioctl.name)")
            #expect(ioctl.dimensions == text.dimensions, "\(ioctl.name)")
            #expect(ioctl.menu == text.menu, "\(ioctl.name)")
            if case .other = ioctl.type, ioctl.dimensions.isEmpty { continue } // compound: v4l2-ctl prints no range
            #expect(ioctl.minimum == text.minimum && ioctl.maximum == text.maximum, "\(ioctl.name) range")
            #expect(ioctl.step == text.step && ioctl.defaultValue == text.defaultValue, "\(ioctl.name) step/default")
            if !ioctl.flags.contains(.volatile) { #expect(ioctl.value == text.value, "\(ioctl.name) value") }
        }
        print("liveDevice: \(live.controls.count) controls on \(path) match v4l2-ctl -L: "
              + live.controls.map { "\($0.name)(\($0.type))" }.joined(separator: " "))

        // vivid is no camera: ISO rides on gain, everything else is software or unsupported.
        let mapping = V4L2ControlMapping(live)
        for capability in V4L2ControlMapping.Capability.allCases {
            print("liveDevice: \(capability) → \(mapping[capability])")
        }
        #expect(mapping[.iso].description == "device(gain_automatic=0, gain 0…255 step 1)")
        #expect(mapping[.exposureContinuous] == .software(.exposureLoop))
        #expect(mapping[.zoom] == .software(.digitalZoom))
        #expect(mapping[.lensPosition] == .unsupported && mapping[.exposureDuration] == .unsupported)
        #expect(mapping[.whiteBalanceContinuous] == .unsupported)
    }
}
