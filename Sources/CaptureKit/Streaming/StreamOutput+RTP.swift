import GStreamerSwift

extension StreamOutput {
    /// RTP over UDP: `rtph264pay` `prefix_pay` (payload type 96, parameter sets with every key
    /// frame) ! `udpsink` `prefix_sink` to the target (not synchronised). Video only: a second
    /// RTP stream for audio would need a port pair of its own.
    func rtpTail(prefix key: String, host: String, port: Int) -> Tail {
        let pay = PipelinePlan.Element("rtph264pay", .pay, in: key, [
            .init("config-interval", -1), .init("pt", 96), .init("aggregate-mode", .nick("zero-latency")),
        ])
        let sink = PipelinePlan.Element("udpsink", .sink, in: key, [
            .init("host", .string(host)), .init("port", .int(port)), .init("sync", false), .init("async", false),
        ])
        return Tail(elements: [pay, sink], links: [.init(from: pay.name, to: sink.name)], video: pay.name)
    }

    /// The session description is written from the payloader's caps when they are set (on its
    /// streaming thread, once per caps).
    func attachRTP(_ branch: RunningBranch) throws(CaptureError) {
        guard case .rtp(let host, let port) = target else { return }
        try branch.pad(.pay, "src").addProbe(.eventDownstream) { [weak self] _, data in
            guard case .event(.caps(let caps)) = data else { return .ok }
            let description = RTPSessionDescription(caps: caps, host: host, port: port)
            self?.state.withLock { $0.sessionDescription = description?.text }
            return .ok
        }
    }
}
