import Foundation
import Dispatch
import Observation
import Synchronization

extension CaptureDevice {
    /// The handle observers register against.
    struct WeakSubject {
        weak var device: CaptureDevice?
    }

    /// The observable properties' values, compared before and after each state change.
    struct ObservedValues: Equatable {
        var activeFormat: Format
        var isConnected: Bool
        var exposureMode: ExposureMode
        var exposureDuration: CaptureTime
        var iso: Float
        var exposureTargetBias: Float
        var exposureTargetOffset: Float
        var focusMode: FocusMode
        var lensPosition: Float
        var whiteBalanceMode: WhiteBalanceMode
        var deviceWhiteBalanceGains: WhiteBalanceGains
        var videoZoomFactor: Double
        var isRampingVideoZoom: Bool
        var torchMode: TorchMode
        var torchLevel: Float
        var isAdjustingFocus: Bool
        var focusPointOfInterest: CGPoint
        var isSmoothAutoFocusEnabled: Bool
        var autoFocusRangeRestriction: AutoFocusRangeRestriction
        var isAdjustingExposure: Bool
        var exposurePointOfInterest: CGPoint
        var isAdjustingWhiteBalance: Bool
        var flashMode: FlashMode
        var isLowLightBoostEnabled: Bool
        var isVideoHDREnabled: Bool
        var isTorchActive: Bool
        /// Without `hasFlash`, which never changes.
        var isFlashActive: Bool
        var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains
        var activeVideoMinFrameDuration: CaptureTime
        var activeVideoMaxFrameDuration: CaptureTime

        init(_ state: DeviceState) {
            activeFormat = state.activeFormat
            isConnected = state.isConnected
            exposureMode = state.exposure.mode
            exposureDuration = state.exposure.duration
            iso = state.exposure.iso
            exposureTargetBias = state.exposure.bias
            exposureTargetOffset = state.exposure.targetOffset
            focusMode = state.focus.mode
            lensPosition = state.focus.lensPosition
            whiteBalanceMode = state.whiteBalance.mode
            deviceWhiteBalanceGains = state.whiteBalance.gains
            videoZoomFactor = state.zoom.factor
            isRampingVideoZoom = state.zoom.ramp != nil
            torchMode = state.torch.mode
            torchLevel = state.torch.level
            isAdjustingFocus = state.focus.isAdjusting
            focusPointOfInterest = state.focus.pointOfInterest
            isSmoothAutoFocusEnabled = state.focus.isSmooth
            autoFocusRangeRestriction = state.focus.rangeRestriction
            isAdjustingExposure = state.exposure.isAdjusting
            exposurePointOfInterest = state.exposure.pointOfInterest
            isAdjustingWhiteBalance = state.whiteBalance.isAdjusting
            flashMode = state.flash.mode
            isLowLightBoostEnabled = state.lowLight.isEnabled
            isVideoHDREnabled = state.hdr.isEnabled
            isTorchActive = state.torch.level > 0
            isFlashActive = state.isConnected && state.flash.wouldFire(offset: state.exposure.targetOffset)
            grayWorldDeviceWhiteBalanceGains = state.whiteBalance.grayWorld
            activeVideoMinFrameDuration = FrameRateRange.duration(for: state.activeFrameRate ?? state.activeFormat.defaultFrameRate)
            activeVideoMaxFrameDuration = state.maxFrameDuration ?? activeVideoMinFrameDuration
        }
    }

    /// Registers an access to an observable property (inside `withObservationTracking`).
    func observed<Value>(_ keyPath: KeyPath<CaptureDevice, Value>) {
        state.registrar.access(subject, keyPath: keyPath)
    }

    /// The shared observation subject: the first handle made for this device.
    private var subject: CaptureDevice { state.subject.withLock { $0.device } ?? self }

