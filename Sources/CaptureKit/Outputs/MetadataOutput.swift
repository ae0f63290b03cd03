import Dispatch
import Foundation
import Synchronization

/// Receives the metadata objects a `MetadataOutput` finds.
///
/// Threading: called on the queue given to `setMetadataObjectsDelegate(_:queue:)`, in frame
/// order, never on a GStreamer thread; a slow delegate delays later batches, never the capture.
/// The delegate need not be `Sendable`: CaptureKit calls it on that queue alone, as AVFoundation does.
public protocol MetadataOutputObjectsDelegate: AnyObject {
    /// Objects found in one frame: every object in view, each with the time of this frame and
    /// how long it has been in view; an empty array once the last object has left the view.
    func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [any MetadataObject], from connection: CaptureConnection)
}

extension MetadataOutputObjectsDelegate {
    public func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [any MetadataObject], from connection: CaptureConnection) {}
}

/// Finds machine-readable codes, faces and motion in a session's frames (AVCaptureMetadataOutput).
///
/// Realised as a branch behind the input's tee: `queue leaky=downstream max-size-buffers=1 !
/// videoconvert ! videoscale ! GRAY8 ! appsink`, whose thread runs the detectors (zxing-cpp for
/// codes; OpenCV for faces, frontal faces only on live frames). When detection is slower than
/// capture, frames are skipped at the leaky queue, never queued, and the capture path never
/// waits.
///
/// The detectors are the `CaptureKitDetectors` product: an app that scans depends on it
/// (`.product(name: "CaptureKitDetectors", package: "CaptureKit")`), and one that does not
/// builds without zxing-cpp's and OpenCV's headers. Without it, ``availableMetadataObjectTypes``
/// is empty and choosing a type throws an error that says which product to add.
public final class MetadataOutput: OutputNode, StreamFeeding {
    /// Crosses to the delegate's queue, where alone the delegate is called (hence unchecked).
    struct Delivery: @unchecked Sendable {
        weak var delegate: (any MetadataOutputObjectsDelegate)?
        var queue: DispatchQueue?
    }

    struct State {
        var types: [MetadataObjectType] = []
        var rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        var connections: [CaptureConnection] = []
        var delivery = Delivery()
        var subscribers = StreamSubscribers<[any MetadataObject]>()
        /// The faces of the last frame examined, for stills taken meanwhile.
        var faces: [FaceObject] = []
        var motion = MotionDetectionSettings()
    }

    let state = Mutex(State())
    let gate = MetadataFrameGate()
    let owner = SessionReference()
    let mediaType = MediaType.video
    let kind = "metadata"

    public init() {}

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }
    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// The types this process can detect: with the `CaptureKitDetectors` product, every
    /// machine-readable code of seed 003, and faces where OpenCV's cascades are installed
    /// (Debian opencv-data); without it, none.
    public var availableMetadataObjectTypes: [MetadataObjectType] { MetadataObjectType.available }

    /// The types being looked for; none until set (as in AVFoundation).
    public var metadataObjectTypes: [MetadataObjectType] {
        get { state.withLock { $0.types } }
        set { reportingFailure(of: "metadataObjectTypes", newValue) { () throws(CaptureError) in try setMetadataObjectTypes(newValue) } }
    }

    /// Chooses the types to look for; each must be in `availableMetadataObjectTypes`.
    ///
    /// Code types are checked without asking for faces, so choosing only codes does not load
    /// OpenCV.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` naming the first type this process cannot
    ///   detect: faces without OpenCV's cascades, or any type without the `CaptureKitDetectors`
    ///   product (the message says how to add it).
    public func setMetadataObjectTypes(_ types: [MetadataObjectType]) throws(CaptureError) {
        try MetadataDetection.validate(types)
        state.withLock { $0.types = types }
        updateGate()
    }

    /// The part of the frame searched, in normalised device coordinates ({0,0,1,1}: all of it).
    public var rectOfInterest: CGRect {
        get { state.withLock { $0.rectOfInterest } }
        set { reportingFailure(of: "rectOfInterest", newValue) { () throws(CaptureError) in try setRectOfInterest(newValue) } }
    }

    /// Restricts the search; the rect must lie within {0,0,1,1} and not be empty.
    public func setRectOfInterest(_ rect: CGRect) throws(CaptureError) {
        try Self.validateRectOfInterest(rect)
        state.withLock { $0.rectOfInterest = rect }
    }

    /// Throws `invalidSetting` unless `rect` is a non-empty rect within {0, 0, 1, 1}.
    static func validateRectOfInterest(_ rect: CGRect) throws(CaptureError) {
        let values = [rect.minX, rect.minY, rect.width, rect.height]
        guard values.allSatisfy(\.isFinite), rect.width > 0, rect.height > 0, rect.minX >= 0, rect.minY >= 0,
              rect.maxX <= 1.000001, rect.maxY <= 1.000001 else {
            throw .invalidSetting(name: "rectOfInterest", value: "\(rect)", valid: "a non-empty rect within {0, 0, 1, 1}")
        }
    }

    /// Sets the delegate (held weakly) and the queue it is called on (main when nil).
    public func setMetadataObjectsDelegate(_ delegate: (any MetadataOutputObjectsDelegate)?, queue: DispatchQueue?) {
        state.withLock { $0.delivery = Delivery(delegate: delegate, queue: delegate == nil ? nil : (queue ?? .main)) }
    }

    public var metadataObjectsDelegate: (any MetadataOutputObjectsDelegate)? { state.withLock { $0.delivery.delegate } }

    /// Batches of objects as they are found, one per frame with objects; keeps the newest
    /// `bufferingNewest` batches for a slow consumer.
    public func metadataObjects(bufferingNewest: Int = 8) -> AsyncStream<[any MetadataObject]> {
        makeStream(bufferingNewest: bufferingNewest)
    }
}

extension MetadataOutput {
    func withSubscribers<R>(_ body: (inout StreamSubscribers<[any MetadataObject]>) -> R) -> R {
        state.withLock { body(&$0.subscribers) }
    }
}
