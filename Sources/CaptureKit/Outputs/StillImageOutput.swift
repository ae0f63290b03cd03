import Dispatch
import Foundation
import GStreamerSwift
import Observation
import Synchronization

/// Captures still images from a running session (AVCaptureStillImageOutput).
///
/// A still is the first frame presented after the request, never an older buffered one: the
/// branch admits no frame until a request is waiting, then the first frame whose presentation
/// time is not before the request. JPEG stills carry EXIF written by GStreamer (`jifmux`) from the
/// connection's orientation and mirroring, the device's make and model, and the capture time,
/// then completed by libexif so that validators accept it.
///
/// Completion handlers run on the output's own serial queue, one at a time, in request order.
public final class StillImageOutput: OutputNode, Observable {
    struct Request {
        var time: UInt64
        /// The size of the preview image to deliver beside the still (a photo's), if any.
        var previewSize: (width: Int, height: Int)? = nil
        var handler: @Sendable (SampleBuffer?, CaptureError?) -> Void
    }

    /// The requests one frame answers, while it is encoded.
    struct Batch {
        var requests: [Request]
        var attachments: SampleAttachments
        /// Whether the frame reached the encoder (where its preview is taken).
        var reachedEncoder = false
        var preview: SampleBuffer? = nil

        var previewSize: (width: Int, height: Int)? { requests.lazy.compactMap(\.previewSize).first }
    }

    struct State {
        var settings = StillImageSettings.default
        var connections: [CaptureConnection] = []
        var branch: RunningBranch?
        var pending: [Request] = []
        var encoding: [Batch] = []
        var layouts = LayoutCache()
    }

    let state = Mutex(State())
    /// The earliest waiting request's running time, or .max: read by the per-frame gate without a lock.
    let earliestRequest = Atomic<UInt64>(.max)
    private let capturing = Atomic<Bool>(false)
    let callbackQueue = DispatchQueue(label: "capturekit.still-image-output")
    /// Puts completion handlers on `callbackQueue` in request order, on every path.
    let completions: CompletionSequencer
    private let registrar = ObservationRegistrar()

    let owner = SessionReference()

    public init() {
        completions = CompletionSequencer(queue: callbackQueue)
    }

    let mediaType = MediaType.video
    let kind = "still"

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// The codecs stills can be encoded with.
    public var availableImageDataCodecTypes: [VideoCodecType] { [.jpeg] }

    /// The uncompressed pixel formats stills can be delivered in.
    public var availableImageDataPixelFormatTypes: [PixelFormat] { [.bgra, .nv12, .i420] }

    /// The same formats as CoreVideo codes (AVFoundation's `availableImageDataCVPixelFormatTypes`).
    public var availableImageDataCVPixelFormatTypes: [OSType] { availableImageDataPixelFormatTypes.map { $0.cvPixelFormatType(range: nil) } }

    /// Still image stabilization needs several frames merged; not offered.
    public var isStillImageStabilizationSupported: Bool { false }
    public var isStillImageStabilizationActive: Bool { false }
    /// Whether stabilization turns on by itself where supported: false, as the seed gives it for
    /// an output whose device does not support stabilization.
    public var automaticallyEnablesStillImageStabilizationWhenAvailable: Bool {
        get { isStillImageStabilizationSupported }
        set { reportingFailure(of: "automaticallyEnablesStillImageStabilizationWhenAvailable", newValue) { () throws(CaptureError) in try setAutomaticallyEnablesStillImageStabilizationWhenAvailable(newValue) } }
    }

    /// Sets `automaticallyEnablesStillImageStabilizationWhenAvailable`; as in AVFoundation it
    /// can only be set while `isStillImageStabilizationSupported`, so this throws
    /// `invalidSetting` naming the value.
    public func setAutomaticallyEnablesStillImageStabilizationWhenAvailable(_ enabled: Bool) throws(CaptureError) {
        guard isStillImageStabilizationSupported else {
            throw .invalidSetting(name: "automaticallyEnablesStillImageStabilizationWhenAvailable", value: "\(enabled)",
                                  valid: "nothing while isStillImageStabilizationSupported is false")
        }
    }