    /// Tells observers of each property that changed; called with no lock held.
    func announceChanges(from before: ObservedValues, to after: ObservedValues) {
        let subject = subject
        func announce<Value: Equatable>(_ values: KeyPath<ObservedValues, Value>, _ property: KeyPath<CaptureDevice, Value>) {
            if before[keyPath: values] != after[keyPath: values] {
                state.registrar.withMutation(of: subject, keyPath: property) {}
            }
        }
        announce(\.activeFormat, \.activeFormat)
        announce(\.isConnected, \.isConnected)
        announce(\.exposureMode, \.exposureMode)
        announce(\.exposureDuration, \.exposureDuration)
        announce(\.iso, \.iso)
        announce(\.exposureTargetBias, \.exposureTargetBias)
        announce(\.exposureTargetOffset, \.exposureTargetOffset)
        announce(\.focusMode, \.focusMode)
        announce(\.lensPosition, \.lensPosition)
        announce(\.whiteBalanceMode, \.whiteBalanceMode)
        announce(\.deviceWhiteBalanceGains, \.deviceWhiteBalanceGains)
        announce(\.videoZoomFactor, \.videoZoomFactor)
        announce(\.isRampingVideoZoom, \.isRampingVideoZoom)
        announce(\.torchMode, \.torchMode)
        announce(\.torchLevel, \.torchLevel)
        announce(\.isAdjustingFocus, \.isAdjustingFocus)
        announce(\.focusPointOfInterest, \.focusPointOfInterest)
        announce(\.isSmoothAutoFocusEnabled, \.isSmoothAutoFocusEnabled)
        announce(\.autoFocusRangeRestriction, \.autoFocusRangeRestriction)
        announce(\.isAdjustingExposure, \.isAdjustingExposure)
        announce(\.exposurePointOfInterest, \.exposurePointOfInterest)
        announce(\.isAdjustingWhiteBalance, \.isAdjustingWhiteBalance)
        announce(\.flashMode, \.flashMode)
        announce(\.isLowLightBoostEnabled, \.isLowLightBoostEnabled)
        announce(\.isVideoHDREnabled, \.isVideoHDREnabled)
        announce(\.isTorchActive, \.isTorchActive)
        announce(\.isFlashActive, \.isFlashActive)
        announce(\.grayWorldDeviceWhiteBalanceGains, \.grayWorldDeviceWhiteBalanceGains)
        announce(\.activeVideoMinFrameDuration, \.activeVideoMinFrameDuration)
        announce(\.activeVideoMaxFrameDuration, \.activeVideoMaxFrameDuration)
    }

    /// Tells observers of `property` that it changed, for state kept outside `DeviceState`.
    func announceChange<Value>(of property: KeyPath<CaptureDevice, Value> & Sendable) {
        let subject = subject
        callbacks.async { self.state.registrar.withMutation(of: subject, keyPath: property) {} }
    }

    /// The values of an observable property as they change (AVFoundation's key-value
    /// observing): the current value first, then each new one. Keeps the newest 16 values for a
    /// slow consumer.
    public func values<Value: Sendable>(of keyPath: KeyPath<CaptureDevice, Value> & Sendable) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let observer = ValueObserver(device: self, keyPath: keyPath, continuation: continuation)
        continuation.onTermination = { _ in observer.ended.store(true, ordering: .relaxed) }
        observer.observe()
        return stream
    }
}

/// Re-arms `withObservationTracking` after each change and yields the new value.
private final class ValueObserver<Value: Sendable>: Sendable {
    let device: CaptureDevice
    let keyPath: KeyPath<CaptureDevice, Value> & Sendable
    let continuation: AsyncStream<Value>.Continuation
    /// Set when the consumer stops listening; the next change then ends the observation.
    let ended = Atomic<Bool>(false)

    init(device: CaptureDevice, keyPath: KeyPath<CaptureDevice, Value> & Sendable, continuation: AsyncStream<Value>.Continuation) {
        self.device = device
        self.keyPath = keyPath
        self.continuation = continuation
    }

    func observe() {
        guard !ended.load(ordering: .relaxed) else { return }
        let value = withObservationTracking {
            device[keyPath: keyPath]
        } onChange: { [self] in
            // onChange runs before the value is visible to others: read it again off this thread.
            DispatchQueue.global().async { self.observe() }
        }
        continuation.yield(value)
    }
}
