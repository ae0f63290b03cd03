extension CaptureError.Code {
    /// A stream target's text is not one of ``StreamTarget/acceptedForms``.
    public static let invalidStreamTarget = CaptureError.Code(rawValue: "invalidStreamTarget")
    /// A stream's peer or server failed (refused, went away, address in use); a caller or
    /// publisher tries again with back-off, the session and other outputs run on.
    public static let streamFailed = CaptureError.Code(rawValue: "streamFailed")
    /// A WebRTC viewer's SDP offer cannot be answered: it is not an offer, or it has no H.264
    /// video (packetization mode 1) to send.
    public static let offerNotAcceptable = CaptureError.Code(rawValue: "offerNotAcceptable")
    /// A WebRTC viewer's SDP offer is malformed: a payload type outside 0…127, a
    /// `profile-level-id` that is not six hex digits, no ICE credentials or no DTLS
    /// fingerprint. The client's mistake; the message names the field.
    public static let malformedOffer = CaptureError.Code(rawValue: "malformedOffer")
}

extension CaptureError {
    /// `text` is not a stream target; `why` says what is wrong with it.
    public static func invalidStreamTarget(_ text: String, why: String) -> CaptureError {
        CaptureError(code: .invalidStreamTarget,
                     message: "'\(text)' is not a stream target (\(why)); accepted: \(StreamTarget.acceptedForms.joined(separator: ", "))",
                     value: text, validValues: StreamTarget.acceptedForms)
    }

    /// The SDP offer `sdp` has no H.264 video in packetization mode 1 to answer, or is no offer.
    static func offerNotAcceptable(_ sdp: String) -> CaptureError {
        let what = sdp.hasPrefix("v=0") ? "an SDP offer without H.264 video in packetization mode 1" : "not an SDP offer (it does not start v=0)"
        return CaptureError(code: .offerNotAcceptable,
                            message: "the offer has no H.264 video in packetization mode 1 to answer: \(what), \(sdp.utf8.count) bytes; valid: an SDP offer whose m=video section offers H264/90000 with packetization-mode=1",
                            value: String(sdp.prefix(64)))
    }

    /// The SDP offer `sdp` takes H.264 up to `offeredLevel` without allowing a higher one
    /// (no `level-asymmetry-allowed=1`), and the stream is `streamLevel`.
    static func offerNotAcceptable(_ sdp: String, streamLevel: String, offeredLevel: String) -> CaptureError {
        CaptureError(code: .offerNotAcceptable,
                     message: "the stream is H.264 level \(streamLevel) and the offer takes up to level \(offeredLevel) without level-asymmetry-allowed=1; valid: an offer with level-asymmetry-allowed=1 (as browsers send) or a profile-level-id of level \(streamLevel) or more, or a session preset whose size and rate fit level \(offeredLevel)",
                     value: String(sdp.prefix(64)))
    }

    /// The SDP offer's `field` is wrong: `found` is what it has, `valid` what would do.
    static func malformedOffer(field: String, found: String, valid: String) -> CaptureError {
        let shown = found.count > 80 ? found.prefix(77) + "…" : found
        return CaptureError(code: .malformedOffer, message: "the offer's \(field) is wrong: \(shown); valid: \(valid)", value: String(shown))
    }

    /// Streaming to `target` failed: `message` says how.
    @_spi(WHEP) public static func streamFailed(_ target: StreamTarget, message: String, element: String? = nil) -> CaptureError {
        CaptureError(code: .streamFailed, message: "streaming to \(target.description) failed: \(message)", element: element, value: target.description)
    }
}
