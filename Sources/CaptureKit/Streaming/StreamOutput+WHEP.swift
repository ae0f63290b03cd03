import GStreamerSwift
import Synchronization

extension StreamOutput {
    /// WHEP: a `tee` `prefix_tee` (it drops frames while no one watches) that each viewer's
    /// `queue ! rtph264pay ! webrtcbin` joins and leaves while the branch plays (see
    /// ``WHEPEndpoint``); Opus audio (when the session has a microphone) into the tee
    /// `prefix_atee`, which each viewer whose offer takes audio joins with `queue ! rtpopuspay`.
    /// The bytes counted are the RTP packets sent to every viewer.
    func whepTail(prefix key: String) -> Tail {
        let tee = PipelinePlan.Element("tee", .tee, in: key, [.init("allow-not-linked", true)])
        let audio = PipelinePlan.Element("tee", .atee, in: key, [.init("allow-not-linked", true)])
        return Tail(elements: [tee, audio], links: [], video: tee.name, audio: audio.name, audioCodec: .mkv, counter: nil)
    }

    /// Keeps the branch's endpoint (its viewers) until ``detachWHEP()``; its server, for a
    /// `whep://` target, starts in ``afterAttach(_:)``. `clients` counts the viewers connected.
    func attachWHEP(_ branch: RunningBranch) throws(CaptureError) {
        let endpoint = WHEPEndpoint(
            prefix: branch.prefix, bin: branch.bin, tee: try branch.element(.tee), audioTee: try branch.element(.atee),
            clients: { [weak self] count in self?.state.withLock { $0.statistics.clients = count } },
            sent: { [weak self] bytes in self?.sent(bytes: bytes) })
        state.withLock { $0.whep = endpoint }
    }

    /// A `whep://` output's server binds its port away from the session's executor; the change
    /// that added the branch goes on once it listens, or fails with `streamFailed` (its port is
    /// in use, say).
    func afterAttach(_ done: @escaping @Sendable (CaptureError?) -> Void) -> Bool {
        state.withLock { $0.whep }?.start(target, then: done) ?? false
    }

    /// An error from one viewer's elements removes that viewer; the others play on.
    func takesError(fromElement element: String) -> Bool {
        state.withLock { $0.whep }?.removeViewer(owning: element) ?? false
    }

    /// The branch is gone: its endpoint waits for ``afterDetach(_:)``, which the runtime calls
    /// next, to end its viewers and stop its server.
    func detachWHEP() {
        state.withLock { state in
            state.whepStopping = state.whep
            state.whep = nil
        }
    }

    /// The branch's viewers end and its server stops; the branch counts as gone once the port
    /// is free.
    func afterDetach(_ done: @escaping @Sendable () -> Void) -> Bool {
        guard let endpoint = state.withLock({ state in defer { state.whepStopping = nil }; return state.whepStopping }) else { return false }
        endpoint.stop(then: done)
        return true
    }
}
