import Dispatch
import GStreamerSwift
import Synchronization

/// Receives the frames a `VideoDataOutput` delivers (AVCaptureVideoDataOutputSampleBufferDelegate).
///
/// Threading: both methods run on the queue given to `setSampleBufferDelegate(_:queue:)`, one
/// call at a time, never on a GStreamer thread. The delegate need not be `Sendable`: CaptureKit
/// calls it on that queue alone, as AVFoundation does, so keep its state to that queue.
///
/// The methods have AVFoundation's shape, with the output as a ``CaptureOutput`` (compare it
/// with `===`), so one class can serve a ``VideoDataOutput`` and an ``AudioDataOutput``; both
/// are optional.
public protocol VideoDataOutputSampleBufferDelegate: AnyObject {
    /// A frame arrived.
    func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection)
    /// A frame was discarded because the delegate's queue was still busy with an earlier one.
    func captureOutput(_ output: CaptureOutput, didDrop sampleBuffer: SampleBuffer, from connection: CaptureConnection)
}

extension VideoDataOutputSampleBufferDelegate {
    public func captureOutput(_ output: CaptureOutput, didOutput sampleBuffer: SampleBuffer, from connection: CaptureConnection) {}
    public func captureOutput(_ output: CaptureOutput, didDrop sampleBuffer: SampleBuffer, from connection: CaptureConnection) {}
}

/// Delivers raw frames (AVCaptureVideoDataOutput), to a delegate on its queue and as an
/// AsyncSequence.
///
/// Frames are turned for the connection's `videoOrientation` and `isVideoMirrored` (as
/// AVFoundation's are: a portrait connection delivers portrait pixels), then converted (and
/// scaled) to `videoSettings`, in the output's own branch; the plane data is the branch's
/// buffer, mapped without copying. Compressed frames (`VideoCodecKey`) come from the shared
/// encode unturned, with the orientation as an attachment. With `alwaysDiscardsLateVideoFrames`
/// (the default) a frame that arrives while the delegate is still busy is dropped and reported
/// through `didDrop`; without it, up to `keptFrameLimit` frames wait in the branch's appsink
/// while `keptFrameLimit` are with the delegate, and only a delegate slower than the camera for
/// longer than that loses the oldest waiting ones. No thread waits for the delegate: the camera
/// and the other outputs run on. A source that is not live (a bounded test pattern) is the
/// exception: it waits for such a delegate, so every frame it makes is delivered.
public final class VideoDataOutput: OutputNode, StreamFeeding {
    /// The format frames are delivered in (AVVideoSettings): raw frames in a pixel format and
    /// size, or compressed with `codec` (H.264 access units, Annex B) at `bitrate` with a key
    /// frame at least every `keyFrameInterval` frames.
    public struct VideoSettings: Sendable, Hashable {
        /// nil keeps the device's format.
        public var pixelFormat: PixelFormat?
        /// nil keeps the device's size; both or neither.
        public var width: Int?
        public var height: Int?
        /// `.h264` delivers compressed frames from the session's shared encode; nil raw frames.
        public var codec: VideoCodecType?
        /// Average bits per second of compressed frames (nil: the encoder's default for the size).
        public var bitrate: Int?
        /// Most frames between key frames (nil: two seconds of frames).
        public var keyFrameInterval: Int?
        /// The H.264 profile of compressed frames (nil: the encoder's; see ``VideoCodecSettings/profile``).
        public var profile: H264Profile?

        public init(pixelFormat: PixelFormat? = nil, width: Int? = nil, height: Int? = nil) {
            self.pixelFormat = pixelFormat
            self.width = width
            self.height = height
        }

        /// Compressed frames: `codec` (`.h264`) at `bitrate` bits per second, a key frame at least
        /// every `keyFrameInterval` frames.
        public init(codec: VideoCodecType, bitrate: Int? = nil, keyFrameInterval: Int? = nil, profile: H264Profile? = nil) {
            self.codec = codec
            self.bitrate = bitrate
            self.keyFrameInterval = keyFrameInterval
            self.profile = profile
        }
    }

