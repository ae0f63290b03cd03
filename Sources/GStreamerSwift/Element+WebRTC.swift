import CGStreamer
import CGStreamerSys

extension Element {
    /// For a `webrtcbin` in PLAYING: answers the remote SDP `offer` (set-remote-description,
    /// create-answer, set-local-description) and waits up to `timeout` milliseconds for ICE
    /// gathering to complete, so that the answer carries every candidate (no trickle ICE).
    /// Returns the answer's SDP text. Blocks the calling thread while webrtcbin works on its
    /// own; never call it on a streaming thread. Throws `webRTCFailed` saying which step failed.
    public func answerWebRTCOffer(_ offer: String, timeout: UInt32 = 5_000) throws(GStreamerError) -> String {
        var error: UnsafeMutablePointer<CChar>?
        guard let answer = ck_webrtc_answer(pointer.raw, offer, timeout, &error) else {
            defer { g_free(error) }
            throw .webRTCFailed(element: name, message: error.map { String(cString: $0) } ?? "no answer")
        }
        defer { g_free(answer) }
        return String(cString: answer)
    }

    /// An element inside this one, when it is a bin (`webrtcbin`'s `rtpbin`), found by name at
    /// any depth; nil when there is none.
    public func child(named name: String) -> Element? {
        guard ck_is_bin(UnsafeMutableRawPointer(pointer.raw)) != 0,
              let child = gst_bin_get_by_name(pointer.cast(to: GstBin.self), name) else { return nil }
        return Element(owning: child)
    }

    /// For a `webrtcbin`: its ICE agent's keepalives become connectivity checks that expect an
    /// answer, so a peer that vanishes without a word (a killed browser) fails ICE instead of
    /// looking connected forever. False when its ICE agent does not offer that.
    @discardableResult
    public func checkWebRTCKeepalives() -> Bool {
        ck_webrtc_check_keepalives(pointer.raw) != 0
    }
}

extension Pad {
    /// For a just-requested `webrtcbin` sink pad: its transceiver sends only, preferring `caps`
    /// (the RTP caps it will carry), so a remote offer's matching media section is answered
    /// with that payload type and format.
    public func prepareWebRTCSend(caps: String) throws(GStreamerError) {
        guard ck_webrtc_prepare_sink(pointer.raw, caps) != 0 else {
            throw .webRTCFailed(element: parentName ?? name, message: "no transceiver for caps \(caps)")
        }
    }
}
