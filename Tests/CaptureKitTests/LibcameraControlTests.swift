import Foundation
import GStreamerSwift
import Testing
@_spi(Plan) @testable import CaptureKit

/// libcamera cameras' controls: what `cam` says a camera supports, what `libcamerasrc` can carry
/// (nothing on Debian 12's 0.0.3, AeEnable… ColourGains on Debian 13's 0.4), the capabilities
/// both give, and the element properties each AVFoundation change becomes. On a machine whose
/// element has the controls, every property written is set on a real `libcamerasrc`.
@Suite("libcamera controls", .ownDevices)
struct LibcameraControlTests {
    /// vimc's Sensor B as Debian 12's `cam -c 'platform/vimc.0 Sensor B' --list-controls
    /// --list-properties` printed it in the vivid guest.
    static let vimc003 = """
        Using camera platform/vimc.0 Sensor B as cam0
        Control: Brightness: [-1.000000..1.000000]
        Control: Contrast: [0.000000..2.000000]
        Control: Saturation: [0.000000..2.000000]
        Property: PixelArrayActiveAreas = [ (0, 0)/4096x2160 ]
        Property: PixelArraySize = 4096x2160
        Property: Model = Sensor B
        """

    /// A Raspberry Pi Camera Module 3 (imx708) as libcamera 0.4's `cam` prints a camera
    /// (camera_session.cpp: direction, vendor, enumerated values one per line), with the ranges
    /// of the Raspberry Pi IPA's imx708 tuning. Composed in that format, not recorded from a Pi.
    static let imx708 = """
        Control: [inout] libcamera::AeConstraintMode: [0..3]
        Control: [inout] libcamera::AeEnable: [false..true]
        Control: [inout] libcamera::AeExposureMode:
          - ExposureNormal (0)
          - ExposureShort (1)
          - ExposureLong (2)
          - ExposureCustom (3)
        Control: [inout] libcamera::AfMode:
          - AfModeManual (0)
          - AfModeAuto (1)
          - AfModeContinuous (2)
        Control: [inout] libcamera::AfRange:
          - AfRangeNormal (0)
          - AfRangeMacro (1)
          - AfRangeFull (2)
        Control: [inout] libcamera::AfSpeed:
          - AfSpeedNormal (0)
          - AfSpeedFast (1)
        Control: [inout] libcamera::AnalogueGain: [1.122807..16.000000]
        Control: [inout] libcamera::AwbEnable: [false..true]
        Control: [inout] libcamera::ColourGains: [0.000000..32.000000]
        Control: [inout] libcamera::ExposureTime: [26..112015553]
        Control: [inout] libcamera::ExposureValue: [-8.000000..8.000000]
        Control: [inout] libcamera::LensPosition: [0.000000..15.000000]
        Control: [inout] libcamera::ScalerCrop: [(0, 0)/64x64..(0, 0)/4608x2592]
        Property: Location = 1
        Property: Model = "imx708"
        """

    /// libcamerasrc 0.4.0's properties (gst-inspect-1.0 in Debian 13), camera-name aside.
    static let element04: Set<String> = [
        "ae-constraint-mode", "ae-enable", "ae-exposure-mode", "ae-flicker-period", "ae-metering-mode", "af-metering", "af-mode",
        "af-range", "af-speed", "af-windows", "analogue-gain", "awb-enable", "awb-mode", "brightness", "camera-name",
        "colour-correction-matrix", "colour-gains", "contrast", "digital-gain", "exposure-time", "exposure-value", "gamma",
        "lens-position", "saturation", "scaler-crop", "sharpness",
    ]

    /// libcamera 0.5 adds the exposure-time and gain modes (and sets booleans as booleans).
    static let element05 = element04.union(["exposure-time-mode", "analogue-gain-mode"])
    static let modes05 = """
        Control: [inout] libcamera::ExposureTimeMode:
          - ExposureTimeModeAuto (0)
          - ExposureTimeModeManual (1)
        Control: [inout] libcamera::AnalogueGainMode:
          - AnalogueGainModeAuto (0)
          - AnalogueGainModeManual (1)
        """

    static var pi04: LibcameraControls { LibcameraControls(properties: element04, facts: LibcameraCameraFacts(listing: imx708)) }
    static var pi05: LibcameraControls { LibcameraControls(properties: element05, facts: LibcameraCameraFacts(listing: imx708 + "\n" + modes05)) }

    @Test("cam's listings parse in both releases' formats: ranges, enumerated values, properties")
    func listings() {
        let old = LibcameraCameraFacts(listing: Self.vimc003)
        #expect(old.controls["Brightness"] == .init(minimum: "-1.000000", maximum: "1.000000"))
        #expect(old.controls.count == 3 && old.location == nil && old.model == "Sensor B")
        #expect(old.properties["PixelArraySize"] == "4096x2160")
        let new = LibcameraCameraFacts(listing: Self.imx708)
        #expect(new.controls["ExposureTime"]?.range == 26...112_015_553)
        #expect(new.controls["AfMode"]?.values == ["AfModeManual", "AfModeAuto", "AfModeContinuous"])
        #expect(new.has("AeExposureMode", value: "ExposureLong") && !new.has("AfMode", value: "AfModeMacro") && !new.has("AfTrigger"))
        #expect(new.location == 1 && new.model == "imx708")
    }