    /// Crosses to the delegate's queue, where alone the delegate is called (hence unchecked).
    struct Delivery: @unchecked Sendable {
        weak var delegate: (any VideoDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
    }

    struct State {
        var settings: VideoSettings?
        var discardsLate = true
        var connections: [CaptureConnection] = []
        var delivery = Delivery()
        var subscribers = StreamSubscribers<SampleBuffer>()
        var layouts = LayoutCache()
        /// The running compressed branch's entry, for key-frame requests, and its encoder.
        var compressed: CompressedBranch?
    }

    let state = Mutex(State())
    private let inFlight = Atomic<Int>(0)
    /// Frames handed to the delegate's queue, or waiting in the appsink, when late frames are kept.
    static let keptFrameLimit = 4
    /// Serialises taking kept frames from the appsink, so they reach the queue in order.
    private let pumping = Mutex(())

    let owner = SessionReference()

    public init() {}

    let mediaType = MediaType.video
    let kind = "videoData"

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// The pixel formats frames can be delivered in.
    public var availableVideoPixelFormatTypes: [PixelFormat] { [.bgra, .rgba, .nv12, .i420, .gray8] }

    /// The delivery format in AVFoundation's dictionary form (see
    /// ``VideoSettings/dictionary``): `[kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA]`,
    /// say. Empty, or nil, keeps the device's format. A running session rebuilds only this
    /// output's branch for it. Settings the output cannot deliver are refused and reported as
    /// `.CaptureConfigurationError`; ``setVideoSettings(_:)`` throws instead.
    public var videoSettings: [String: Any]! {
        get { settings?.dictionary ?? [:] }
        set {
            reportingFailure(of: "videoSettings", newValue.map { "\($0)" } ?? "nil") { () throws(CaptureError) in
                let dictionary = newValue ?? [:]
                try setVideoSettings(dictionary.isEmpty ? nil : try VideoSettings(dictionary: dictionary))
            }
        }
    }

    /// The delivery format, typed; nil keeps the device's.
    public var settings: VideoSettings? { state.withLock { $0.settings } }

    /// Validates and sets the delivery format.
    public func setVideoSettings(_ settings: VideoSettings?) throws(CaptureError) {
        if let settings, let codec = settings.codec {
            guard settings.pixelFormat == nil, settings.width == nil, settings.height == nil else {
                throw .invalidSetting(name: "video settings", value: "codec \(codec.rawValue) with a pixel format or size",
                                      valid: "a codec, or a pixel format and size, not both")
            }
            try VideoCodecSettings(codec: codec, bitrate: settings.bitrate, keyFrameInterval: settings.keyFrameInterval, profile: settings.profile)
                .validate(available: availableVideoCodecTypes)
        }
        if let format = settings?.pixelFormat, !availableVideoPixelFormatTypes.contains(format) {
            throw .invalidSetting(name: "video pixel format", value: format.rawValue,
                                  valid: availableVideoPixelFormatTypes.map(\.rawValue).joined(separator: ", "))
        }
        if let settings, (settings.width == nil) != (settings.height == nil) || (settings.width ?? 1) <= 0 || (settings.height ?? 1) <= 0 {
            throw .invalidSetting(name: "video size", value: "\(settings.width.map(String.init) ?? "nil")x\(settings.height.map(String.init) ?? "nil")",
                                  valid: "both width and height, each > 0, or neither")
        }
        state.withLock { $0.settings = settings }
        owner.branchChanged()
    }

    /// Whether frames arriving while the delegate is busy are dropped (default true).
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { state.withLock { $0.discardsLate } }
        set {
            state.withLock { $0.discardsLate = newValue }
            owner.branchChanged()
        }
    }