    /// The encoding of stills. On a running session a JPEG quality change is set on the running
    /// encoder; another change rebuilds only this output's branch (stills waiting then fail
    /// with `captureCancelled`).
    ///
    /// In AVFoundation's dictionary form (see ``StillImageSettings/dictionary``):
    /// `[VideoCodecKey: VideoCodecType.jpeg]`, say. Settings the output cannot make are refused
    /// and reported as `.CaptureConfigurationError`; ``setOutputSettings(_:)`` throws instead.
    public var outputSettings: [String: Any]! {
        get { settings.dictionary }
        set {
            reportingFailure(of: "outputSettings", newValue.map { "\($0)" } ?? "nil") { () throws(CaptureError) in
                try setOutputSettings(StillImageSettings(dictionary: newValue ?? [:]))
            }
        }
    }

    /// The encoding of stills, typed.
    public var settings: StillImageSettings { state.withLock { $0.settings } }

    /// Validates and sets the encoding.
    public func setOutputSettings(_ settings: StillImageSettings) throws(CaptureError) {
        switch settings {
        case .jpeg(let quality):
            guard (0...1).contains(quality) else {
                throw .invalidSetting(name: "JPEG quality", value: "\(quality)", valid: "0.0...1.0")
            }
        case .uncompressed(let format, _):
            guard availableImageDataPixelFormatTypes.contains(format) else {
                throw .invalidSetting(name: "still pixel format", value: format.rawValue,
                                      valid: availableImageDataPixelFormatTypes.map(\.rawValue).joined(separator: ", "))
            }
        }
        state.withLock { $0.settings = settings }
        owner.branchChanged()
    }

    /// Whether a still is being captured (observable).
    public var isCapturingStillImage: Bool {
        registrar.access(self, keyPath: \.isCapturingStillImage)
        return capturing.load(ordering: .relaxed)
    }

    func updateCapturing(_ value: Bool) {
        guard capturing.load(ordering: .relaxed) != value else { return }
        registrar.withMutation(of: self, keyPath: \.isCapturingStillImage) {
            capturing.store(value, ordering: .relaxed)
        }
    }

    /// Requests a still from `connection`; `completionHandler` gets the sample or an error, on the
    /// output's queue, after the handlers of every earlier request (stills, flash stills and
    /// bracket images alike). Throws at once when the connection is not this output's, not
    /// enabled, or not active (the session is not running).
    /// When the device's flash mode says so (`isFlashActive`), the flash fires first and the
    /// still is the first frame it lights; EXIF Flash records it.
    public func captureStillImage(from connection: CaptureConnection,
                                  completionHandler: @escaping @Sendable (SampleBuffer?, CaptureError?) -> Void) throws(CaptureError) {
        try captureStill(from: connection, flashMode: nil, completionHandler: completionHandler)
    }

    /// AVFoundation's form of ``captureStillImage(from:completionHandler:)``: it never throws;
    /// an inactive connection is the handler's error. The handler runs on the output's queue
    /// and need not be `Sendable`.
    public func captureStillImageAsynchronously(from connection: CaptureConnection,
                                                completionHandler handler: @escaping (CMSampleBuffer?, Error?) -> Void) {
        let handler = UncheckedDelegate(value: handler)
        do throws(CaptureError) {
            try captureStill(from: connection, flashMode: nil) { sample, error in handler.value(sample, error) }
        } catch {
            completions.complete(completions.ticket()) { handler.value(nil, error) }
        }
    }

    /// The JPEG file data of a JPEG still; nil for another sample (AVFoundation's
    /// `jpegStillImageNSDataRepresentation`).
    public static func jpegStillImageNSDataRepresentation(_ jpegSampleBuffer: CMSampleBuffer) -> Data? {
        try? jpegStillImageData(from: jpegSampleBuffer)
    }

