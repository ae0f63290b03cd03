import Foundation
import Synchronization

/// CaptureKit's software auto modes, run from the frames of one running input: metering
/// (`exposureTargetOffset`, `grayWorldDeviceWhiteBalanceGains`) for every camera, and, where
/// CaptureKit drives the controls (the virtual camera; V4L2 cameras that lack the automatic
/// control), the exposure loop, the gray-world white-balance loop and the contrast-detect
/// autofocus search.
///
/// Threading: `process` runs on the input's streaming thread once per frame, before the tee, and
/// never blocks: it measures a subsampled frame (FrameMeter), decides, and changes the device's
/// state (the virtual sensor applies it from the next frame) or queues V4L2 control writes on
/// the device's `loopWrites` queue. No user code runs on this thread.
final class AutoControlLoop: Sendable {
    /// Frames to wait after a move before measuring its effect: the virtual sensor applies a
    /// change on the next frame; a V4L2 camera's lens and exposure take a few.
    let settleFrames: Int
    /// The luma auto exposure aims at (before the bias).
    let targetLuma: Double
    private let device: CaptureDevice
    private let meter: FrameMeter
    /// The sensor paints each change into its next frame (the virtual camera): the loop
    /// changes the device's state and decides HDR and low-light boost itself; otherwise it
    /// writes its steps through the device's controller and completes changes by metering.
    private let paints: Bool
    /// What CaptureKit drives on this device (fixed by its controls): read once, not per frame.
    private let runsExposure: Bool, runsWhiteBalance: Bool
    private let searchesFocus: (autoFocus: Bool, continuous: Bool)
    /// What auto exposure may use: the device's limits; each frame caps durations at
    /// `activeVideoMaxFrameDuration` (`LoopSettings.longestFrame`).
    private let deviceLimits: (duration: ClosedRange<Double>, iso: ClosedRange<Double>)
    private let state: Mutex<LoopState>

    /// What the loop remembers between frames; touched by the streaming thread only.
    struct LoopState {
        var focusRequest: Int
        var search: AutoFocusSearch?
        /// Where the lens is going (smooth moves take several frames).
        var lensTarget: Float?
        var focusSettle = 0
        var exposureSettle = 0
        var whiteBalanceSettle = 0
        /// Continuous focus: sharpness per luma when the last search ended, and how many frames
        /// in a row have been much softer.
        var referenceSharpness: Double?
        var softFrames = 0
        /// The modes seen on the last frame: a loop judges only frames taken after its mode was
        /// set (the frame being measured may predate the change, or the scene change before it).
        var exposureMode: CaptureDevice.ExposureMode?
        var whiteBalanceMode: CaptureDevice.WhiteBalanceMode?
    }

    init?(device: CaptureDevice, width: Int, height: Int, pixelFormat: PixelFormat, targetLuma: Double) {
        guard let meter = FrameMeter(width: width, height: height, pixelFormat: pixelFormat) else { return nil }
        self.device = device
        self.meter = meter
        self.targetLuma = targetLuma
        paints = !device.completesByMetering
        settleFrames = paints ? 1 : 3
        runsExposure = device.runsExposureLoop
        runsWhiteBalance = device.runsWhiteBalanceLoop
        searchesFocus = (device.searchesFocus(for: .autoFocus), device.searchesFocus(for: .continuousAutoFocus))
        let sensorLimits = device.sensorExposureLimits
        if sensorLimits.duration.upperBound > 0 {
            deviceLimits = sensorLimits
        } else {
            // No exposure time to set (a gain only): the duration stays, ISO moves.
            let duration = device.readState { $0.exposure.duration.seconds }
            deviceLimits = (duration...duration, sensorLimits.iso)
        }
        state = Mutex(LoopState(focusRequest: device.readState { $0.focus.searchRequest }))
    }

    /// The luma a V4L2 camera's exposure loop aims at: 18 % gray in sRGB.
    static let middleGray = 118.0