    @Test("the capabilities need the element's property and the camera's control: 0.0.3's element gives the automatic camera only")
    func capabilities() throws {
        let pi = Self.pi05.capabilities
        for capability: DeviceCapability in [.exposureLocked, .exposureCustom, .iso, .exposureTargetBias, .focusContinuous, .focusLocked,
                                             .lensPosition, .autoFocusRangeRestriction, .smoothAutoFocus, .whiteBalanceLocked,
                                             .whiteBalanceGains, .lowLightBoost] {
            #expect(pi[capability] == .device, "\(capability)")
        }
        // 0.4 sets booleans as integers (libcamera bug 261): no AwbEnable, so no manual gains;
        // exposure is fixed by non-zero values instead of AeEnable.
        let pi04 = Self.pi04.capabilities
        #expect(pi04[.exposureCustom] == .device && pi04[.exposureLocked] == .device)
        #expect(pi04[.whiteBalanceLocked] == .unsupported && pi04[.whiteBalanceContinuous] == .device)
        #expect(pi[.focusAutoOnce] == .software(.contrastDetectAutoFocus), "no AfTrigger property: CaptureKit's search")
        #expect(pi[.zoom] == .software(.digitalZoom) && pi[.torch] == .unsupported && pi[.videoHDR] == .unsupported)
        let limits = try #require(pi.exposureLimits)
        #expect(limits.duration == 26e-6...112.015553 && abs(limits.iso.lowerBound - 112.2807) < 1e-9 && limits.iso.upperBound == 1600)
        #expect(pi.exposureTargetBiasRange == -8...8)
        // Debian 12's element carries no control; vimc has none of the seed controls.
        #expect(LibcameraControls(properties: ["camera-name"], facts: LibcameraCameraFacts(listing: Self.imx708)).capabilities == .automaticOnly)
        #expect(LibcameraControls(properties: Self.element04, facts: LibcameraCameraFacts(listing: Self.vimc003)).capabilities == .automaticOnly)
        #expect(LibcameraControls(properties: Self.element04, facts: nil).capabilities == .automaticOnly, "no cam: nothing claimed")
    }

    /// A device on the Pi's controls, through the public API as an app would use it.
    static func piDevice(_ controls: LibcameraControls = pi05) -> CaptureDevice {
        let format = CaptureDevice.Format(pixelFormat: .nv12, width: 1536, height: 864,
                                          videoSupportedFrameRateRanges: [.init(minFrameRate: 1, maxFrameRate: 30)])
        return CaptureDevice(uniqueID: "libcamera:test-imx708-\(UUID())", modelID: "imx708", localizedName: "imx708", manufacturer: "libcamera",
                             position: .back, formats: [format], activeFormat: format,
                             backend: LibcameraBackend(cameraID: "/base/soc/i2c0mux/i2c@1/imx708@1a", controls: controls))
    }

