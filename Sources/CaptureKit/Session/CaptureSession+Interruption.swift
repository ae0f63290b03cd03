import Foundation
import GStreamerSwift

/// Interruptions: an input's device that goes away or is taken by another process takes only
/// its source out of the running pipeline. The session stays running, its outputs attached; it
/// posts `wasInterruptedNotification`, retries the device every `retryInterval`, and when frames
/// flow again posts `interruptionEndedNotification`. The retries run on the session's executor;
/// both notifications are posted on the session's notification queue, never on a GStreamer
/// thread.
extension CaptureSession {
    /// Posted when an input's device went away or is in use; `userInfo[interruptionReasonKey]`
    /// is the `InterruptionReason`'s raw value, an `Int` as in AVFoundation
    /// (`InterruptionReason(rawValue:)` reads it back).
    public static let wasInterruptedNotification = Notification.Name("CaptureSessionWasInterrupted")
    /// Posted when the interrupted device delivers frames again.
    public static let interruptionEndedNotification = Notification.Name("CaptureSessionInterruptionEnded")
    /// The `userInfo` key of the reason in a was-interrupted notification.
    public static let interruptionReasonKey = "CaptureSessionInterruptionReasonKey"

    /// How often an interrupted session tries its device again.
    static let retryInterval = DispatchTimeInterval.milliseconds(250)

    /// An interruption in progress.
    struct Interruption {
        var source: String
        var reason: InterruptionReason
        /// A new source is being started; wait for its first frame or its failure.
        var resuming = false
    }

    /// Whether an input's device is gone or busy while the session runs (observable).
    public var isInterrupted: Bool {
        registrar.access(self, keyPath: \.isInterrupted)
        return state.withLock { $0.interruption != nil }
    }

    private func setInterruption(_ change: (inout Interruption?) -> Void) {
        registrar.withMutation(of: self, keyPath: \.isInterrupted) {
            state.withLock { change(&$0.interruption) }
        }
    }

    /// Clears the interruption when the session stops.
    func setInterruptionEnded() {
        setInterruption { $0 = nil }
    }

    /// On the executor: a source's device is gone or busy. Its source is taken out; outputs
    /// and observers hear of it on the notification queue.
    func interrupt(source key: String, reason: BusErrorReason, generation: Int) {
        guard let (runtime, input) = state.withLock({ state -> (SessionRuntime, SessionGraph.Input)? in
            guard state.generation == generation, state.isRunning, let runtime = state.runtime else { return nil }
            return runtime.live.withLock { $0.sources[key] }.map { (runtime, $0.input) }
        }) else { return }
        // Requests wait until the source is out (its idle moment); its events do not.
        executor.hold { release in runtime.suspendSource(key, then: release) }
        let audio = input.mediaType == .audio
        let began: InterruptionReason = reason == .deviceBusy
            ? (audio ? .audioDeviceInUseByAnotherClient : .videoDeviceInUseByAnotherClient)
            : (audio ? .audioDeviceNotAvailable : .videoDeviceNotAvailable)
        let already = state.withLock { $0.interruption != nil }
        setInterruption { $0 = Interruption(source: key, reason: began) }
        guard !already else { return }
        let (outputs, device) = (state.withLock { $0.outputs }, input.device)
        notifications.async {
            for output in outputs { output.inputInterrupted(device, reason: began) }
            CaptureLog.logger.warning("session interrupted: \(began.rawValue)")
            NotificationCenter.default.post(name: Self.wasInterruptedNotification, object: self,
                                            userInfo: [Self.interruptionReasonKey: began.rawValue])
        }
        scheduleResume(generation: generation)
    }

    private func scheduleResume(generation: Int) {
        executor.submit(at: .now() + Self.retryInterval) { [weak self] in
            self?.tryResume(generation: generation)
        }
    }

    /// On the executor: starts the interrupted source again when its device is there.
    private func tryResume(generation: Int) {
        resumeIfAvailable(generation: generation)
        guard state.withLock({ $0.generation == generation && $0.interruption != nil && $0.isRunning }) else { return }
        scheduleResume(generation: generation)
    }

    /// Starts a new source for the interrupted one when its device is there; its first frame
    /// ends the interruption.
    private func resumeIfAvailable(generation: Int) {
        guard let (runtime, interruption) = state.withLock({ state -> (SessionRuntime, Interruption)? in
            guard state.generation == generation, state.isRunning, let runtime = state.runtime,
                  let interruption = state.interruption else { return nil }
            return (runtime, interruption)
        }) else { return }
        guard !interruption.resuming, let input = runtime.live.withLock({ $0.sources[interruption.source]?.input }),
              isAvailable(input.device) else { return }
        setInterruption { $0?.resuming = true }
        do throws(CaptureError) {
            let notifications = self.notifications
            let session = SessionReference()
            session.set(self)
            try runtime.resumeSource(interruption.source, input: input) {
                notifications.async { session.value?.interruptionEnded(generation: generation) }
            }
        } catch {
            CaptureLog.logger.warning("resuming \(interruption.source) failed: \(error)")
            setInterruption { $0?.resuming = false }
        }
    }

    /// On the notification queue: the resumed source's first frame left it.
    private func interruptionEnded(generation: Int) {
        guard state.withLock({ $0.generation == generation && $0.interruption != nil }) else { return }
        setInterruption { $0 = nil }
        NotificationCenter.default.post(name: Self.interruptionEndedNotification, object: self)
    }

    /// Whether a device is worth opening again: connected (a re-plugged camera is a new object
    /// with the same uniqueID, in the session's context). A busy device is tried: a new source
    /// fails as the old one did (interrupting again, quietly) until the other process lets go.
    func isAvailable(_ device: CaptureDevice) -> Bool {
        device.isConnected || context.device(uniqueID: device.uniqueID)?.isConnected == true
    }
}

