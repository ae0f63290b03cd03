import Synchronization

/// A link from input ports to an output (AVCaptureConnection).
///
/// Orientation and mirroring change metadata only, and may be changed while running: stills
/// read them when captured, frames when delivered. Safe to use from any thread.
public final class CaptureConnection: Sendable, CustomStringConvertible {
    public let inputPorts: [CaptureInputPort]
    private let outputRef: Mutex<WeakOutput>
    private let state: Mutex<State>

    struct State {
        var isEnabled = true
        var isActive = false
        var videoOrientation = VideoOrientation.landscapeRight
        var isVideoMirrored = false
        var automaticallyAdjustsVideoMirroring = true
    }

    struct WeakOutput {
        weak var output: (any CaptureOutput)?
    }

    /// A connection from `inputPorts` to `output`, for `CaptureSession.addConnection`.
    public init(inputPorts: [CaptureInputPort], output: any CaptureOutput) {
        self.inputPorts = inputPorts
        self.outputRef = Mutex(WeakOutput(output: output))
        var initial = State()
        initial.isVideoMirrored = inputPorts.first?.device.position == .front
        self.state = Mutex(initial)
    }

    /// The output the connection feeds.
    public var output: (any CaptureOutput)? { outputRef.withLock { $0.output } }

    /// The video port's device.
    var device: CaptureDevice? { inputPorts.first { $0.mediaType == .video }?.device }

    /// Whether media flows when the session runs.
    public var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set { state.withLock { $0.isEnabled = newValue } }
    }

    /// Whether the session is running this connection now.
    public var isActive: Bool { state.withLock { $0.isActive } }

    func setActive(_ active: Bool) { state.withLock { $0.isActive = active } }

    /// Orientation is supported on every video connection.
    public var isVideoOrientationSupported: Bool { inputPorts.contains { $0.mediaType == .video } }

    /// Mirroring is supported on every video connection.
    public var isVideoMirroringSupported: Bool { isVideoOrientationSupported }

    /// How viewers should rotate the image (metadata only).
    public var videoOrientation: VideoOrientation {
        get { state.withLock { $0.videoOrientation } }
        set {
            state.withLock { $0.videoOrientation = newValue }
            orientationChanged()
        }
    }

    /// Whether the image is mirrored (metadata only). Setting it turns automatic adjustment off.
    public var isVideoMirrored: Bool {
        get { state.withLock { $0.isVideoMirrored } }
        set {
            state.withLock {
                $0.automaticallyAdjustsVideoMirroring = false
                $0.isVideoMirrored = newValue
            }
            orientationChanged()
        }
    }

    /// When true (the default) front cameras are mirrored and others not.
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { state.withLock { $0.automaticallyAdjustsVideoMirroring } }
        set {
            let front = device?.position == .front
            state.withLock {
                $0.automaticallyAdjustsVideoMirroring = newValue
                if newValue { $0.isVideoMirrored = front }
            }
            orientationChanged()
        }
    }

    private func orientationChanged() {
        (output as? any OutputNode)?.connectionOrientationChanged()
    }

    /// Orientation and mirroring read together, as one frame or still uses them.
    var orientationState: (orientation: VideoOrientation, mirrored: Bool) {
        state.withLock { ($0.videoOrientation, $0.isVideoMirrored) }
    }

    public var description: String {
        "\(inputPorts.map(\.description).joined(separator: "+")) -> \(output.map { "\(type(of: $0))" } ?? "nil")"
    }
}
