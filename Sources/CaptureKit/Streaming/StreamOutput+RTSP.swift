import GStreamerSwift

extension StreamOutput {
    /// Serving RTSP: the branch ends in `appsink` `prefix_sink` (not synchronised, no
    /// preroll), whose access units an ``RTSPServer`` started when the branch attaches hands,
    /// by reference, to the one media all its clients share: one encode and one payloader
    /// serve every client, over UDP or TCP. Video only.
    func rtspTail(prefix key: String) -> Tail {
        let sink = PipelinePlan.Element("appsink", .sink, in: key, [
            .init("sync", false), .init("async", false), .init("enable-last-sample", false),
            .init("max-buffers", 2), .init("drop", true),
        ])
        return Tail(elements: [sink], links: [], video: sink.name)
    }

    /// Publishing: `rtspclientsink` `prefix_sink` (ANNOUNCE and RECORD, RTP interleaved in the
    /// RTSP connection, so that a server that goes away fails the branch at once). It connects
    /// on its own thread: the state change does not wait for the server. Video only; the bytes
    /// counted are the encoded video's. The credentials are set when the branch attaches, so
    /// that ``CaptureSession/pipelineDescription`` does not print the password.
    func rtspPublishTail(prefix key: String, url: String) -> Tail {
        let sink = PipelinePlan.Element("rtspclientsink", .sink, in: key, [
            .init("location", .string(url)), .init("protocols", .nick("tcp")), .init("latency", 0),
            .init("async-handling", true), .init("tcp-timeout", 5000000),
        ])
        return Tail(elements: [sink], links: [], video: "\(sink.name).sink_%u", counter: (element: .h264, pad: "src"))
    }

    /// A publisher gives the target's credentials as `rtspclientsink`'s `user-id` and `user-pw`.
    func attachRTSPPublish(_ branch: RunningBranch) throws(CaptureError) {
        guard case .rtspPublish(_, let credentials?) = target else { return }
        let sink = try branch.element(.sink)
        do {
            try sink.set("user-id", .string(credentials.user))
            try sink.set("user-pw", .string(credentials.password))
        } catch {
            throw .pipelineFailed(error, element: sink.name)
        }
    }

    /// Starts the branch's RTSP server on the target's address; its clients are counted as they
    /// connect and leave (on the server's thread). A port in use, or a host that is not this
    /// machine's, throws ``CaptureError/Code/streamFailed`` naming the address.
    func attachRTSP(_ branch: RunningBranch) throws(CaptureError) {
        guard case .rtsp(let host, let port, let path, let credentials) = target else { return }
        stopRTSPServer()
        let sink = try branch.element(.sink)
        do {
            let server = try RTSPServer(host: host, port: port, path: path, user: credentials?.user, password: credentials?.password,
                                        appSink: sink) { [weak self] clients in
                self?.state.withLock { $0.statistics.clients = clients }
            }
            state.withLock { $0.rtspServer = server }
        } catch {
            throw .streamFailed(target, message: error.description, element: sink.name)
        }
    }

    /// Stops the RTSP server, if one runs: its clients are closed, its port freed.
    func stopRTSPServer() {
        state.withLock { state in
            defer { state.rtspServer = nil }
            return state.rtspServer
        }?.stop()
    }
}
