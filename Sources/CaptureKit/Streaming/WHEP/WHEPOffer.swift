import Foundation

/// A WHEP client's SDP offer, read for what the answer needs before webrtcbin sees it: the
/// payload type the client gave H.264 in packetization mode 1, preferring constrained
/// baseline (`profile-level-id=42e0…`, what every browser decodes), then baseline, then any;
/// and the one it gave Opus, when it offers to receive audio.
struct WHEPOffer: Sendable, Equatable {
    let sdp: String
    /// The video payload type to send H.264 with.
    let videoPayload: Int
    /// The offer's `profile-level-id` for that payload type (what the answer repeats, with the
    /// stream's level where the offer allows a higher one).
    let profileLevelID: String
    /// `level-asymmetry-allowed=1` for that payload type: the answerer may send a higher level
    /// than the offer's `profile-level-id` names (browsers offer it; a receiver decodes what
    /// its decoder can).
    let levelAsymmetryAllowed: Bool
    /// The Opus payload type of the offer's audio section; nil without one.
    let audioPayload: Int?

    /// Checks what webrtcbin would otherwise fail on with its own words, then reads the
    /// offer: throws `malformedOffer` naming the field (a payload type outside 0…127 in an
    /// `m=` line, `a=rtpmap` or `a=fmtp`; a `profile-level-id` that is not six hex digits; no
    /// `a=ice-ufrag` and `a=ice-pwd`; no `a=fingerprint`), and `offerNotAcceptable` for an
    /// offer without H.264 video the output can send (checked before the credentials: such
    /// an offer is refused whatever else it has).
    init(validating sdp: String) throws(CaptureError) {
        let attributes = try Self.validate(sdp)
        guard let offer = WHEPOffer(sdp: sdp) else { throw .offerNotAcceptable(sdp) }
        for (name, what) in [("ice-ufrag", "ICE username fragment"), ("ice-pwd", "ICE password"), ("fingerprint", "DTLS fingerprint")]
        where !attributes.contains(name) {
            throw .malformedOffer(field: "a=\(name) (\(what))", found: "none", valid: "an a=\(name): line, as every WebRTC offer has")
        }
        self = offer
    }

    /// The payload-type and `profile-level-id` checks of ``init(validating:)``, in the
    /// offer's order; the names of the attributes that have a value.
    static func validate(_ sdp: String) throws(CaptureError) -> Set<String> {
        var attributes: Set<String> = []
        for line in sdp.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("m=") {
                let fields = line.split(separator: " ")
                for format in fields.dropFirst(3) where fields.count > 3 && fields[2].contains("RTP") {
                    guard let type = Int(format), (0...127).contains(type) else {
                        throw .malformedOffer(field: "payload type in '\(line.prefix(40))'", found: String(format), valid: "0…127")
                    }
                }
            }
            for prefix in ["a=rtpmap:", "a=fmtp:"] where line.hasPrefix(prefix) {
                let type = line.dropFirst(prefix.count).prefix { !$0.isWhitespace }
                guard let number = Int(type), (0...127).contains(number) else {
                    throw .malformedOffer(field: "payload type of \(prefix.dropFirst(2).dropLast())", found: String(type), valid: "0…127")
                }
            }
            if line.hasPrefix("a=fmtp:"), let space = line.firstIndex(of: " ") {
                // Read as the offer's reading below reads it.
                for pair in line[line.index(after: space)...].split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.first?.lowercased() == "profile-level-id" else { continue }
                    let value = parts.count == 2 ? parts[1] : ""
                    guard value.count == 6, value.allSatisfy(\.isHexDigit) else {
                        throw .malformedOffer(field: "profile-level-id", found: value, valid: "six hex digits, e.g. 42e01f")
                    }
                }
            }
            if line.hasPrefix("a="), let colon = line.firstIndex(of: ":"),
               !line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).isEmpty {
                attributes.insert(String(line[line.index(line.startIndex, offsetBy: 2)..<colon]))
            }
        }
        return attributes
    }

    /// Nil when the offer has no H.264 video the output can send.
    init?(sdp: String) {
        var codecs: [Int: String] = [:]  // payload type → encoding name
        var formats: [Int: [String: String]] = [:]
        var inVideo = false
        var audioPayload: Int?
        for line in sdp.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("m=") { inVideo = line.hasPrefix("m=video") }
            if !inVideo, audioPayload == nil, line.lowercased().hasPrefix("a=rtpmap:"), line.lowercased().contains(" opus/48000"),
               let space = line.firstIndex(of: " ") {
                audioPayload = Int(line[line.index(line.startIndex, offsetBy: 9)..<space])
            }
            guard inVideo else { continue }
            if line.hasPrefix("a=rtpmap:"), let space = line.firstIndex(of: " "),
               let type = Int(line[line.index(line.startIndex, offsetBy: 9)..<space]) {
                codecs[type] = String(line[line.index(after: space)...].prefix { $0 != "/" }).uppercased()
            } else if line.hasPrefix("a=fmtp:"), let space = line.firstIndex(of: " "),
                      let type = Int(line[line.index(line.startIndex, offsetBy: 7)..<space]) {
                var fields: [String: String] = [:]
                for pair in line[line.index(after: space)...].split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if parts.count == 2 { fields[parts[0].lowercased()] = parts[1].lowercased() }
                }
                formats[type] = fields
            }
        }
        let candidates = codecs.filter { $0.value == "H264" && formats[$0.key]?["packetization-mode"] == "1" }.keys.sorted()
        func profile(_ type: Int) -> String { formats[type]?["profile-level-id"] ?? "42e01f" }
        guard let chosen = candidates.first(where: { profile($0).hasPrefix("42e0") })
            ?? candidates.first(where: { profile($0).hasPrefix("42") }) ?? candidates.first else { return nil }
        self.sdp = sdp
        videoPayload = chosen
        profileLevelID = profile(chosen)
        levelAsymmetryAllowed = formats[chosen]?["level-asymmetry-allowed"] == "1"
        self.audioPayload = audioPayload
    }

    /// The RTP caps of the viewer's Opus audio, when the offer takes audio.
    var audioCaps: String? {
        audioPayload.map { "application/x-rtp,media=audio,encoding-name=OPUS,clock-rate=48000,payload=\($0)" }
    }

    /// The RTP caps the viewer's payloader sends and its transceiver prefers, for a stream of
    /// H.264 level `streamLevel` (as h264parse names it: "3.1", "4"; nil when not known): the
    /// offer's `profile-level-id`, its level raised to the stream's where the offer allows level
    /// asymmetry (rtph264pay takes no level above the one these caps name). Throws
    /// `offerNotAcceptable` when the stream's level is above the offer's and the offer does
    /// not allow asymmetry.
    func videoCaps(streamLevel: String?) throws(CaptureError) -> String {
        var profileLevel = profileLevelID
        if let streamLevel, let stream = H264Level(name: streamLevel), profileLevelID.count == 6,
           let offered = UInt8(profileLevelID.suffix(2), radix: 16), stream.idc > offered {
            guard levelAsymmetryAllowed else {
                throw .offerNotAcceptable(sdp, streamLevel: streamLevel, offeredLevel: H264Level(idc: offered).name)
            }
            profileLevel = profileLevelID.prefix(4) + String(format: "%02x", stream.idc)
        }
        return "application/x-rtp,media=video,encoding-name=H264,clock-rate=90000,payload=\(videoPayload),"
            + "packetization-mode=(string)1,profile-level-id=(string)\(profileLevel)"
    }
}

