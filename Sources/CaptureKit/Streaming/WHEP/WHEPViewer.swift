import Dispatch
import GStreamerSwift
import Synchronization

/// One WHEP viewer inside the output's branch: `queue` (leaky, its own thread: a slow viewer
/// drops its own frames) ! `rtph264pay` (the payload type the viewer's offer gave H.264,
/// parameter sets with every key frame) ! `webrtcbin`, fed by a pad of the branch's tee; and
/// when the session has a microphone and the viewer's offer takes audio, `queue !
/// rtpopuspay` into the same `webrtcbin` from the branch's audio tee.
struct WHEPViewer: Sendable {
    let id: String
    /// Which viewer of the endpoint it is (1, 2, …), and its part as planned.
    let index: Int
    let plan: PipelinePlan.Branch.Viewer
    let queue: Element
    let pay: Element
    let webrtc: Element
    /// The branch tee's pad feeding the viewer, and the viewer queue's sink pad it is linked to
    /// (where key-frame requests go upstream from).
    let teePad: Pad
    let entry: Pad
    /// The audio part: its queue and payloader, the audio tee's pad and the queue's sink pad.
    var audio: (queue: Element, pay: Element, teePad: Pad, entry: Pad)?
    /// Whether its peer connection has connected (it counts as a client from then on).
    var connected = false
    /// When the viewer's RTCP was last heard.
    let heard = Heartbeat()

    var elements: [Element] { [webrtc, pay, queue] + (audio.map { [$0.pay, $0.queue] } ?? []) }
}

extension WHEPViewer {
    /// When a viewer's RTCP (its receiver reports, a browser's every second or so) last
    /// arrived: webrtcbin's `rtpbin` says so ("on-ssrc-active", on its RTCP thread, which
    /// only stores the time here). A viewer that has reported and then goes quiet has vanished.
    final class Heartbeat: Sendable {
        private let last = Atomic<UInt64>(0)

        /// Uptime nanoseconds of the last report; 0 before the first.
        var lastHeard: UInt64 { last.load(ordering: .relaxed) }

        func beat() { last.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }
    }
}