    /// Looks at one frame (its first plane onward) presented at `time`.
    func process(_ frame: UnsafeRawBufferPointer, at time: CaptureTime?) {
        let settings = device.readState { LoopSettings($0) }
        // Frames lit by the flash are the still's, not the scene's: the loops hold.
        guard !settings.flashFiring else { return }
        guard let stats = meter.measure(frame, exposure: settings.exposureRect, whiteBalance: .centreHalf,
                                        focus: settings.focusRect) else { return }
        var update = LoopUpdate()
        state.withLock { loop in
            meterExposure(stats, settings, &update)
            meterWhiteBalance(stats, settings, &update)
            if runsExposure { stepExposure(settings, &loop, &update) }
            if runsWhiteBalance { stepWhiteBalance(settings, &loop, &update) }
            stepFocus(stats, settings, &loop, &update)
        }
        apply(update, settings)
        if !paints, let time {
            device.sensorApplied(generation: settings.generation, at: time)
            device.frameMetered(meanLuma: stats.meanLuma, at: time)
        }
    }

    // MARK: Metering

    private func meterExposure(_ stats: FrameStatistics, _ settings: LoopSettings, _ update: inout LoopUpdate) {
        let offset = AutoExposure.offset(meanLuma: stats.meanLuma, target: targetLuma, bias: settings.bias)
        if abs(offset - settings.targetOffset) >= 0.01 { update.targetOffset = (offset * 100).rounded() / 100 }
        update.meteredOffset = offset
    }

    private func meterWhiteBalance(_ stats: FrameStatistics, _ settings: LoopSettings, _ update: inout LoopUpdate) {
        let applied = runsWhiteBalance ? settings.gains : .init(redGain: 1, greenGain: 1, blueGain: 1)
        let grayWorld = AutoWhiteBalance.grayWorld(red: stats.red, green: stats.green, blue: stats.blue,
                                                   appliedGains: applied, maxGain: WhiteBalanceState.maxGain)
        if !AutoWhiteBalance.isBalanced(grayWorld, target: settings.grayWorld, tolerance: 0.002) { update.grayWorld = grayWorld }
        update.meteredGrayWorld = grayWorld
    }

    // MARK: Loops

    private func stepExposure(_ settings: LoopSettings, _ loop: inout LoopState, _ update: inout LoopUpdate) {
        if loop.exposureMode != settings.exposureMode {
            loop.exposureMode = settings.exposureMode
            loop.exposureSettle = settleFrames
        }
        guard settings.exposureMode == .continuousAutoExposure || settings.exposureMode == .autoExpose,
              !settings.hasExposureOverride, let offset = update.meteredOffset else {
            if settings.isAdjustingExposure { update.isAdjustingExposure = false }
            return
        }
        if loop.exposureSettle > 0 { loop.exposureSettle -= 1; return }
        // Exposures up to the longest frame: past the shortest one, the device slows down.
        let durations = deviceLimits.duration
        let limits = (duration: durations.lowerBound...max(durations.lowerBound, min(durations.upperBound, settings.longestFrame)),
                      iso: deviceLimits.iso)
        // Auto torch goes out once the exposure has room for the light it adds (+1 EV) and more.
        let product = settings.duration.seconds * Double(settings.iso)
        if settings.torchMode == .auto && settings.torchLevel > 0
            && product * 2.5 < limits.duration.upperBound * min(limits.iso.upperBound, Double(LowLightState.unboostedMaxISO)) {
            update.torchLevel = 0
        }
        // Automatic HDR (virtual camera) ends once the exposure is a stop above its shortest.
        if paints && settings.hdrAutomatic && settings.hdrEnabled
            && settings.duration.seconds * Double(settings.iso) > 2 * limits.duration.lowerBound * limits.iso.lowerBound {
            update.hdr = false
        }
        let onTarget = abs(offset) <= AutoExposure.tolerance
        let maxISO = settings.lowLightAllowed ? Float(limits.iso.upperBound) : min(LowLightState.unboostedMaxISO, Float(limits.iso.upperBound))
        // On target, the same light is still shared out again when the limits moved (a longer
        // or shorter `activeVideoMaxFrameDuration`): duration first, then ISO.
        let next = AutoExposure.next(duration: settings.duration.seconds, iso: settings.iso, offset: onTarget ? 0 : offset,
                                     limits: limits, maxISO: maxISO)
        let duration = ExposureState.duration(next.duration)
        let moves = abs(next.duration - settings.duration.seconds) > 0.01 * settings.duration.seconds || abs(next.iso - settings.iso) >= 0.5
        if onTarget && !moves {
            if settings.isAdjustingExposure { update.isAdjustingExposure = false }
            if settings.exposureMode == .autoExpose { update.exposureMode = .locked }
            return
        }
        guard moves else {
            // At a limit: nothing left to move. Automatic HDR (virtual camera) turns on when the
            // scene is too bright for the shortest exposure.
            if settings.isAdjustingExposure { update.isAdjustingExposure = false }
            if paints && settings.hdrAutomatic && !settings.hdrEnabled && offset > 2 * AutoExposure.tolerance { update.hdr = true }
            // Auto torch: lit when the longest exposure is still over 1 EV short.
            if settings.torchMode == .auto && settings.torchLevel == 0 && offset < -1 { update.torchLevel = CaptureDevice.maxAvailableTorchLevel }
            return
        }
        update.exposure = (duration, next.iso)
        update.isAdjustingExposure = true
        if paints { update.lowLightBoost = next.iso > LowLightState.unboostedMaxISO }
        loop.exposureSettle = settleFrames - 1
    }

