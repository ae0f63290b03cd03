import GStreamerSwift

extension StreamOutput {
    /// MPEG-TS over SRT: `mpegtsmux` `prefix_mux` (`alignment=7`: seven 188-byte packets per
    /// datagram, what SRT receivers such as `srt-live-transmit` expect; without it what they
    /// receive does not decode) ! `srtsink` `prefix_sink` (listener or caller, the target's
    /// latency; not synchronised: the stream is live already). Audio enters the muxer as AAC.
    /// A caller connects without blocking the state change and does not reconnect by itself
    /// (`auto-reconnect=false`): its failure goes to the output, which calls again with its own
    /// back-off and reports it in ``StreamOutput/status``.
    func srtTail(prefix key: String, _ srt: SRTTarget) -> Tail {
        let mux = PipelinePlan.Element("mpegtsmux", .mux, in: key, [.init("alignment", 7)])
        let sink = PipelinePlan.Element("srtsink", .sink, in: key, [
            .init("uri", .string(srt.uri)), .init("latency", .int(srt.latency)), .init("wait-for-connection", false),
            .init("auto-reconnect", false), .init("sync", false), .init("async", false),
        ])
        return Tail(elements: [mux, sink], links: [.init(from: mux.name, to: sink.name)], video: "\(mux.name).sink_%d", audio: "\(mux.name).sink_%d")
    }

    /// The passphrase is set here, not in the plan, so printed pipelines leave it out. A
    /// listener counts its callers as they come and go ("caller-added", "caller-removed", on
    /// the sink's thread), and asks the encoder for a key frame when one comes, so that it
    /// decodes from its first second rather than from the next key frame.
    func attachSRT(_ branch: RunningBranch) throws(CaptureError) {
        guard case .srt(let srt) = target else { return }
        let sink = try branch.element(.sink)
        if let passphrase = srt.passphrase {
            do {
                try sink.set("passphrase", .string(passphrase))
            } catch {
                throw .pipelineFailed(error, element: sink.name)
            }
        }
        guard srt.mode == .listener else { return }
        let entry = try branch.pad(.queue, "sink")
        sink.onSignal("caller-added") { [weak self] in
            self?.state.withLock { $0.statistics.clients += 1 }
            entry.push(.forceKeyUnit())
        }
        sink.onSignal("caller-removed") { [weak self] in self?.state.withLock { $0.statistics.clients = max(0, $0.statistics.clients - 1) } }
    }
}
