import Dispatch
import Synchronization

/// Delivers PCM audio from a microphone (AVCaptureAudioDataOutput), to a delegate on its queue
/// and as an AsyncSequence.
///
/// Audio is converted to `audioSettings` (sample rate, channels, sample format; each nil keeps
/// the device's) in the output's own branch; the PCM data is the branch's buffer, mapped without
/// copying. Every sample carries its presentation time on the session's clock (running time),
/// its duration and `numSamples` frames. The virtual microphone delivers 10 ms buffers.
///
/// GStreamer's streaming thread only hands buffers over. While the delegate's queue still has
/// `maxPendingDeliveries` buffers waiting, newer ones are dropped for the delegate (and counted
/// in `droppedSampleBufferCount`) rather than queued without bound; each `sampleBuffers` stream
/// keeps its newest buffers by its own policy.
public final class AudioDataOutput: OutputNode, StreamFeeding {
    /// The format audio is delivered in (AVFoundation's audioSettings keys: sample rate, number
    /// of channels, linear PCM bit depth and float). Each nil keeps the device's.
    public struct AudioSettings: Sendable, Hashable {
        /// Frames per second, 8000 … 192000.
        public var sampleRate: Int?
        /// 1 (mono) or 2 (stereo); stereo from a mono device carries the signal on both.
        public var channelCount: Int?
        public var sampleFormat: AudioSampleFormat?

        public init(sampleRate: Int? = nil, channelCount: Int? = nil, sampleFormat: AudioSampleFormat? = nil) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.sampleFormat = sampleFormat
        }
    }

    /// The sample rates `audioSettings` accepts.
    public static let supportedSampleRates = 8000...192_000
    /// The channel counts `audioSettings` accepts.
    public static let supportedChannelCounts = 1...2
    /// Buffers waiting on the delegate's queue beyond which newer ones are dropped for it (about
    /// a second of the virtual microphone's 10 ms buffers).
    public static let maxPendingDeliveries = 100

    /// Crosses to the delegate's queue, where alone the delegate is called (hence unchecked).
    struct Delivery: @unchecked Sendable {
        weak var delegate: (any AudioDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
    }

    struct State {
        var settings: AudioSettings?
        var connections: [CaptureConnection] = []
        var delivery = Delivery()
        var subscribers = StreamSubscribers<SampleBuffer>()
        var formats = AudioFormatCache()
    }

    let state = Mutex(State())
    /// Buffers dispatched to the delegate's queue and not yet delivered.
    let pending = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)

    let owner = SessionReference()

    public init() {}

    let mediaType = MediaType.audio
    let kind = "audioData"

    public var connections: [CaptureConnection] { state.withLock { $0.connections } }

    func setConnections(_ connections: [CaptureConnection]) { state.withLock { $0.connections = connections } }

    /// The sample formats audio can be delivered in.
    public var availableSampleFormats: [AudioSampleFormat] { AudioSampleFormat.allCases }

    /// The delivery format; nil (or nil fields) keeps the device's. A running session rebuilds
    /// only this output's branch for it.
    public var audioSettings: AudioSettings? {
        get { state.withLock { $0.settings } }
        set { reportingFailure(of: "audioSettings", newValue) { () throws(CaptureError) in try setAudioSettings(newValue) } }
    }

    /// Validates and sets the delivery format: throws `invalidSetting` naming the sample rate or
    /// channel count and the valid range.
    public func setAudioSettings(_ settings: AudioSettings?) throws(CaptureError) {
        if let rate = settings?.sampleRate, !Self.supportedSampleRates.contains(rate) {
            throw .invalidSetting(name: "audio sample rate", value: "\(rate)",
                                  valid: "\(Self.supportedSampleRates.lowerBound)…\(Self.supportedSampleRates.upperBound) Hz, or nil for the device's")
        }
        if let channels = settings?.channelCount, !Self.supportedChannelCounts.contains(channels) {
            throw .invalidSetting(name: "audio channel count", value: "\(channels)",
                                  valid: "1 (mono) or 2 (stereo), or nil for the device's")
        }
        state.withLock { $0.settings = settings }
        owner.branchChanged()
    }

    /// Sets the delegate (held weakly) and the queue its method runs on (the main queue when
    /// nil); a nil delegate stops delivery.
    public func setSampleBufferDelegate(_ delegate: (any AudioDataOutputSampleBufferDelegate)?, queue: DispatchQueue?) {
        state.withLock { $0.delivery = Delivery(delegate: delegate, queue: delegate == nil ? nil : (queue ?? .main)) }
    }

    public var sampleBufferDelegate: (any AudioDataOutputSampleBufferDelegate)? { state.withLock { $0.delivery.delegate } }
    public var sampleBufferCallbackQueue: DispatchQueue? { state.withLock { $0.delivery.queue } }

    /// Buffers dropped for the delegate because its queue had `maxPendingDeliveries` waiting.
    public var droppedSampleBufferCount: Int { dropped.load(ordering: .relaxed) }

    /// Audio as an AsyncSequence. Each call makes a new stream that keeps the newest
    /// `bufferingNewest` buffers when its consumer is slower than the microphone (100: a
    /// second of the virtual microphone).
    public func sampleBuffers(bufferingNewest: Int = 100) -> AsyncStream<SampleBuffer> {
        makeStream(bufferingNewest: bufferingNewest)
    }
}

extension AudioDataOutput {
    func withSubscribers<R>(_ body: (inout StreamSubscribers<SampleBuffer>) -> R) -> R {
        state.withLock { body(&$0.subscribers) }
    }
}