    private func stepWhiteBalance(_ settings: LoopSettings, _ loop: inout LoopState, _ update: inout LoopUpdate) {
        if loop.whiteBalanceMode != settings.whiteBalanceMode {
            loop.whiteBalanceMode = settings.whiteBalanceMode
            loop.whiteBalanceSettle = settleFrames
        }
        guard settings.whiteBalanceMode != .locked, let target = update.meteredGrayWorld else { return }
        if loop.whiteBalanceSettle > 0 { loop.whiteBalanceSettle -= 1; return }
        guard !AutoWhiteBalance.isBalanced(settings.gains, target: target, tolerance: AutoWhiteBalance.tolerance) else {
            if settings.isAdjustingWhiteBalance { update.isAdjustingWhiteBalance = false }
            if settings.whiteBalanceMode == .autoWhiteBalance { update.whiteBalanceMode = .locked }
            return
        }
        update.gains = AutoWhiteBalance.step(from: settings.gains, towards: target)
        update.isAdjustingWhiteBalance = true
        loop.whiteBalanceSettle = settleFrames - 1
    }

    private func stepFocus(_ stats: FrameStatistics, _ settings: LoopSettings, _ loop: inout LoopState, _ update: inout LoopUpdate) {
        let searches = switch settings.focusMode {
        case .locked: false
        case .autoFocus: searchesFocus.autoFocus
        case .continuousAutoFocus: searchesFocus.continuous
        }
        guard searches else {
            loop.search = nil
            loop.lensTarget = nil
            loop.focusRequest = settings.searchRequest
            return
        }
        let sharpness = stats.sharpness / max(stats.meanLuma, 1)
        if loop.focusRequest != settings.searchRequest {
            loop.focusRequest = settings.searchRequest
            let search = AutoFocusSearch(range: settings.focusRange, smooth: settings.smoothFocus, from: settings.lensPosition)
            loop.search = search
            loop.lensTarget = search.position
            loop.focusSettle = 0
            update.isAdjustingFocus = true
        }
        if loop.focusSettle > 0 { loop.focusSettle -= 1; return }
        // Travel towards the target, a smooth step per frame when smooth.
        if let target = loop.lensTarget, target != settings.lensPosition {
            let limit: Float = settings.smoothFocus ? 0.05 : 1
            let position = settings.lensPosition + min(max(target - settings.lensPosition, -limit), limit)
            update.lensPosition = position
            loop.focusSettle = settleFrames - 1
            return
        }
        loop.lensTarget = nil
        if var search = loop.search {
            if let next = search.record(sharpness) {
                loop.search = search
                loop.lensTarget = next
                update.lensPosition = next
                loop.focusSettle = settleFrames - 1
            } else {
                loop.search = nil
                loop.lensTarget = search.result
                update.lensPosition = search.result
                loop.focusSettle = settleFrames - 1
                loop.referenceSharpness = nil
                loop.softFrames = 0
            }
            return
        }
        if settings.isAdjustingFocus {
            // The lens reached the search's answer.
            update.isAdjustingFocus = false
            loop.referenceSharpness = sharpness
            if settings.focusMode == .autoFocus { update.focusMode = .locked }
            return
        }
        // Continuous focus watches for the scene going soft, and searches again.
        guard settings.focusMode == .continuousAutoFocus else { return }
        guard let reference = loop.referenceSharpness else { loop.referenceSharpness = sharpness; return }
        loop.softFrames = sharpness < reference * 0.6 ? loop.softFrames + 1 : 0
        if loop.softFrames >= 10 {
            loop.softFrames = 0
            let search = AutoFocusSearch(range: settings.focusRange, smooth: settings.smoothFocus, from: settings.lensPosition)
            loop.search = search
            loop.lensTarget = search.position
            update.isAdjustingFocus = true
        }
    }

