import Foundation
import Synchronization

/// A link from input ports to an output (AVCaptureConnection).
///
/// Orientation and mirroring may be changed while running. Stills and movies carry them as
/// metadata (EXIF orientation, the track's display matrix); a video data output and a preview
/// turn their pixels. Safe to use from any thread.
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
        initial.isVideoMirrored = Self.mirrorsAutomatically(inputPorts.first?.device, output: output)
        self.state = Mutex(initial)
    }

    /// A connection from a video port to a preview, for `CaptureSession.addConnection` after
    /// the preview joined with `setSessionWithNoConnection(_:)` (a multi-camera session's
    /// preview of one camera).
    public convenience init(inputPort port: CaptureInputPort, videoPreviewLayer: VideoPreview) {
        self.init(inputPorts: [port], output: videoPreviewLayer)
    }

    /// The preview the connection feeds, if it feeds one (AVCaptureConnection's `videoPreviewLayer`).
    public var videoPreviewLayer: VideoPreview? { output as? VideoPreview }

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

    /// How the image is turned: metadata for stills and movies, pixels for video data and previews.
    public var videoOrientation: VideoOrientation {
        get { state.withLock { $0.videoOrientation } }
        set {
            state.withLock { $0.videoOrientation = newValue }
            orientationChanged()
        }
    }

    /// The clockwise angle, in degrees, the image is turned by (iOS 17's form of
    /// ``videoOrientation``): 0 is `landscapeRight`, 90 `portrait`, 180 `landscapeLeft`, 270
    /// `portraitUpsideDown`. An angle ``isVideoRotationAngleSupported(_:)`` refuses is reported
    /// as `.CaptureConfigurationError` and leaves the angle unchanged.
    public var videoRotationAngle: CGFloat {
        get { CGFloat(videoOrientation.rotationDegrees) }
        set {
            reportingFailure(of: "videoRotationAngle", newValue) { () throws(CaptureError) in
                guard let orientation = VideoOrientation(rotationAngle: newValue) else {
                    throw .invalidSetting(name: "videoRotationAngle", value: "\(newValue)", valid: "0, 90, 180 or 270")
                }
                videoOrientation = orientation
            }
        }
    }

    /// Whether ``videoRotationAngle`` can be `angle`: a multiple of 90° from 0 to 270 on a video connection.
    public func isVideoRotationAngleSupported(_ angle: CGFloat) -> Bool {
        isVideoOrientationSupported && VideoOrientation(rotationAngle: angle) != nil
    }

    /// Whether the image is mirrored left to right (metadata for stills and movies, pixels for
    /// video data and previews). Setting it turns automatic adjustment off.
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

    /// When true (the default) a preview of a front camera is mirrored, as a mirror would show
    /// it, and every other connection is not: AVFoundation mirrors the preview layer's
    /// connection by default, while photos, movies and video data keep the sensor's view.
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { state.withLock { $0.automaticallyAdjustsVideoMirroring } }
        set {
            let mirrors = Self.mirrorsAutomatically(device, output: output)
            state.withLock {
                $0.automaticallyAdjustsVideoMirroring = newValue
                if newValue { $0.isVideoMirrored = mirrors }
            }
            orientationChanged()
        }
    }

    /// Whether automatic mirroring mirrors a connection from `device` to `output`: a front
    /// camera's preview only.
    private static func mirrorsAutomatically(_ device: CaptureDevice?, output: (any CaptureOutput)?) -> Bool {
        device?.position == .front && output is VideoPreview
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
