import Foundation

extension StreamTarget {
    /// The target forms, for errors and help.
    public static let acceptedForms = [
        "rtsp://HOST:PORT/PATH", "publish:rtsp://[USER:PASS@]HOST:PORT/PATH", "srt://:PORT (listener)", "srt://HOST:PORT (caller)",
        "rtp://HOST:PORT", "hls:DIR", "whep://HOST:PORT/PATH",
    ]

    /// Parses a target in one of ``acceptedForms``. Servers (RTSP, an SRT listener, WHEP) bind
    /// the URL's host, or `listen` (default `127.0.0.1`, loopback only) when the URL has none.
    /// SRT takes `?latency=MS`, `?passphrase=` and `?mode=listener|caller`.
    /// Throws ``CaptureError/Code/invalidSetting`` naming the text and the accepted forms.
    public init(parsing text: String, listen: String? = nil) throws(CaptureError) {
        let bind = listen ?? "127.0.0.1"
        func invalid(_ why: String) -> CaptureError { .invalidStreamTarget(text, why: why) }
        if text.hasPrefix("hls:") {
            let path = String(text.dropFirst(4))
            guard !path.isEmpty, !path.hasPrefix("//") else { throw invalid("hls: takes a directory, hls:DIR") }
            self = .hls(HLSTarget(directory: URL(fileURLWithPath: path, isDirectory: true)))
            return
        }
        if text.hasPrefix("publish:") {
            let inner = String(text.dropFirst(8))
            guard let url = URLComponents(string: inner), url.scheme == "rtsp", let host = url.host, !host.isEmpty else {
                throw invalid("publish: takes rtsp://HOST:PORT/PATH")
            }
            let credentials = url.user.map { StreamCredentials(user: $0, password: url.password ?? "") }
            var bare = url
            bare.user = nil
            bare.password = nil
            if bare.port == nil { bare.port = 554 }
            self = .rtspPublish(url: bare.string ?? inner, credentials: credentials)
            return
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme else { throw invalid("no scheme") }
        let host = url.host.flatMap { $0.isEmpty ? nil : $0 }
        guard let port = url.port else { throw invalid("no port") }
        guard (1...65535).contains(port) else { throw invalid("port \(port) is not 1…65535") }
        let path = url.path.isEmpty ? "/" : url.path
        switch scheme {
        case "rtsp":
            let credentials = url.user.map { StreamCredentials(user: $0, password: url.password ?? "") }
            guard path != "/" else { throw invalid("rtsp:// needs a path, rtsp://HOST:PORT/PATH") }
            self = .rtsp(host: host ?? bind, port: port, path: path, credentials: credentials)
        case "whep":
            guard path != "/" else { throw invalid("whep:// needs a path, whep://HOST:PORT/PATH") }
            self = .whep(host: host ?? bind, port: port, path: path)
        case "rtp":
            guard let host else { throw invalid("rtp:// needs the receiver's host") }
            self = .rtp(host: host, port: port)
        case "srt":
            let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
            let mode: SRTTarget.Mode
            switch query["mode"] {
            case nil: mode = host == nil ? .listener : .caller
            case "listener": mode = .listener
            case "caller": mode = .caller
            case let other?: throw invalid("mode=\(other) is not listener or caller")
            }
            guard mode == .listener || host != nil else { throw invalid("an SRT caller needs the listener's host") }
            var latency = 120
            if let value = query["latency"] {
                guard let ms = Int(value), (0...60_000).contains(ms) else { throw invalid("latency=\(value) is not 0…60000 ms") }
                latency = ms
            }
            let passphrase = query["passphrase"]
            if let passphrase, !(10...79).contains(passphrase.count) { throw invalid("a passphrase has 10…79 characters") }
            self = .srt(SRTTarget(mode: mode, host: host ?? bind, port: port, latency: latency, passphrase: passphrase))
        default:
            throw invalid("unknown scheme '\(scheme)'")
        }
    }
}
