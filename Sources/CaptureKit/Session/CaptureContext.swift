import GStreamerSwift
import Synchronization

/// What the sessions of one program share: its devices (the hardware the monitors find and the
/// virtual cameras and microphone) and the H.264 encoder its recordings, streams and compressed
/// data outputs use, chosen once.
///
/// Sessions made with `CaptureSession()`, and `CaptureDevice`'s static look-ups
/// (`devices()`, `default(for:)`, `find(_:)`, `init(uniqueID:)`), use ``shared``. A context of
/// one's own has its own virtual devices, which share no state with any other context's (their
/// controls, faults, scene and format), and can pin what would otherwise depend on the machine,
/// so a plan compiled under it is the same everywhere (a golden file that names `x264enc`
/// passes on a machine with VA-API too):
///
/// ```swift
/// let context = try CaptureContext(videoEncoderName: "x264enc")
/// let session = CaptureSession(context: context)
/// try session.addInput(CaptureDeviceInput(device: context.find("virtual")))
/// ```
///
/// A hardware camera is one device to the system whichever context found it: two contexts
/// running the same camera meet the same limits as two programs would.
public final class CaptureContext: Sendable {
    /// The context of sessions made without one. Its encoder is chosen from what GStreamer and
    /// the machine have, the first time one is needed.
    public static let shared = CaptureContext()

    private enum EncoderChoice {
        case unprobed
        case chosen(VideoEncoder?)
    }

    private let encoder: Mutex<EncoderChoice>
    /// The window sink found for each preview sink and display (`WindowSink`), nil where none opens.
    private let windowSinks = Mutex<[String: String?]>([:])
    /// The context's devices.
    let registry = DeviceRegistry()

    /// A context that chooses its encoder from this machine, once, when first needed: VA-API
    /// when a render node exists, then `v4l2h264enc`, `x264enc`, `openh264enc`.
    public init() {
        encoder = Mutex(.unprobed)
    }

    /// A context whose sessions encode with the named encoder (`x264enc`, `vah264enc`,
    /// `vaapih264enc`, `v4l2h264enc`, `openh264enc`), or encode nothing when the name is nil.
    /// Nothing is probed: a plan names this encoder whether or not this machine has it.
    /// Throws for a name that is none of those.
    public init(videoEncoderName name: String?) throws(CaptureError) {
        guard let name else {
            encoder = Mutex(.chosen(nil))
            return
        }
        guard let kind = VideoEncoder.Kind(rawValue: name) else {
            throw .invalidSetting(name: "videoEncoderName", value: name, valid: VideoEncoder.Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        encoder = Mutex(.chosen(VideoEncoder(kind: kind)))
    }

    /// The H.264 encoder sessions of this context use; nil when there is none.
    var videoEncoder: VideoEncoder? {
        encoder.withLock { choice in
            if case .chosen(let chosen) = choice { return chosen }
            let chosen = VideoEncoder.choose(hasElement: GStreamer.hasElement, hasRenderNode: VideoEncoder.hasRenderNode)
            choice = .chosen(chosen)
            return chosen
        }
    }

    /// The name of the encoder sessions of this context use (`x264enc`, `vah264enc`, …); nil
    /// when there is none.
    public var videoEncoderName: String? { videoEncoder?.name }

    /// What the compiler is told about the machine for `graph`: the encoder, and the window
    /// sink of each preview's display (found on the first graph that shows one, per display).
    func compilerEnvironment(for graph: SessionGraph) -> PipelineCompiler.Environment {
        var environment = PipelineCompiler.Environment(videoEncoder: videoEncoder)
        let shown = Set(graph.branches.compactMap { ($0.output as? VideoPreview)?.sink }.filter { $0 == .window || $0 == .kms })
        for sink in shown {
            let key = "\(sink)|\(WindowSink.display)"
            let known = windowSinks.withLock { $0[key] }
            let found = known ?? WindowSink.probe(sink)
            if known == nil { windowSinks.withLock { $0[key] = .some(found) } }
            if let found { environment.windowSinks[sink] = found }
        }
        return environment
    }
}