    // MARK: Applying

    private func apply(_ update: LoopUpdate, _ settings: LoopSettings) {
        guard update.changesState else { return }
        let paints = self.paints
        let pace = device.withState { state in
            let pace = state.pacedFrameRate
            if let offset = update.targetOffset { state.exposure.targetOffset = offset }
            if let grayWorld = update.grayWorld { state.whiteBalance.grayWorld = grayWorld }
            if let adjusting = update.isAdjustingExposure { state.exposure.isAdjusting = adjusting }
            if let adjusting = update.isAdjustingWhiteBalance { state.whiteBalance.isAdjusting = adjusting }
            // A search the user asked for since this frame was read wins over the loop's verdict on the old one.
            let sameSearch = state.focus.searchRequest == settings.searchRequest
            if let adjusting = update.isAdjustingFocus, sameSearch { state.focus.isAdjusting = adjusting }
            if let boost = update.lowLightBoost { state.lowLight.isEnabled = boost && state.lowLight.isAllowed }
            // A mode changed by the user since this frame was read wins over the loop.
            if let mode = update.exposureMode, state.exposure.mode == settings.exposureMode { state.exposure.mode = mode }
            if let mode = update.whiteBalanceMode, state.whiteBalance.mode == settings.whiteBalanceMode { state.whiteBalance.mode = mode }
            if let mode = update.focusMode, state.focus.mode == settings.focusMode, sameSearch { state.focus.mode = mode }
            var changed = false
            if let exposure = update.exposure, state.exposure.mode == settings.exposureMode {
                state.exposure.duration = exposure.duration
                state.exposure.iso = exposure.iso
                changed = true
            }
            if let gains = update.gains, state.whiteBalance.mode == settings.whiteBalanceMode {
                state.whiteBalance.gains = gains
                changed = true
            }
            if let lens = update.lensPosition, state.focus.mode == settings.focusMode, sameSearch {
                state.focus.lensPosition = lens
                changed = true
            }
            if let hdr = update.hdr, state.hdr.isAutomatic {
                state.hdr.isEnabled = hdr
                changed = true
            }
            if let level = update.torchLevel, state.torch.mode == .auto {
                state.torch.level = level
                changed = true
            }
            if changed && paints { state.sensor.changed(notifying: nil) }
            return pace
        }
        if update.exposure != nil { device.paceChanged(from: pace) }
        guard !paints, update.exposure != nil || update.gains != nil || update.lensPosition != nil || update.torchLevel != nil else { return }
        let device = device
        device.loopWrites.async {
            if let exposure = update.exposure { _ = try? device.applyControl(.exposure(duration: exposure.duration, iso: exposure.iso)) }
            if let gains = update.gains { _ = try? device.applyControl(.whiteBalanceGains(gains)) }
            if let lens = update.lensPosition { _ = try? device.applyControl(.lensPosition(lens)) }
            if let level = update.torchLevel { _ = try? device.applyControl(.torch(level: level)) }
        }
    }
}

