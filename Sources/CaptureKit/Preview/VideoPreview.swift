import Foundation
import GStreamerSwift
import Synchronization

/// Shows a session's video and converts between view and device coordinates
/// (AVCaptureVideoPreviewLayer).
///
/// A preview is a branch of its session: adding, removing or changing one never interrupts the
/// session's other outputs. It fills ``bounds`` (the view's size in points) with the picture
/// according to ``videoGravity``, turned for its connection's `videoOrientation` and mirrored
/// when `isVideoMirrored`. Where the picture goes is chosen with ``sink``: a desktop window,
/// a board's display, frames for an app to draw, or nothing (a web page that shows a stream).
///
/// The geometry (``captureDevicePointOfInterest(for:)`` and its kin) is AVFoundation's: device
/// points run from (0,0) top left to (1,1) bottom right of the picture as the sensor sees it,
/// whatever the orientation and mirroring; view points from (0,0) at the top left of
/// ``bounds``.
///
/// The preview joins its session as an output does, so inputs added later connect to it, but
/// it is not listed in `CaptureSession.outputs` (AVFoundation's preview layer is not an output);
/// its connection is in `CaptureSession.connections`. Safe to use from any thread.
public final class VideoPreview: OutputNode {
    struct State {
        weak var session: CaptureSession?
        var connections: [CaptureConnection] = []
        var gravity = VideoGravity.resizeAspect
        var bounds = CGRect.zero
        var sink = PreviewSink.window
        /// The element the running window sink turned out to be.
        var sinkName: String?
        var overlay: PreviewOverlay?
        /// The running branch's label elements, while attached.
        var labels: [GStreamerSwift.Element] = []
        /// Why the running preview stopped showing (its window closed); nil while it shows.
        var failure: CaptureError?
        var subscribers = StreamSubscribers<SampleBuffer>()
        var layouts = LayoutCache()
    }

    let state = Mutex(State())
    let shown = Atomic<Int>(0)
    let owner = SessionReference()
    let mediaType = MediaType.video
    let kind = "preview"

    /// A preview of `session`'s video: it joins the session and connects to its first video
    /// input (now, or when one is added).
    public convenience init(session: CaptureSession) {
        self.init()
        self.session = session
    }

    /// A preview that joins `session` without a connection; connect it with
    /// `CaptureSession.addConnection(_:)`.
    public convenience init(sessionWithNoConnection session: CaptureSession) {
        self.init()
        setSessionWithNoConnection(session)
    }

    /// A preview of no session yet.
    public init() {}

    /// The session previewed. Setting it leaves the old session and joins the new one with a
    /// connection to its first video input, as `init(session:)` does.
    public var session: CaptureSession? {
        get { state.withLock { $0.session } }
        set { join(newValue, connecting: true) }
    }

    /// Leaves the current session and joins `session` without a connection.
    public func setSessionWithNoConnection(_ session: CaptureSession?) {
        join(session, connecting: false)
    }

    private func join(_ session: CaptureSession?, connecting: Bool) {
        let old = state.withLock { state in defer { state.session = session }; return state.session }
        if let old, old !== session || session != nil { try? old.checkedRemoveOutput(self) }
        guard let session else { return }
        if connecting, (try? session.checkedAddOutput(self)) != nil { return }
        // No video input to connect to (an audio-only session): joined, unconnected.
        try? session.checkedAddOutputWithNoConnections(self)
    }

    /// The connection feeding the preview: its `videoOrientation`, `isVideoMirrored` and
    /// `automaticallyAdjustsVideoMirroring` turn the picture.
    public var connection: CaptureConnection? { connections.first }

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// How the picture fills ``bounds`` (default `.resizeAspect`). A running preview changes at once.
    public var videoGravity: VideoGravity {
        get { state.withLock { $0.gravity } }
        set {
            state.withLock { $0.gravity = newValue }
            owner.branchChanged()
        }
    }

    /// The view the preview fills, in the view's points (the layer's bounds). Zero (the default)
    /// means the picture's own size as shown: the device format's size, turned for portrait
    /// orientations.
    public var bounds: CGRect {
        get { state.withLock { $0.bounds } }
        set {
            state.withLock { $0.bounds = newValue }
            owner.branchChanged()
        }
    }

    /// Where the picture is shown (default `.window`). A running preview changes at once.
    public var sink: PreviewSink {
        get { state.withLock { $0.sink } }
        set {
            state.withLock { $0.sink = newValue }
            owner.branchChanged()
        }
    }

    /// The GStreamer element showing the picture while the preview runs (`glimagesink`,
    /// `xvimagesink`, …); nil before.
    public var sinkName: String? { state.withLock { $0.sinkName } }

    /// Why the preview stopped showing its picture while the session runs on: its window was
    /// closed (`branchFailed`, naming the sink), its display went away. nil while it shows, and
    /// again once it starts showing anew.
    public var failure: CaptureError? { state.withLock { $0.failure } }

    /// How many frames the preview has shown (handed to its sink) since it was made: frames
    /// shown per second is this over time.
    public var framesShown: Int { shown.load(ordering: .relaxed) }

    /// The picture's size as the sensor delivers it (the connected device's active format), or
    /// nil without a video connection.
    var pictureSize: CGSize? {
        guard let format = connection?.device?.activeFormat else { return nil }
        return CGSize(width: format.width, height: format.height)
    }
}
