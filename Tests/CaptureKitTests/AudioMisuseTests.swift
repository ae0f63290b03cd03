import Foundation
import Testing
@testable import CaptureKit

/// What a microphone or an audio output refuses, with the offending value.
@Suite("Audio misuse", .ownDevices, .serialized)
struct AudioMisuseTests {
    @Test("invalid audioSettings throw invalidSetting naming the value and the valid range; valid ones are kept")
    func invalidSettings() throws {
        let output = AudioDataOutput()
        #expect(throws: CaptureError.invalidSetting(name: "audio sample rate", value: "4000", valid: "8000…192000 Hz, or nil for the device's")) {
            try output.setAudioSettings(.init(sampleRate: 4000))
        }
        #expect(throws: CaptureError.invalidSetting(name: "audio sample rate", value: "0", valid: "8000…192000 Hz, or nil for the device's")) {
            try output.setAudioSettings(.init(sampleRate: 0, channelCount: 1))
        }
        #expect(throws: CaptureError.invalidSetting(name: "audio channel count", value: "3", valid: "1 (mono) or 2 (stereo), or nil for the device's")) {
            try output.setAudioSettings(.init(sampleRate: 16000, channelCount: 3))
        }
        #expect(throws: CaptureError.invalidSetting(name: "audio channel count", value: "0", valid: "1 (mono) or 2 (stereo), or nil for the device's")) {
            try output.setAudioSettings(.init(channelCount: 0))
        }
        #expect(output.audioSettings == nil, "a refused setting leaves the old one")
        let settings = AudioDataOutput.AudioSettings(sampleRate: 16000, channelCount: 1, sampleFormat: .f32le)
        try output.setAudioSettings(settings)
        #expect(output.audioSettings == settings)
        let message = CaptureError.invalidSetting(name: "audio sample rate", value: "4000", valid: "8000…192000 Hz, or nil for the device's").description
        #expect(message == "'4000' is not a valid audio sample rate; valid: 8000…192000 Hz, or nil for the device's")
    }

    @Test("camera settings on a locked microphone throw unsupported naming the feature and the microphone")
    func cameraSettingsOnMicrophone() throws {
        let mic = CaptureDevice.virtualMicrophone
        #expect(throws: CaptureError.notLocked(device: "virtual:microphone")) { try mic.setVideoZoomFactor(2) }
        try mic.lockForConfiguration()
        defer { mic.unlockForConfiguration() }
        let attempts: [(String, () throws -> Void)] = [
            ("exposure point of interest", { try mic.setExposurePointOfInterest(CGPoint(x: 0.5, y: 0.5)) }),
            ("exposure mode locked", { try mic.setExposureMode(.locked) }),
            ("exposure mode continuousAutoExposure", { try mic.setExposureMode(.continuousAutoExposure) }),
            ("exposure target bias", { try mic.checked.setExposureTargetBias(0) }),
            ("custom exposure", { try mic.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 100), iso: 100) }),
            ("flash mode off", { try mic.setFlashMode(.off) }),
            ("focus point of interest", { try mic.setFocusPointOfInterest(CGPoint(x: 0.5, y: 0.5)) }),
            ("smooth autofocus", { try mic.setSmoothAutoFocusEnabled(true) }),
            ("autofocus range restriction", { try mic.setAutoFocusRangeRestriction(.near) }),
            ("focus mode continuousAutoFocus", { try mic.setFocusMode(.continuousAutoFocus) }),
            ("locked focus", { try mic.checked.setFocusModeLocked(lensPosition: 0.5) }),
            ("activeVideoMinFrameDuration", { try mic.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration) }),
            ("activeVideoMaxFrameDuration", { try mic.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 30)) }),
            ("low-light boost", { try mic.setAutomaticallyEnablesLowLightBoostWhenAvailable(true) }),
            ("V4L2 control 'brightness'", { try mic.setV4L2Control("brightness", to: 1) }),
            ("subject area change monitoring", { try mic.setSubjectAreaChangeMonitoringEnabled(true) }),
            ("torch mode off", { try mic.setTorchMode(.off) }),
            ("torch", { try mic.setTorchModeOn(level: 1) }),
            ("automatic video HDR", { try mic.setAutomaticallyAdjustsVideoHDREnabled(false) }),
            ("video HDR", { try mic.setVideoHDREnabled(true) }),
            ("white balance mode continuousAutoWhiteBalance", { try mic.setWhiteBalanceMode(.continuousAutoWhiteBalance) }),
            ("locked white balance", { try mic.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1, blueGain: 1)) }),
            ("zoom", { try mic.setVideoZoomFactor(2) }),
            ("zoom", { try mic.checked.ramp(toVideoZoomFactor: 2, withRate: 1) }),
            ("zoom ramp", { try mic.checked.cancelVideoZoomRamp() }),
        ]
        for (feature, attempt) in attempts {
            #expect(throws: CaptureError.unsupported(feature: feature, device: "virtual:microphone"), "\(feature)") { try attempt() }
        }
        #expect(!mic.isSubjectAreaChangeMonitoringEnabled, "nothing was set")
        #expect(CaptureDevice.ExposureMode.allCases.allSatisfy { !mic.isExposureModeSupported($0) })
        #expect(CaptureDevice.FocusMode.allCases.allSatisfy { !mic.isFocusModeSupported($0) })
        #expect(CaptureDevice.WhiteBalanceMode.allCases.allSatisfy { !mic.isWhiteBalanceModeSupported($0) })
        #expect(!mic.hasTorch && !mic.hasFlash && !mic.isLowLightBoostSupported && !mic.isVideoHDRSupported)
        #expect(mic.activeFormat.mediaType == .audio && mic.activeFormat.videoSupportedFrameRateRanges.isEmpty)
        #expect(throws: CaptureError.mediaTypeNotSupported(device: "virtual:microphone", mediaType: .video)) { try mic.controls() }
        #expect(throws: CaptureError.mediaTypeNotSupported(device: "virtual:microphone", mediaType: .video)) { try mic.controlReport() }
        // Its own setting works: the format.
        let mono = try #require(mic.formats.first { $0.audioFormat?.channelCount == 1 && $0.audioFormat?.sampleFormat == .f32le })
        let before = mic.activeFormat
        try mic.setActiveFormat(mono)
        #expect(mic.activeFormat == mono)
        try mic.setActiveFormat(before)
        #expect(throws: CaptureError.unsupportedFormat(VirtualCamera.formats[0].description, available: mic.formats.map(\.description))) {
            try mic.setActiveFormat(VirtualCamera.formats[0])
        }
    }
}
