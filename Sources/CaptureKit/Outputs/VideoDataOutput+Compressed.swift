import GStreamerSwift

/// What a running compressed branch needs for key-frame requests and bit-rate changes: its
/// entry pad (an upstream event from it reaches the encoder), its bin and the pipeline holding
/// the encoded stage's encoder.
struct CompressedBranch: Sendable {
    let entry: Pad
    let bin: Bin
    let pipeline: Pipeline

    /// The key of the encoded stage feeding the branch: its bin's entry is linked to a ghost pad
    /// of the stage's bin, whose name is the key. nil before the branch is linked.
    var stage: String? {
        (try? bin.element.staticPad("sink"))?.peer?.parentName
    }
}

extension VideoDataOutput {
    /// The codecs compressed frames can be delivered in: H.264 where an encoder is installed.
    public var availableVideoCodecTypes: [VideoCodecType] { owner.context.videoEncoder == nil ? [] : [.h264] }

    /// For `codec` settings, the encoding the session's shared encoded stage runs for this
    /// output (outputs asking for the same share one encode).
    var videoEncoding: VideoCodecSettings? {
        guard let settings, let codec = settings.codec else { return nil }
        return VideoCodecSettings(codec: codec, bitrate: settings.bitrate, keyFrameInterval: settings.keyFrameInterval, profile: settings.profile)
    }

    /// The compressed branch behind the encoded stage's tee, named `prefix_…`: `queue`
    /// `prefix_queue` (the branch's thread; leaky as the raw branch's) ! `h264parse`
    /// `prefix_parse` (Annex B, SPS and PPS before every key frame) ! caps ! `appsink`
    /// `prefix_sink`.
    func compressedBranch(prefix: String) -> [PipelinePlan.Element] {
        let discardsLate = alwaysDiscardsLateVideoFrames
        let buffers = PropertyValue.int(discardsLate ? 1 : Self.keptFrameLimit)
        return [
            .init("queue", .queue, in: prefix, [.init("max-size-buffers", buffers), .init("max-size-bytes", 0), .init("max-size-time", 0),
                                                     .init("leaky", .nick("downstream"))]),
            .init("h264parse", .parse, in: prefix, [.init("config-interval", -1)]),
            .init("capsfilter", .h264, in: prefix, [.init("caps", .caps("video/x-h264,stream-format=byte-stream,alignment=au"))]),
            .init("appsink", .sink, in: prefix, [
                .init("sync", false), .init("async", false), .init("emit-signals", false), .init("enable-last-sample", false),
                .init("max-buffers", buffers), .init("drop", true), .init("wait-on-eos", false),
            ]),
        ]
    }

    /// Hooks a compressed branch up: each access unit is delivered as a sample buffer, and the
    /// branch's entry is kept for `requestKeyFrame()`.
    func attachCompressed(_ branch: RunningBranch) throws(CaptureError) {
        let slot = branch.slot
        let sink = try branch.element(.sink)
        let entry = try branch.pad(.queue, "sink")
        state.withLock { $0.compressed = CompressedBranch(entry: entry, bin: branch.bin, pipeline: branch.pipeline) }
        AppSink.setHandlers(.init(newSample: { [weak self] sample in
            self?.deliver(sample, connection: slot.connection, done: nil)
        }), on: sink)
    }

    /// Asks the encoder for a key frame now (with SPS and PPS); it arrives within a couple of
    /// frames on x264enc, openh264enc and the VA-API encoders. Returns false when the output is
    /// not delivering compressed frames. GStreamer 1.22's `v4l2h264enc` (a Raspberry Pi's)
    /// ignores the request: its key frames come at the interval only.
    @discardableResult
    public func requestKeyFrame() -> Bool {
        guard let entry = state.withLock({ $0.compressed?.entry }) else { return false }
        return entry.push(.forceKeyUnit())
    }

    /// Changes the running encoder's average bit rate (bits per second) without restarting it:
    /// x264enc, openh264enc and the VA-API encoders take it at once; GStreamer 1.22's
    /// `v4l2h264enc` cannot change it while running (throws `unsupported`). The change applies
    /// to the shared encode, so to every output on it. Throws for a rate out of range or when
    /// the output is not delivering compressed frames.
    public func setBitrate(_ bitrate: Int) throws(CaptureError) {
        try VideoCodecSettings(codec: .h264, bitrate: bitrate).validate(available: availableVideoCodecTypes)
        guard let branch = state.withLock({ $0.compressed }), let stage = branch.stage, let encoder = owner.context.videoEncoder else {
            throw .invalidSetting(name: "bitrate", value: "\(bitrate) bit/s", valid: "a running output with compressed video settings")
        }
        guard let (name, value) = encoder.liveBitrate(bitrate) else {
            throw .unsupported(feature: "changing the bit rate while encoding", device: encoder.name)
        }
        do {
            try branch.pipeline.element(named: PipelinePlan.Role.enc.name(in: stage)).set(name, value)
        } catch {
            throw .pipelineFailed(error, element: PipelinePlan.Role.enc.name(in: stage))
        }
    }

}
