import GStreamerSwift

extension StreamOutput {
    /// WHEP: a `tee` `prefix_tee` (it drops frames while no one watches) that each viewer's
    /// `queue ! rtph264pay ! webrtcbin` joins and leaves while the branch plays (see
    /// ``WHEPEndpoint``). The bytes counted are the RTP packets sent to every viewer.
    func whepTail(prefix key: String) -> Tail {
        let tee = PipelinePlan.Element("tee", name: "\(key)_tee", [.init("allow-not-linked", "true")])
        return Tail(elements: [tee], links: [], video: tee.name, counter: nil)
    }

    /// Starts the WHEP server (throws `streamFailed` when its port is in use) and keeps the
    /// endpoint until ``detachWHEP()``. `clients` counts the viewers connected.
    func attachWHEP(_ branch: RunningBranch) throws(CaptureError) {
        let endpoint = WHEPEndpoint(
            prefix: branch.prefix, bin: branch.bin, tee: try branch.element("tee"),
            clients: { [weak self] count in self?.state.withLock { $0.statistics.clients = count } },
            sent: { [weak self] bytes in self?.sent(bytes: bytes) })
        try endpoint.start(target)
        state.withLock { $0.whep = endpoint }
    }

    /// The branch is gone: its viewers end and the server stops, freeing its port.
    func detachWHEP() {
        state.withLock { state in defer { state.whep = nil }; return state.whep }?.stop()
    }
}