    @Test("each change becomes libcamera's units: µs, analogue gain, EV, dioptres (0 = infinity), red/blue gains, enum nicks")
    func properties() throws {
        let device = Self.piDevice()
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: 400)
        try device.checked.setExposureTargetBias(-1.5)
        try device.checked.setFocusModeLocked(lensPosition: 0.25)
        try device.checked.setWhiteBalanceModeLocked(with: .init(redGain: 2, greenGain: 1, blueGain: 1.5))
        try device.setAutomaticallyEnablesLowLightBoostWhenAvailable(true)
        try device.setAutoFocusRangeRestriction(.near)
        try device.setSmoothAutoFocusEnabled(true)
        let set = device.readState { $0.sourceControls }
        #expect(set == ["exposure-time-mode": "manual", "analogue-gain-mode": "manual", "exposure-time": "16667", "analogue-gain": "4",
                        "exposure-value": "-1.5", "af-mode": "manual", "lens-position": "11.25", "awb-enable": "false",
                        "colour-gains": "<(float)2, (float)1.5>", "ae-exposure-mode": "long", "af-range": "macro", "af-speed": "normal"])
        // Back to the camera's own automatic modes.
        try device.setExposureMode(.continuousAutoExposure)
        try device.setFocusMode(.continuousAutoFocus)
        try device.setWhiteBalanceMode(.continuousAutoWhiteBalance)
        let auto = device.readState { $0.sourceControls }
        #expect(auto["exposure-time-mode"] == "auto" && auto["analogue-gain-mode"] == "auto")
        #expect(auto["af-mode"] == "continuous" && auto["awb-enable"] == "true")
        // 0.4: no boolean is written; non-zero values fix the exposure, zeros release it.
        let old = Self.piDevice(Self.pi04)
        try old.lockForConfiguration()
        defer { old.unlockForConfiguration() }
        try old.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 60), iso: 400)
        #expect(old.readState { $0.sourceControls } == ["exposure-time": "16667", "analogue-gain": "4"])
        try old.setExposureMode(.continuousAutoExposure)
        try old.setWhiteBalanceMode(.continuousAutoWhiteBalance)
        #expect(old.readState { $0.sourceControls } == ["exposure-time": "0", "analogue-gain": "0"])
        #expect(throws: CaptureError.self) { try old.checked.setWhiteBalanceModeLocked(with: .init(redGain: 2, greenGain: 1, blueGain: 1)) }
        // The next start carries them on the element.
        let source = device.backend.sourceElements(prefix: "s", device: device, format: device.activeFormat)[0]
        #expect(source.properties.contains { $0.name == "lens-position" && $0.value == .serialized("11.25") })
        #expect(throws: CaptureError.self) { try device.setVideoHDREnabled(true) }
        #expect(throws: CaptureError.self) { try device.checked.setExposureModeCustom(duration: CaptureTime(value: 200, timescale: 1), iso: 400) }
    }

    @Test("where the installed libcamerasrc carries controls (0.4+), every property CaptureKit writes is taken by a real element")
    func realElement() throws {
        let installed = LibcameraControls.elementProperties
        // Debian 13 installs libcamera 0.4 (scripts/apt-packages.txt): its element must be the one tested.
        let debian = (try? String(contentsOfFile: "/etc/debian_version", encoding: .utf8)) ?? ""
        #expect(!debian.hasPrefix("13") || installed.contains("ae-enable"), "Debian \(debian): libcamerasrc has \(installed.sorted())")
        guard installed.contains("ae-enable") else {
            // Debian 12: libcamera 0.0.3's element has camera-name only, or no element at all.
            #expect(installed.isEmpty || !installed.contains("exposure-time"))
            return
        }
        #expect(Self.element04.isSubset(of: installed), "0.4's properties: \(Self.element04.subtracting(installed).sorted())")
        GStreamer.initialize()
        let element = try Element(factory: "libcamerasrc", name: "probe")
        let device = Self.piDevice()
        // The Pi's facts, with 0.5's modes where the installed element has them.
        let controls = LibcameraControls(properties: installed, facts: (installed.contains("exposure-time-mode") ? Self.pi05 : Self.pi04).facts)
        let controller = LibcameraController(controls: controls)
        let changes: [ControlChange] = [
            .exposure(duration: CaptureTime(value: 1, timescale: 250), iso: 800), .exposureMode(.continuousAutoExposure), .exposureMode(.locked),
            .exposureTargetBias(2), .focusMode(.continuousAutoFocus), .focusMode(.locked), .lensPosition(1), .lensPosition(0),
            .autoFocusRangeRestriction(.none), .autoFocusRangeRestriction(.near), .autoFocusRangeRestriction(.far),
            .smoothAutoFocus(false), .whiteBalanceGains(.init(redGain: 1.8, greenGain: 1, blueGain: 2.2)),
            .whiteBalanceMode(.continuousAutoWhiteBalance), .lowLightBoost(allowed: true), .lowLightBoost(allowed: false),
        ]
        let whiteBalance: Set<ControlChange> = [.whiteBalanceGains(.init(redGain: 1.8, greenGain: 1, blueGain: 2.2)), .whiteBalanceMode(.continuousAutoWhiteBalance)]
        for change in changes {
            let properties = controller.properties(for: change, on: device)
            // Before 0.5 no boolean is written, so white balance stays the camera's.
            #expect(properties.isEmpty == (!controls.setsBooleans && whiteBalance.contains(change)), "\(change): \(properties)")
            #expect(controls.setsBooleans || !properties.contains { ["ae-enable", "awb-enable"].contains($0.name) })
            for (name, value) in properties {
                #expect(throws: Never.self, "\(change): \(name)=\(value)") { try element.set(name, .serialized(value)) }
                // The getter gives what the element will send (until a frame's metadata replaces it):
                // a number or an array it could not take as its own type reads back as 0. Booleans
                // and enums are not read: 0.4's getter aborts on them (a ControlValue type assertion),
                // and a wrong nick already fails the set.
                guard Self.numeric.contains(name) else { continue }
                let back = try element.get(name)
                #expect(Self.same(back, value), "\(change): \(name) set to \(value), reads back \(back)")
            }
        }
        print("libcamerasrc \(element.pluginVersion ?? "?"): every control property taken and read back")
    }

    static let numeric: Set<String> = ["exposure-time", "analogue-gain", "exposure-value", "lens-position", "colour-gains"]

    /// Whether two property texts say the same: the same numbers (to 1e-4, type tags aside), or
    /// the same words.
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        func numbers(_ text: String) -> [Double] {
            text.replacingOccurrences(of: #"\([a-z]+\)"#, with: "", options: .regularExpression)
                .split { !"-.0123456789".contains($0) }.compactMap { Double($0) }
        }
        let (left, right) = (numbers(lhs), numbers(rhs))
        guard !left.isEmpty || !right.isEmpty else { return lhs == rhs }
        return left.count == right.count && zip(left, right).allSatisfy { abs($0 - $1) < 1e-4 }
    }
}