/// The device settings the loop reads once per frame.
struct LoopSettings {
    var generation: Int
    var exposureMode: CaptureDevice.ExposureMode
    var duration: CaptureTime
    var iso: Float
    var bias: Float
    var targetOffset: Float
    var hasExposureOverride: Bool
    var isAdjustingExposure: Bool
    var lowLightAllowed: Bool
    var exposureRect: MeterRect
    var whiteBalanceMode: CaptureDevice.WhiteBalanceMode
    var gains: CaptureDevice.WhiteBalanceGains
    var grayWorld: CaptureDevice.WhiteBalanceGains
    var isAdjustingWhiteBalance: Bool
    var focusMode: CaptureDevice.FocusMode
    var lensPosition: Float
    var searchRequest: Int
    var smoothFocus: Bool
    var focusRange: ClosedRange<Float>
    var focusRect: MeterRect
    var isAdjustingFocus: Bool
    var hdrAutomatic: Bool
    var hdrEnabled: Bool
    var flashFiring: Bool
    var torchMode: CaptureDevice.TorchMode
    var torchLevel: Float
    /// `activeVideoMaxFrameDuration` in seconds: the longest exposure auto exposure may use.
    var longestFrame: Double

    init(_ state: CaptureDevice.DeviceState) {
        longestFrame = state.longestFrameDuration
        generation = state.sensor.generation
        exposureMode = state.exposure.mode
        duration = state.exposure.duration
        iso = state.exposure.iso
        bias = state.exposure.bias
        targetOffset = state.exposure.targetOffset
        hasExposureOverride = state.exposure.override != nil
        isAdjustingExposure = state.exposure.isAdjusting
        lowLightAllowed = state.lowLight.isAllowed
        let exposurePoint = state.exposure.pointOfInterest
        exposureRect = exposurePoint == CGPoint(x: 0.5, y: 0.5) ? .centreHalf : .around(x: exposurePoint.x, y: exposurePoint.y, fraction: 0.25)
        whiteBalanceMode = state.whiteBalance.mode
        gains = state.whiteBalance.gains
        grayWorld = state.whiteBalance.grayWorld
        isAdjustingWhiteBalance = state.whiteBalance.isAdjusting
        focusMode = state.focus.mode
        lensPosition = state.focus.lensPosition
        searchRequest = state.focus.searchRequest
        smoothFocus = state.focus.isSmooth
        focusRange = state.focus.rangeRestriction.lensRange
        let focusPoint = state.focus.pointOfInterest
        focusRect = .around(x: focusPoint.x, y: focusPoint.y, fraction: 0.25)
        isAdjustingFocus = state.focus.isAdjusting
        hdrAutomatic = state.hdr.isAutomatic
        hdrEnabled = state.hdr.isEnabled
        flashFiring = state.flash.isFiring
        torchMode = state.torch.mode
        torchLevel = state.torch.level
    }
}

/// What one frame's decisions change.
struct LoopUpdate {
    var meteredOffset: Float?
    var meteredGrayWorld: CaptureDevice.WhiteBalanceGains?
    var targetOffset: Float?
    var grayWorld: CaptureDevice.WhiteBalanceGains?
    var exposure: (duration: CaptureTime, iso: Float)?
    var gains: CaptureDevice.WhiteBalanceGains?
    var lensPosition: Float?
    var isAdjustingExposure: Bool?
    var isAdjustingWhiteBalance: Bool?
    var isAdjustingFocus: Bool?
    var exposureMode: CaptureDevice.ExposureMode?
    var whiteBalanceMode: CaptureDevice.WhiteBalanceMode?
    var focusMode: CaptureDevice.FocusMode?
    var lowLightBoost: Bool?
    var hdr: Bool?
    var torchLevel: Float?

    var changesState: Bool {
        targetOffset != nil || grayWorld != nil || exposure != nil || gains != nil || lensPosition != nil
            || isAdjustingExposure != nil || isAdjustingWhiteBalance != nil || isAdjustingFocus != nil || exposureMode != nil
            || whiteBalanceMode != nil || focusMode != nil || lowLightBoost != nil || hdr != nil || torchLevel != nil
    }
}
