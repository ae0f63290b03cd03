import GStreamerSwift

/// One WHEP viewer inside the output's branch: `queue` (leaky, its own thread: a slow viewer
/// drops its own frames) ! `rtph264pay` (the payload type the viewer's offer gave H.264,
/// parameter sets with every key frame) ! `webrtcbin`, fed by a pad of the branch's tee.
struct WHEPViewer: Sendable {
    let id: String
    let queue: Element
    let pay: Element
    let webrtc: Element
    /// The branch tee's pad feeding the viewer, and the viewer queue's sink pad it is linked to
    /// (where key-frame requests go upstream from).
    let teePad: Pad
    let entry: Pad
    /// Whether its peer connection has connected (it counts as a client from then on).
    var connected = false

    var elements: [Element] { [webrtc, pay, queue] }
}
