import GStreamerSwift

/// The SDP (RFC 4566, RFC 6184) a player needs to receive an H.264 RTP stream: the address
/// and port, payload type, clock rate, and the parameter sets from the payloader's caps.
struct RTPSessionDescription: Sendable, Equatable {
    let text: String

    /// From `rtph264pay`'s source caps (`application/x-rtp, …, sprop-parameter-sets=…`); nil
    /// for caps that are not H.264 RTP.
    init?(caps: String, host: String, port: Int) {
        guard let structure = (try? CapsStructure.parse(caps: caps))?.first, structure.name == "application/x-rtp" else { return nil }
        func field(_ name: String) -> String? {
            switch structure.fields[name] {
            case .string(let value)?: value
            case .int(let value)?: String(value)
            default: nil
            }
        }
        let payload = field("payload") ?? "96"
        let clockRate = field("clock-rate") ?? "90000"
        var format = ["packetization-mode=\(field("packetization-mode") ?? "1")"]
        if let profile = field("profile-level-id") { format.append("profile-level-id=\(profile)") }
        if let sets = field("sprop-parameter-sets") { format.append("sprop-parameter-sets=\(sets)") }
        let family = host.contains(":") ? "IP6" : "IP4"
        text = [
            "v=0",
            "o=- 0 0 IN \(family) \(host)",
            "s=CaptureKit",
            "c=IN \(family) \(host)",
            "t=0 0",
            "m=video \(port) RTP/AVP \(payload)",
            "a=rtpmap:\(payload) H264/\(clockRate)",
            "a=fmtp:\(payload) \(format.joined(separator: ";"))",
            "",
        ].joined(separator: "\r\n")
    }
}
