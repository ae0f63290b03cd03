import GStreamerSwift

extension StreamOutput {
    /// WHEP: a `tee` `prefix_tee` (it drops frames while no one watches) that each viewer's
    /// `queue ! rtph264pay ! webrtcbin` joins and leaves while the branch plays (see
    /// ``WHEPEndpoint``); Opus audio (when the session has a microphone) into the tee
    /// `prefix_atee`, which each viewer whose offer takes audio joins with `queue ! rtpopuspay`.
    /// The bytes counted are the RTP packets sent to every viewer.
    func whepTail(prefix key: String) -> Tail {
        let tee = PipelinePlan.Element("tee", name: "\(key)_tee", [.init("allow-not-linked", "true")])
        let audio = PipelinePlan.Element("tee", name: "\(key)_atee", [.init("allow-not-linked", "true")])
        return Tail(elements: [tee, audio], links: [], video: tee.name, audio: audio.name, audioCodec: .mkv, counter: nil)
    }

    /// Starts the WHEP server (throws `streamFailed` when its port is in use) and keeps the
    /// endpoint until ``detachWHEP()``. `clients` counts the viewers connected.
    func attachWHEP(_ branch: RunningBranch) throws(CaptureError) {
        let endpoint = WHEPEndpoint(
            prefix: branch.prefix, bin: branch.bin, tee: try branch.element("tee"), audioTee: try branch.element("atee"),
            clients: { [weak self] count in self?.state.withLock { $0.statistics.clients = count } },
            sent: { [weak self] bytes in self?.sent(bytes: bytes) })
        try endpoint.start(target)
        state.withLock { $0.whep = endpoint }
    }

    /// An error from one viewer's elements removes that viewer; the others play on.
    func takesError(fromElement element: String) -> Bool {
        state.withLock { $0.whep }?.removeViewer(owning: element) ?? false
    }

    /// The branch is gone: its viewers end and the server stops, freeing its port.
    func detachWHEP() {
        state.withLock { state in defer { state.whep = nil }; return state.whep }?.stop()
    }
}
