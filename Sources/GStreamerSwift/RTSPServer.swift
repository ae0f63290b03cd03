import CGStreamer
import CGStreamerSys
import Synchronization

/// An RTSP server (gst-rtsp-server) that serves what an `appsink` receives: H.264 access units
/// (byte-stream, AU aligned), to every client at once over UDP or TCP (interleaved).
///
/// All clients share one media: the appsink's buffers go, as references (never copied), to
/// that media's `appsrc`, in C on the appsink's streaming thread; a media that starts waits
/// for a key frame, which it asks of the upstream encoder with a force-key-unit event. The
/// server accepts and talks to clients on a thread of its own.
public final class RTSPServer: Sendable {
    private let pointer: COpaquePointer
    private let stopped = Atomic<Bool>(false)
    /// The port it listens on.
    public let port: Int

    /// Starts serving `path` (`/cam`) at `host`:`port` from `appSink`, whose callbacks it takes
    /// over. With `user`, clients must give it and `password` (digest or basic authentication).
    /// `clientsChanged` is told the number of connected clients when it changes, in order, on
    /// the thread of the client that came or went; it must return quickly.
    /// Throws ``GStreamerError/listenFailed(address:message:)`` when it cannot listen.
    public init(host: String, port: Int, path: String, user: String?, password: String?, appSink: Element,
                clientsChanged: @escaping @Sendable (Int) -> Void) throws(GStreamerError) {
        GStreamer.initialize()
        let box = CallbackBox<@Sendable (Int) -> Void>(clientsChanged)
        let context = box.retainedPointer()
        var error: UnsafeMutablePointer<GError>?
        let server = ck_rtsp_server_start(host, Int32(port), path, user, password, appSink.pointer.raw,
                                          Trampolines.rtspClientsChanged, context, Trampolines.releaseRTSPClientsChanged, &error)
        guard let server else {
            CallbackBox<@Sendable (Int) -> Void>.release(context)
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw .listenFailed(address: "\(host.contains(":") ? "[\(host)]" : host):\(port)", message: message)
        }
        pointer = COpaquePointer(server)
        self.port = Int(ck_rtsp_server_port(server))
    }

    /// Closes every client, stops the shared media and frees the port; waits for the server's
    /// thread to end. Later calls do nothing; a server dropped without it stops then.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        ck_rtsp_server_stop(pointer.raw)
    }

    deinit { stop() }
}

extension Trampolines {
    static let rtspClientsChanged: CKRtspClientsChanged = { clients, userData in
        CallbackBox<@Sendable (Int) -> Void>.from(userData).value(Int(clients))
    }

    static let releaseRTSPClientsChanged: GDestroyNotify = { userData in
        CallbackBox<@Sendable (Int) -> Void>.release(userData)
    }
}
