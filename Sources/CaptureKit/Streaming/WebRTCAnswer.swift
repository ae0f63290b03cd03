/// What ``StreamOutput/answerWebRTCOffer(_:)`` gives a new WebRTC viewer: the viewer's ID (to
/// end it with ``StreamOutput/endWebRTCViewer(_:)``; WHEP's session resource is `PATH/ID`) and
/// the SDP answer to send back, with every ICE candidate in it.
public struct WebRTCAnswer: Sendable, Hashable {
    /// The viewer's ID: lowercase UUID text.
    public let viewerID: String
    /// The SDP answer: send-only H.264 (and Opus when the offer takes audio and the session has
    /// a microphone), every local ICE candidate included (no trickle ICE needed).
    public let sessionDescription: String

    /// An answer for a viewer.
    public init(viewerID: String, sessionDescription: String) {
        self.viewerID = viewerID
        self.sessionDescription = sessionDescription
    }
}
