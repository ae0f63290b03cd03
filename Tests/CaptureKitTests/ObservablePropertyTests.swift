import Foundation
import Testing
@_spi(Benchmark) @testable import CaptureKit

/// Every CaptureDevice property the seeds call key-value observable announces its changes
/// through `values(of:)` (and so through Observation, which it is built on): one row per
/// property, each with a change that must reach an observer while a session runs.
@Suite("Observable properties", .ownDevices, .serialized, .timeLimit(.minutes(2)))
struct ObservablePropertyTests {
    /// A property and a change to it, made under the configuration lock.
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var observe: @Sendable (CaptureDevice, @Sendable @escaping (CaptureDevice) throws -> Void) async throws -> Bool
        var change: @Sendable (CaptureDevice) throws -> Void
        var testDescription: String { name }
    }

    static func row<Value: Sendable & Equatable>(_ keyPath: KeyPath<CaptureDevice, Value> & Sendable, _ name: String,
                                                 change: @Sendable @escaping (CaptureDevice) throws -> Void) -> Row {
        Row(name: name, observe: { device, change in
            let stream = device.values(of: keyPath)
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            try change(device)
            // The change shows within a few frames; bounded by the frames, not by a clock.
            for _ in 0..<90 {
                guard let next = await Self.next(&iterator) else { return false }
                if next != first { return true }
            }
            return false
        }, change: change)
    }

    /// The next value, or nil after 3 s (a property that never announces).
    static func next<Value: Sendable>(_ iterator: inout AsyncStream<Value>.Iterator) async -> Value? {
        nonisolated(unsafe) var local = iterator
        defer { iterator = local }
        return await withTaskGroup(of: Value?.self) { group in
            group.addTask { await local.next() }
            group.addTask {
                try? await Task.sleep(for: .seconds(3))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    static let rows: [Row] = [
        row(\.exposureMode, "exposureMode") { try $0.setExposureMode(.locked) },
        row(\.exposureDuration, "exposureDuration") { try $0.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 250), iso: CaptureDevice.currentISO) },
        row(\.iso, "iso") { try $0.checked.setExposureModeCustom(duration: CaptureDevice.currentExposureDuration, iso: 400) },
        row(\.exposureTargetBias, "exposureTargetBias") { try $0.checked.setExposureTargetBias(-1) },
        row(\.exposureTargetOffset, "exposureTargetOffset") { try $0.checked.setExposureModeCustom(duration: CaptureTime(value: 1, timescale: 500), iso: CaptureDevice.currentISO) },
        row(\.isAdjustingExposure, "isAdjustingExposure") { try $0.checked.setExposureTargetBias(2) },
        row(\.exposurePointOfInterest, "exposurePointOfInterest") { try $0.setExposurePointOfInterest(CGPoint(x: 0.2, y: 0.3)) },
        row(\.focusMode, "focusMode") { try $0.setFocusMode(.locked) },
        row(\.lensPosition, "lensPosition") { try $0.checked.setFocusModeLocked(lensPosition: 0.1) },
        row(\.isAdjustingFocus, "isAdjustingFocus") { try $0.checked.setFocusModeLocked(lensPosition: 0.1); try $0.setFocusMode(.autoFocus) },
        row(\.focusPointOfInterest, "focusPointOfInterest") { try $0.setFocusPointOfInterest(CGPoint(x: 0.7, y: 0.4)) },
        row(\.isSmoothAutoFocusEnabled, "isSmoothAutoFocusEnabled") { try $0.setSmoothAutoFocusEnabled(true) },
        row(\.autoFocusRangeRestriction, "autoFocusRangeRestriction") { try $0.setAutoFocusRangeRestriction(.near) },
        row(\.whiteBalanceMode, "whiteBalanceMode") { try $0.setWhiteBalanceMode(.locked) },
        row(\.deviceWhiteBalanceGains, "deviceWhiteBalanceGains") { try $0.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1, blueGain: 1)) },
        row(\.isAdjustingWhiteBalance, "isAdjustingWhiteBalance") {
            try $0.checked.setWhiteBalanceModeLocked(with: .init(redGain: 1, greenGain: 1, blueGain: 1))
            try $0.setWhiteBalanceMode(.autoWhiteBalance)
        },
        row(\.grayWorldDeviceWhiteBalanceGains, "grayWorldDeviceWhiteBalanceGains") { $0.setVirtualIlluminant(temperature: 5500) },
        row(\.videoZoomFactor, "videoZoomFactor") { try $0.setVideoZoomFactor(2) },
        row(\.isRampingVideoZoom, "isRampingVideoZoom") { try $0.checked.ramp(toVideoZoomFactor: 2, withRate: 2) },
        row(\.torchMode, "torchMode") { try $0.setTorchMode(.on) },
        row(\.torchLevel, "torchLevel") { try $0.setTorchModeOn(level: 0.5) },
        row(\.isTorchActive, "isTorchActive") { try $0.setTorchModeOn(level: 0.5) },
        row(\.flashMode, "flashMode") { try $0.setFlashMode(.on) },
        row(\.isFlashActive, "isFlashActive") { try $0.setFlashMode(.on) },
        row(\.isLowLightBoostEnabled, "isLowLightBoostEnabled") {
            $0.setVirtualSceneLight(ev: -6)
            try $0.setAutomaticallyEnablesLowLightBoostWhenAvailable(true)
        },
        row(\.isVideoHDREnabled, "isVideoHDREnabled") {
            try $0.setAutomaticallyAdjustsVideoHDREnabled(false)
            try $0.setVideoHDREnabled(true)
        },
        row(\.isSubjectAreaChangeMonitoringEnabled, "isSubjectAreaChangeMonitoringEnabled") { try $0.setSubjectAreaChangeMonitoringEnabled(true) },
        row(\.activeVideoMinFrameDuration, "activeVideoMinFrameDuration (a rate-only change)") { try $0.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 15)) },
        row(\.activeVideoMaxFrameDuration, "activeVideoMaxFrameDuration") { try $0.setActiveVideoMaxFrameDuration(CaptureTime(value: 1, timescale: 15)) },
        row(\.activeVideoMaxFrameDuration, "activeVideoMaxFrameDuration following the minimum (min = max = 1/15 s: 15 fps)") {
            try $0.setActiveVideoMinFrameDuration(CaptureTime(value: 1, timescale: 15))
        },
        row(\.activeFormat, "activeFormat") { device in try device.setActiveFormat(device.formats.first { $0 != device.activeFormat }!) },
        row(\.isConnected, "isConnected (the virtual camera unplugged)") { try $0.injectFault(.unplugged) },
    ]

    @Test("each observable property announces a change", arguments: rows)
    func announces(row: Row) async throws {
        let device = CaptureDevice.find(virtual: .back)
        let test = try TestSession(preset: .cif352x288, device: device, outputs: [VideoDataOutput()])
        try await test.session.checked.startRunning()
        defer {
            test.session.stopRunning()
            try? device.lockForConfiguration()
            try? device.setAutomaticallyAdjustsVideoHDREnabled(true)
            try? device.setSubjectAreaChangeMonitoringEnabled(false)
            try? device.setAutomaticallyEnablesLowLightBoostWhenAvailable(false)
            try? device.setActiveVideoMinFrameDuration(CaptureDevice.defaultFrameDuration)
            try? device.setActiveVideoMaxFrameDuration(CaptureDevice.defaultFrameDuration)
            device.setVirtualSceneLight(ev: 0)
            device.setVirtualIlluminant(temperature: WhiteBalanceState.defaultIlluminant)
            try? device.injectFault(nil)
            device.unlockForConfiguration()
            device.restoreDefaultControls()
        }
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        #expect(try await row.observe(device, row.change), "\(row.name) announced no change")
    }
}
