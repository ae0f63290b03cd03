import Dispatch

extension StreamOutput {
    /// The branch is gone. Removed by a configuration change or the session stopping
    /// (`captureCancelled`), the output is idle until its next branch. Failed (its peer
    /// refused or went away), it reports the failure in ``status``, and a caller or publisher
    /// calls again after a back-off: half a second, doubling to ten, back to half a second when
    /// the branch that failed had run for ``steadyRun`` (a connection that held). An RTSP
    /// target's server stops and frees its port.
    func detach(error: CaptureError) {
        detachWHEP()
        stopRTSPServer()
        let failed = error.code != .captureCancelled
        let now = DispatchTime.now().uptimeNanoseconds
        let delay: Double? = state.withLock { state in
            let ran = state.attachedAt.map { now - $0 } ?? 0
            state.statistics.clients = 0
            state.attachedAt = nil
            guard failed else {
                state.status = .idle
                return nil
            }
            let streamError = CaptureError.streamFailed(target, message: error.message, element: error.element)
            guard target.reconnects else {
                state.status = .failed(streamError, retryAt: nil)
                return nil
            }
            state.failures = ran >= Self.steadyRun ? 1 : state.failures + 1
            let delay = Self.backOff(failures: state.failures)
            state.waitingToRetry = true
            state.status = .failed(streamError, retryAt: DispatchTime.now().uptimeNanoseconds + UInt64(delay * 1e9))
            return delay
        }
        guard let delay else { return }
        CaptureLog.logger.info("stream \(target.description): \(error.message); calling again in \(delay) s")
        retryQueue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            let retry = state.withLock { state -> Bool in
                guard state.waitingToRetry else { return false }
                state.waitingToRetry = false
                state.statistics.reconnects += 1
                return true
            }
            if retry { owner.branchChanged() }
        }
    }

    /// How long a branch must have run before its failure counts as the first of a new series
    /// (nanoseconds): five seconds.
    static let steadyRun: UInt64 = 5_000_000_000

    /// Seconds to wait after `failures` failures in a row: 0.5, 1, 2, 4, 8, then 10.
    static func backOff(failures: Int) -> Double {
        min(10, 0.5 * Double(1 << min(max(failures - 1, 0), 5)))
    }
}
