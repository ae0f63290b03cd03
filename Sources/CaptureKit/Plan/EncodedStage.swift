/// The encoded stage of a source: one encode per codec settings, shared by every output that
/// wants those settings (recordings, compressed video data, streams). A plan holds it as a
/// branch of the source ending in a tee, `KEY_tee`; its consumers' entries name
/// the stage's key as their source.
///
/// `KEY_queue` (leaky, one second: the encoder's own thread; its workers at nice `niceness`) ! `videoconvert` ! the encoder's raw
/// format ! the settings' overlay `KEY_overlay` (``VideoOverlay``), when they have one ! encoder `KEY_enc` ! `h264parse` `KEY_parse` (parameter sets with every key frame) !
/// `video/x-h264,stream-format=avc,alignment=au` (what the MP4 muxers take; consumers that want
/// Annex B parse it again; with the settings' profile, which the encoder negotiates) ! `tee`
/// `KEY_tee`, whose first pad feeds `fakesink` `KEY_drain`.
///
/// The key is `enc` and a hash of the source and the settings (no `_`, which separates a
/// part's key from its element names), so equal settings on one source give one stage and a
/// plan compiled twice gives the same key.
enum EncodedStage {
    /// The stage key for `settings` (resolved) on the source keyed `source`, encoded by `encoder`.
    static func key(source: String, encoder: VideoEncoder, settings: VideoCodecSettings) -> String {
        var text = "\(source)|\(encoder.name)|\(settings.codec.rawValue)|\(settings.bitrate ?? 0)|\(settings.keyFrameInterval ?? 0)"
        // Settings without a profile keep the keys they had before profiles existed.
        if let profile = settings.profile { text += "|\(profile.rawValue)" }
        if let overlay = settings.overlay { text += "|\(overlay)" }
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return "enc" + String(hash, radix: 16)
    }

    /// The nice value of the encoder's worker threads.
    static let niceness: Int32 = 10

    /// The stage's plan: a branch of `source` ending in the stage's tee.
    static func plan(key: String, source: String, format: SourceFormat, encoder: VideoEncoder, settings: VideoCodecSettings) -> PipelinePlan.Branch {
        let rawFormat = encoder.kind == .x264enc || encoder.kind == .openh264enc ? "I420" : "NV12"
        let chain: [PipelinePlan.Element] = [
            .leakyQueue(.queue, in: key),
            .init("videoconvert", .convert, in: key),
            .init("capsfilter", .raw, in: key, [.init("caps", .caps("video/x-raw,format=\(rawFormat)"))]),
        ] + (settings.overlay.map { [$0.element(prefix: key, height: format.height)] } ?? []) + encoder.elements(prefix: key, settings: settings, source: format) + [
            .init("capsfilter", .h264, in: key, [.init("caps", .caps("video/x-h264,stream-format=avc,alignment=au"
                + (settings.profile.map { ",profile=\($0.rawValue)" } ?? "")))]),
            .init("tee", .tee, in: key, [.init("allow-not-linked", true)]),
        ]
        // The tee's first pad never fails: a tee whose every pad returns an error returns it to
        // the encoder's thread, which stops and posts it as the stage's, and the stage's errors
        // stop the session. With the drain, a consumer that fails (a receiver gone) fails alone.
        let drain = PipelinePlan.Element("fakesink", .drain, in: key, [.init("sync", false), .init("async", false)])
        // The tee stays the last element: that is how a plan's branch is known as a stage.
        // A text overlay's video comes in on its `video_sink` pad (`text_sink` takes text).
        let overlay = PipelinePlan.Role.overlay.name(in: key)
        let links = PipelinePlan.Link.chain(chain).map { $0.to == overlay ? PipelinePlan.Link(from: $0.from, to: overlay + ".video_sink") : $0 }
        return PipelinePlan.Branch(key: key, elements: chain.dropLast() + [drain, chain[chain.count - 1]], links: links + [.init(from: "\(PipelinePlan.Role.tee.name(in: key)).src_%u", to: drain.name)],
                                   entries: [.init(source: source, element: chain[0].name)], finishesWithEndOfStream: false)
    }
}
