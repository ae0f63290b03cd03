/// An SRT endpoint carrying MPEG-TS (188-byte packets, seven to a datagram).
public struct SRTTarget: Sendable, Hashable {
    /// Which side opens the connection.
    public enum Mode: String, Sendable, Hashable {
        /// Waits for receivers to call in (several at once).
        case listener
        /// Calls a listening receiver, and calls again with back-off when it goes away.
        case caller
    }

    /// Listener or caller.
    public var mode: Mode
    /// The address to listen on or call.
    public var host: String
    /// The UDP port to listen on or call.
    public var port: Int
    /// The receiver's buffer, milliseconds (SRT's `latency`, default 120).
    public var latency: Int
    /// Encrypts the stream when set (10 to 79 characters); given to `srtsink` when the branch
    /// starts, never part of the URI, the description or the printed pipeline.
    public var passphrase: String?

    public init(mode: Mode, host: String, port: Int, latency: Int = 120, passphrase: String? = nil) {
        self.mode = mode
        self.host = host
        self.port = port
        self.latency = latency
        self.passphrase = passphrase
    }

    /// The URI `srtsink` takes.
    var uri: String {
        "srt://\(StreamTarget.bracketed(host)):\(port)?mode=\(mode.rawValue)&latency=\(latency)"
    }
}
