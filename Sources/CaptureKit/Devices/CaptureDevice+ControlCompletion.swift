extension CaptureDevice {
    /// Calls `handler` on the device callback queue with the presentation time of the first
    /// frame that carries a V4L2 control change written at running time `writtenAt`, found by
    /// `ControlChangeMatcher` (`lightRatio`: light after over before, for exposure changes); with
    /// zero at once when no session runs the device (the change applies when it starts).
    func complete(_ handler: (@Sendable (CaptureTime) -> Void)?, writtenAt: CaptureTime?, lightRatio: Double? = nil) {
        guard let handler else { return }
        guard let writtenAt else {
            callbacks.async { handler(.zero) }
            return
        }
        withState { state in
            let matcher = ControlChangeMatcher(writtenAt: writtenAt, frameDuration: 1 / state.pacedFrameRate,
                                               baseline: state.lastMeteredLuma, lightRatio: lightRatio)
            state.pendingControlChanges.append((matcher, handler))
        }
    }

    /// The presentation time of the first frame that carries a control change written at
    /// `writtenAt` (zero when nothing runs); see `complete(_:writtenAt:lightRatio:)`.
    func frameCarryingChange(writtenAt: CaptureTime?, lightRatio: Double?) async -> CaptureTime {
        await withCheckedContinuation { continuation in
            complete({ continuation.resume(returning: $0) }, writtenAt: writtenAt, lightRatio: lightRatio)
        }
    }

    /// A V4L2 camera's frame presented at `time` was metered (mean luma, nil when it could not
    /// be): completes the control changes it is the first to carry. On the streaming thread.
    func frameMetered(meanLuma: Double?, at time: CaptureTime) {
        let carried = withState { state -> [@Sendable (CaptureTime) -> Void] in
            if let meanLuma { state.lastMeteredLuma = meanLuma }
            var carried: [@Sendable (CaptureTime) -> Void] = []
            var waiting: [(matcher: ControlChangeMatcher, handler: @Sendable (CaptureTime) -> Void)] = []
            for var pending in state.pendingControlChanges {
                if pending.matcher.carries(frameAt: time, meanLuma: meanLuma) { carried.append(pending.handler) } else { waiting.append(pending) }
            }
            state.pendingControlChanges = waiting
            return carried
        }
        guard !carried.isEmpty else { return }
        callbacks.async { for handler in carried { handler(time) } }
    }

    /// The source stopped: changes still waiting complete with the time they were written.
    func flushControlChanges() {
        let pending = withState { state in
            defer { state.pendingControlChanges = [] }
            return state.pendingControlChanges
        }
        guard !pending.isEmpty else { return }
        callbacks.async { for change in pending { change.handler(change.matcher.writtenAt) } }
    }
}