    /// Sets the delegate (held weakly) and the queue its methods run on; nil stops delivery.
    public func setSampleBufferDelegate(_ delegate: (any VideoDataOutputSampleBufferDelegate)?, queue: DispatchQueue?) {
        state.withLock { $0.delivery = Delivery(delegate: delegate, queue: delegate == nil ? nil : (queue ?? .main)) }
    }

    public var sampleBufferDelegate: (any VideoDataOutputSampleBufferDelegate)? { state.withLock { $0.delivery.delegate } }
    public var sampleBufferCallbackQueue: DispatchQueue? { state.withLock { $0.delivery.queue } }

    /// Frames as an AsyncSequence. Each call makes a new stream that keeps the newest
    /// `bufferingNewest` frames when its consumer is slower than the camera.
    public func sampleBuffers(bufferingNewest: Int = 1) -> AsyncStream<SampleBuffer> {
        makeStream(bufferingNewest: bufferingNewest)
    }
}

extension VideoDataOutput {
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        let settings = settings
        if settings?.codec != nil { return compressedBranch(prefix: prefix) }
        let discardsLate = alwaysDiscardsLateVideoFrames
        let format = settings?.pixelFormat ?? source.pixelFormat
        // The connection's orientation and mirroring turn the pixels, as AVFoundation's video
        // data output does; the size asked for is the turned picture's.
        let (orientation, mirrored) = connection(with: .video)?.orientationState ?? (.landscapeRight, false)
        let direction = orientation.videoFlipDirection(mirrored: mirrored)
        let turned = orientation.swapsSides ? (width: source.height, height: source.width) : (width: source.width, height: source.height)
        let resized = settings?.width.map { $0 != turned.width } == true || settings?.height.map { $0 != turned.height } == true
        let converts = format != source.pixelFormat || resized
        var chain: [PipelinePlan.Element] = []
        // A queue gives the branch a thread of its own, so conversion or a waiting delegate never
        // holds up the capture thread. Frames that need no conversion and are never waited for
        // (late ones are dropped) go straight from the tee to the appsink, whose callback only
        // hands them over: one thread hand-off less per frame and at start.
        // A source that is not live waits for kept frames instead (nothing is lost by waiting for
        // a file): the appsink does not drop, and its end of stream waits until the delegate has
        // had every frame. A queue there would hold the source back as the full appsink does,
        // only later and with four more frames in flight: without conversion it is left out.
        let waits = !discardsLate && !source.isLive
        if converts || direction != "identity" || (!discardsLate && !waits) {
            var queue: [PipelinePlan.Property] = [.init("max-size-buffers", .int(discardsLate ? 1 : Self.keptFrameLimit))]
            if !waits { queue.append(.init("leaky", .nick("downstream"))) }
            if !discardsLate { queue += [.init("max-size-bytes", 0), .init("max-size-time", 0)] }
            chain.append(.init("queue", .queue, in: prefix, queue))
        }
        if direction != "identity" {
            chain.append(.init("videoflip", .flip, in: prefix, [.init("video-direction", .nick(direction))]))
        }
        if converts {
            chain.append(.init("videoconvert", .convert, in: prefix))
            var caps = "video/x-raw,format=\(format.gstFormat!)"
            if resized, let width = settings?.width, let height = settings?.height {
                chain.append(.init("videoscale", .scale, in: prefix))
                caps += ",width=\(width),height=\(height)"
            }
            chain.append(.init("capsfilter", .format, in: prefix, [.init("caps", .caps(caps))]))
        }
        chain.append(.init("appsink", .sink, in: prefix, [
            .init("sync", false), .init("async", false), .init("emit-signals", false), .init("enable-last-sample", false),
            .init("max-buffers", .int(discardsLate ? 1 : Self.keptFrameLimit)), .init("drop", .bool(!waits)),
            .init("wait-on-eos", .bool(waits )),
        ]))
        return chain
    }

    func attach(_ branch: RunningBranch) throws(CaptureError) {
        if settings?.codec != nil { return try attachCompressed(branch) }
        let slot = branch.slot
        let sink = try branch.element(.sink)
        if (try? sink.get("max-buffers")) != "1" {
            // Kept frames: take them from the appsink only while fewer than the limit are with
            // the delegate; the rest wait in the appsink, which keeps the newest when full.
            AppSink.setSampleReadyHandler({ [weak self, weak sink] in
                guard let self, let sink else { return }
                pump(sink, slot: slot)
            }, on: sink)
        } else {
            AppSink.setHandlers(.init(newSample: { [weak self] sample in
                self?.deliver(sample, connection: slot.connection, done: nil)
            }), on: sink)
        }
    }

    /// Takes waiting frames from the appsink while the delegate has fewer than the limit, and
    /// hands each over; called from the streaming thread and from the delegate's queue after
    /// each frame. Holds `pumping` only around taking and queueing, never across the delegate.
    private func pump(_ sink: Element, slot: ConnectionSlot) {
        pumping.withLock { _ in
            while inFlight.load(ordering: .acquiring) < Self.keptFrameLimit, let sample = AppSink.pullSample(from: sink) {
                deliver(sample, connection: slot.connection) { [weak self, weak sink] in
                    guard let self, let sink else { return }
                    pump(sink, slot: slot)
                }
            }
        }
    }

    /// Raw frames are turned in the branch, so a running session rebuilds it for the new
    /// orientation or mirroring.
    func connectionOrientationChanged() {
        if settings?.codec == nil { owner.branchChanged() }
    }

    func detach(error: CaptureError) {
        state.withLock {
            $0.layouts = LayoutCache()
            $0.compressed = nil
        }
    }

    /// Wraps the frame and hands it over; never runs user code here. `done`, for kept frames,
    /// runs on the delegate's queue after the delegate has the frame.
    func deliver(_ sample: Sample, connection: CaptureConnection, done: (@Sendable () -> Void)?) {
        let (layout, delivery, streams, compressed) = state.withLock { state in
            (state.compressed == nil ? state.layouts.layout(of: sample) : nil, state.delivery, state.subscribers.all, state.compressed != nil)
        }
        // Raw frames were turned in the branch: nothing is left for a viewer to do. Compressed
        // frames come from the shared encode, unturned, and carry the connection's orientation.
        let (orientation, mirrored) = compressed ? connection.orientationState : (.landscapeRight, false)
        let attachments = SampleAttachments(videoOrientation: orientation, isVideoMirrored: mirrored, deviceUniqueID: connection.device?.uniqueID ?? "")
        guard let buffer = SampleBuffer.video(sample, codec: compressed ? .h264 : nil, layout: layout, attachments: attachments) else { return }
        for stream in streams { stream.yield(buffer) }
        guard delivery.delegate != nil, let queue = delivery.queue else { return }
        if done == nil {
            if inFlight.load(ordering: .acquiring) > 0 {
                queue.async { delivery.delegate?.captureOutput(self, didDrop: buffer, from: connection) }
                return
            }
            inFlight.add(1, ordering: .acquiringAndReleasing)
            queue.async {
                delivery.delegate?.captureOutput(self, didOutput: buffer, from: connection)
                self.inFlight.subtract(1, ordering: .acquiringAndReleasing)
            }
        } else {
            inFlight.add(1, ordering: .acquiringAndReleasing)
            queue.async {
                delivery.delegate?.captureOutput(self, didOutput: buffer, from: connection)
                self.inFlight.subtract(1, ordering: .acquiringAndReleasing)
                done?()
            }
        }
    }
}

extension VideoDataOutput {
    func withSubscribers<R>(_ body: (inout StreamSubscribers<SampleBuffer>) -> R) -> R {
        state.withLock { body(&$0.subscribers) }
    }
}
