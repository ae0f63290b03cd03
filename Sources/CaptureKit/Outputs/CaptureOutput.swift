import Synchronization

/// A destination for a session's media (AVCaptureOutput): `StillImageOutput`, `VideoDataOutput`.
public protocol CaptureOutput: AnyObject, Sendable {
    /// The connections feeding the output (one per input it takes media from).
    var connections: [CaptureConnection] { get }
}

extension CaptureOutput {
    /// The first connection with an input port of `mediaType`.
    public func connection(with mediaType: MediaType) -> CaptureConnection? {
        connections.first { $0.inputPorts.contains { $0.mediaType == mediaType } }
    }
}

/// Whether two outputs are the same object, as AVFoundation code compares outputs
/// (`if output == backCameraVideoDataOutput`).
public func == (lhs: any CaptureOutput, rhs: any CaptureOutput) -> Bool { lhs === rhs }

/// Whether two outputs are different objects.
public func != (lhs: any CaptureOutput, rhs: any CaptureOutput) -> Bool { lhs !== rhs }

/// What the compiler and runtime need of every output. Internal: outputs are CaptureKit's own.
protocol OutputNode: CaptureOutput, ConfigurationFailureReporting {
    /// The media type the output consumes: its first connection's.
    var mediaType: MediaType { get }
    /// Every media type the output takes, its own first (a movie: video, then audio).
    var mediaTypes: [MediaType] { get }
    /// Whether the output needs its branch now (a movie file output only while it records).
    var wantsBranch: Bool { get }
    /// The encoding the output takes its video in, from the source's shared encoded stage;
    /// nil for raw video.
    var videoEncoding: VideoCodecSettings? { get }
    /// A short kind used in element names and errors ("still", "videoData").
    var kind: String { get }
    /// Sets the output's connections (the session owns them).
    func setConnections(_ connections: [CaptureConnection])
    /// The session the output belongs to, told when settings change its branch.
    var owner: SessionReference { get }
    /// The branch behind the input's tee, as a chain of elements named `prefix_…`.
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element]
    /// The output's branch plan for `branch` of `graph`: by default the chain of
    /// `branch(prefix:source:)` entered from the first port's tee.
    func plan(_ branch: SessionGraph.Branch, graph: SessionGraph) -> PipelinePlan.Branch
    /// Installs probes and appsink handlers on the branch, before it is linked and started.
    func attach(_ branch: RunningBranch) throws(CaptureError)
    /// Called after the branch was removed or the session stopped: waiting work fails with `error`.
    func detach(error: CaptureError)
    /// Work the output finishes away from the executor after `attach` (a WHEP output's HTTP
    /// server binding its port): false when there is none; else `done` is called once, from any
    /// thread, with the error that fails the change or nil, and the change goes on from there.
    func afterAttach(_ done: @escaping @Sendable (CaptureError?) -> Void) -> Bool
    /// Likewise after `detach`, which the runtime always follows with this call on the same step
    /// (a WHEP output's viewers ending and its server freeing its port): the branch counts as
    /// gone, and a stopping session as stopped, once `done` is called.
    func afterDetach(_ done: @escaping @Sendable () -> Void) -> Bool
    /// Called on the session's notification queue when `device`, which may feed the output,
    /// went away or was taken.
    func inputInterrupted(_ device: CaptureDevice, reason: InterruptionReason)
    /// Whether the output deals with an error its element `element` posted itself, so its
    /// branch runs on (a WHEP viewer's webrtcbin: that viewer alone is removed). Called on the
    /// posting element's thread and again on the bus thread; must not block, and acting twice
    /// must do no harm.
    func takesError(fromElement element: String) -> Bool
    /// Called on the changing thread after a connection of the output changed its orientation
    /// or mirroring (a preview turns its picture; others read them per frame).
    func connectionOrientationChanged()
}

extension OutputNode {
    func afterAttach(_ done: @escaping @Sendable (CaptureError?) -> Void) -> Bool { false }
    func afterDetach(_ done: @escaping @Sendable () -> Void) -> Bool { false }
    var mediaTypes: [MediaType] { [mediaType] }
    var wantsBranch: Bool { true }
    var videoEncoding: VideoCodecSettings? { nil }
    func inputInterrupted(_ device: CaptureDevice, reason: InterruptionReason) {}
    func takesError(fromElement element: String) -> Bool { false }
    func connectionOrientationChanged() {}

    func plan(_ branch: SessionGraph.Branch, graph: SessionGraph) -> PipelinePlan.Branch {
        let input = graph.inputs[branch.input]
        return .init(key: branch.name, chain: self.branch(prefix: branch.name, source: SourceFormat(input)), source: branch.stage ?? input.name)
    }
}

/// What the source delivers into the tee, for branches that adapt to it.
struct SourceFormat: Sendable, Equatable {
    var width: Int
    var height: Int
    var frameRate: Double
    /// The raw format entering the tee (after the decoder for compressed devices).
    var pixelFormat: PixelFormat
    /// Whether the source paces itself; one that does not waits for outputs that keep frames.
    var isLive = true
}

extension SourceFormat {
    /// What `input`'s tee delivers: its format's size and rate, I420 for a compressed format.
    init(_ input: SessionGraph.Input) {
        self.init(width: input.format.width, height: input.format.height, frameRate: input.frameRate,
                  pixelFormat: input.format.pixelFormat.gstFormat == nil ? .i420 : input.format.pixelFormat,
                  isLive: input.device.backend.isLive)
    }
}

/// A weak reference from an output to its session: settings that change the output's branch
/// make a running session change that output's branch.
final class SessionReference: Sendable {
    private let session = Mutex<WeakSession>(WeakSession())

    struct WeakSession {
        weak var value: CaptureSession?
    }

    func set(_ value: CaptureSession?) { session.withLock { $0.value = value } }

    /// The session the output belongs to, if any.
    var value: CaptureSession? { session.withLock { $0.value } }

    /// The context of the session, or the shared one while the output is in none.
    var context: CaptureContext { value?.context ?? .shared }

    /// Tells the session that the output's branch changed.
    func branchChanged() {
        session.withLock { $0.value }?.outputBranchChanged()
    }
}
