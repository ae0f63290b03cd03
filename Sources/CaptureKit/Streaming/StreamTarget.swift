import Foundation

/// Where a ``StreamOutput`` sends its stream, and how: serve it, publish it to a server that
/// runs elsewhere, or write it for a web server to hand out.
///
/// Build one from its URL with ``init(parsing:listen:)`` (what `capture stream` takes):
///
/// | Form | Target |
/// |---|---|
/// | `rtsp://HOST:PORT/PATH` | ``rtsp(host:port:path:credentials:)``: serve RTSP there |
/// | `publish:rtsp://[USER:PASS@]HOST:PORT/PATH` | ``rtspPublish(url:credentials:)``: ANNOUNCE/RECORD to a server |
/// | `srt://:PORT` | ``srt(_:)`` listener: receivers call in |
/// | `srt://HOST:PORT` | ``srt(_:)`` caller: push to a listening receiver or ingest |
/// | `rtp://HOST:PORT` | ``rtp(host:port:)``: RTP over UDP, described by ``StreamOutput/sessionDescription`` |
/// | `hls:DIR` | ``hls(_:)``: a live playlist with segments in DIR |
/// | `whep://HOST:PORT/PATH` | ``whep(host:port:path:)``: a WHEP endpoint at `http://HOST:PORT/PATH` |
///
/// ``webRTC`` (viewers signalled by the app's own HTTP server) has no URL form.
public enum StreamTarget: Sendable, Hashable {
    /// Serves RTSP at `rtsp://host:port/path` (TCP and UDP transports, several clients at once).
    ///
    /// The server (gst-rtsp-server) listens on `host` only (``init(parsing:listen:)`` makes it
    /// loopback unless told otherwise) and runs on a thread of its own while the session runs;
    /// every client shares the session's encode and one RTP payloader, and a client that joins
    /// gets a key frame at once. With `credentials`, clients must give them (digest or basic);
    /// others are answered 401. Clients are counted in ``StreamOutput/Statistics/clients``; one
    /// that goes away or misbehaves affects no other. A port in use fails the session's start
    /// (or configuration change) with ``CaptureError/Code/streamFailed`` naming the address.
    /// Video only.
    case rtsp(host: String, port: Int, path: String, credentials: StreamCredentials? = nil)
    /// Publishes to an RTSP server that records (`ANNOUNCE`/`RECORD`), reconnecting with back-off.
    ///
    /// `rtspclientsink` sends RTP interleaved in the RTSP (TCP) connection, with `credentials`
    /// when the server asks (basic or digest). A server that refuses or goes away fails the
    /// output (``StreamOutput/status`` `.failed` with ``CaptureError/Code/streamFailed``), which
    /// calls again after a back-off while the session and other outputs run on. Video only.
    case rtspPublish(url: String, credentials: StreamCredentials? = nil)
    /// MPEG-TS over SRT, as listener or caller.
    case srt(SRTTarget)
    /// RTP over UDP to `host:port`.
    case rtp(host: String, port: Int)
    /// A live HLS playlist and its segments in a directory.
    case hls(HLSTarget)
    /// A WHEP endpoint (WebRTC playback, HTTP signalling, draft-ietf-wish-whep) at
    /// `http://host:port/path`: a browser POSTs its SDP offer and gets the answer (every ICE
    /// candidate in it, no STUN server needed on a LAN) and its session's `Location`; DELETE
    /// there ends it. CORS allows players on any origin. H.264 (constrained baseline from the
    /// output's encode) and, with a microphone, Opus; several viewers share the one encode, and
    /// a viewer that goes away without a word is dropped when its RTCP stops (5 s). The server
    /// is the `CaptureKitWHEP` product's: an app that makes a WHEP output depends on it.
    case whep(host: String, port: Int, path: String)
    /// WebRTC viewers, as ``whep(host:port:path:)`` serves them, but without a server of the
    /// output's own: the app's HTTP server takes each viewer's SDP offer and hands it to
    /// ``StreamOutput/answerWebRTCOffer(_:)``, and ends a viewer with
    /// ``StreamOutput/endWebRTCViewer(_:)``; a Hummingbird app adds WHEP's routes in one call
    /// with the `CaptureKitWHEP` product's `addWHEPRoutes(to:path:)`. Everything else is as for WHEP: H.264
    /// (constrained baseline) and Opus with a microphone, one encode for every viewer, a viewer
    /// that vanishes dropped when its RTCP stops. It has no URL form: build it in code.
    case webRTC

    /// Whether the target reconnects by itself when its peer goes away (a caller or publisher).
    public var reconnects: Bool {
        switch self {
        case .rtspPublish: true
        case .srt(let srt): srt.mode == .caller
        default: false
        }
    }

    /// The URL form of the target, as ``init(parsing:listen:)`` takes it (`webrtc:` for
    /// ``webRTC``, which it does not take).
    public var description: String {
        switch self {
        case .rtsp(let host, let port, let path, _): "rtsp://\(StreamTarget.bracketed(host)):\(port)\(path)"
        case .rtspPublish(let url, _): "publish:\(url)"
        case .srt(let srt): srt.uri
        case .rtp(let host, let port): "rtp://\(StreamTarget.bracketed(host)):\(port)"
        case .hls(let hls): "hls:\(hls.directory.path)"
        case .whep(let host, let port, let path): "whep://\(StreamTarget.bracketed(host)):\(port)\(path)"
        case .webRTC: "webrtc:"
        }
    }

    static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