    /// A still from `connection`, the flash fired as `flashMode` says (nil: the device's own
    /// mode, as AVCaptureStillImageOutput does; a photo output passes its settings').
    /// With `previewSize`, the still's sample carries a BGRA preview of that size (`previewPhoto`).
    func captureStill(from connection: CaptureConnection, flashMode: CaptureDevice.FlashMode?, previewSize: (width: Int, height: Int)? = nil,
                      completionHandler: @escaping @Sendable (SampleBuffer?, CaptureError?) -> Void) throws(CaptureError) {
        let ticket = completions.ticket()
        let completions = self.completions
        let inOrder: @Sendable (SampleBuffer?, CaptureError?) -> Void = { sample, error in
            completions.complete(ticket) { completionHandler(sample, error) }
        }
        if let device = connection.device, flashMode.map(device.wouldFlashFire(in:)) ?? device.isFlashActive {
            do throws(CaptureError) {
                try requireActive(connection)
            } catch {
                completions.cancel(ticket)
                throw error
            }
            updateCapturing(true)
            Task {
                await device.setFlashFiring(true)
                do throws(CaptureError) {
                    try request(from: connection, previewSize: previewSize) { sample, error in
                        Task {
                            await device.setFlashFiring(false)
                            inOrder(sample, error)
                        }
                    }
                } catch {
                    await device.setFlashFiring(false)
                    inOrder(nil, error)
                }
            }
            return
        }
        do throws(CaptureError) {
            try request(from: connection, previewSize: previewSize, completionHandler: inOrder)
        } catch {
            completions.cancel(ticket)
            throw error
        }
    }

    /// Throws `inactiveConnection` unless `connection` is this output's, enabled and active.
    private func requireActive(_ connection: CaptureConnection) throws(CaptureError) {
        try state.withLock { state throws(CaptureError) in
            guard state.connections.contains(where: { $0 === connection }), connection.isEnabled, connection.isActive,
                  state.branch != nil else {
                throw .inactiveConnection("\(connection)")
            }
        }
    }

    /// Queues a request for the first frame presented from now on.
    private func request(from connection: CaptureConnection, previewSize: (width: Int, height: Int)? = nil,
                         completionHandler: @escaping @Sendable (SampleBuffer?, CaptureError?) -> Void) throws(CaptureError) {
        try state.withLock { state throws(CaptureError) in
            guard state.connections.contains(where: { $0 === connection }), connection.isEnabled, connection.isActive,
                  let branch = state.branch else {
                throw .inactiveConnection("\(connection)")
            }
            let request = Request(time: branch.runningTime, previewSize: previewSize, handler: completionHandler)
            state.pending.append(request)
            earliestRequest.store(state.pending.map(\.time).min()!, ordering: .releasing)
        }
        updateCapturing(true)
    }

    /// A still without the flash, whatever its mode: a bracket's image.
    func captureUnlitStillImage(from connection: CaptureConnection) async throws(CaptureError) -> SampleBuffer {
        let result: Result<SampleBuffer, CaptureError> = await withCheckedContinuation { continuation in
            do throws(CaptureError) {
                try request(from: connection) { sample, error in
                    continuation.resume(returning: sample.map { .success($0) } ?? .failure(error ?? .captureCancelled))
                }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }

    /// The async form of `captureStillImage(from:completionHandler:)`.
    public func captureStillImage(from connection: CaptureConnection) async throws(CaptureError) -> SampleBuffer {
        let result: Result<SampleBuffer, CaptureError> = await withCheckedContinuation { continuation in
            do throws(CaptureError) {
                try captureStillImage(from: connection) { sample, error in
                    if let sample { continuation.resume(returning: .success(sample)) }
                    else { continuation.resume(returning: .failure(error ?? .captureCancelled)) }
                }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }

    /// The JPEG file data of a JPEG still (EXIF included).
    public static func jpegStillImageData(from sample: SampleBuffer) throws(CaptureError) -> Data {
        guard sample.formatDescription.codec == .jpeg, case .data(let data) = sample.storage else {
            throw .wrongSampleFormat(expected: "jpeg", found: sample.formatDescription.pixelFormat?.rawValue ?? "none")
        }
        return data
    }
}
