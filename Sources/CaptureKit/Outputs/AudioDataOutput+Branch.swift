import GStreamerSwift

extension AudioDataOutput {
    /// How much audio the branch's queue holds before it drops the oldest (nanoseconds).
    static let queueTime: UInt64 = 500_000_000
    /// Buffers the appsink holds before it drops the oldest (its callback takes each at once).
    static let sinkBuffers = 16

    /// The branch behind an audio tee, named `prefix_…`: `queue` `prefix_queue` (leaky,
    /// half a second: the branch's own thread) ! `audioconvert` `prefix_convert` !
    /// `audioresample` `prefix_resample` ! `capsfilter` `prefix_format` (the `audioSettings`
    /// given; fields left nil follow the source) ! `appsink` `prefix_sink` (no sync, no
    /// preroll, bounded, dropping, not waiting on EOS).
    ///
    /// The chain does not depend on the source's format, so the branch stays when the source is
    /// replaced (another microphone, another format): the converters pass through what needs no
    /// conversion. Attach it with `attach(sink:connection:)`.
    func audioBranch(prefix: String) -> [PipelinePlan.Element] {
        let settings = audioSettings
        var caps = "audio/x-raw,layout=interleaved"
        if let format = settings?.sampleFormat { caps += ",format=\(format.gstFormat)" }
        if let rate = settings?.sampleRate { caps += ",rate=\(rate)" }
        if let channels = settings?.channelCount { caps += ",channels=\(channels)" }
        return [
            .init("queue", .queue, in: prefix, [
                .init("leaky", .nick("downstream")), .init("max-size-buffers", 0), .init("max-size-bytes", 0),
                .init("max-size-time", .int(Int(Self.queueTime))),
            ]),
            .init("audioconvert", .convert, in: prefix),
            .init("audioresample", .resample, in: prefix),
            .init("capsfilter", .format, in: prefix, [.init("caps", .caps(caps))]),
            .init("appsink", .sink, in: prefix, [
                .init("sync", false), .init("async", false), .init("emit-signals", false), .init("enable-last-sample", false),
                .init("max-buffers", .int(Self.sinkBuffers)), .init("drop", true), .init("wait-on-eos", false),
            ]),
        ]
    }

    /// `OutputNode`'s branch: the audio branch (the video source format does not apply).
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        audioBranch(prefix: prefix)
    }

    /// Hooks the branch's appsink (`prefix_sink`) up to the output: each buffer becomes a
    /// `SampleBuffer` for `connection`, handed to the delegate's queue and the streams. Call it
    /// before the branch's state is synced with the pipeline.
    func attach(sink: Element, connection: CaptureConnection) {
        attach(sink: sink, slot: ConnectionSlot(connection))
    }

    /// The same, reading the connection from `slot` for each buffer (it changes when the
    /// session swaps the microphone behind a branch that stays).
    func attach(sink: Element, slot: ConnectionSlot) {
        AppSink.setHandlers(.init(newSample: { [weak self] sample in
            let connection = slot.connection
            let deviceID = connection.inputPorts.first { $0.mediaType == .audio }?.device.uniqueID ?? ""
            self?.deliver(sample, connection: connection, deviceID: deviceID)
        }), on: sink)
    }

    func attach(_ branch: RunningBranch) throws(CaptureError) {
        attach(sink: try branch.element(.sink), slot: branch.slot)
    }

    func detach(error: CaptureError) {
        state.withLock { $0.formats = AudioFormatCache() }
    }

    /// On the appsink's streaming thread: wraps the buffer and hands it over; never runs or
    /// waits for user code here.
    private func deliver(_ sample: Sample, connection: CaptureConnection, deviceID: String) {
        let (format, delivery, streams) = state.withLock { state in
            (state.formats.format(of: sample), state.delivery, state.subscribers.all)
        }
        guard let format else { return }
        let buffer = SampleBuffer(audioSample: sample, format: format, attachments: SampleAttachments(
            videoOrientation: .landscapeRight, isVideoMirrored: false, deviceUniqueID: deviceID))
        for stream in streams { stream.yield(buffer) }
        guard delivery.delegate != nil, let queue = delivery.queue else { return }
        guard pending.add(1, ordering: .acquiringAndReleasing).newValue <= Self.maxPendingDeliveries else {
            pending.subtract(1, ordering: .acquiringAndReleasing)
            dropped.add(1, ordering: .relaxed)
            return
        }
        queue.async {
            delivery.delegate?.captureOutput(self, didOutput: buffer, from: connection)
            self.pending.subtract(1, ordering: .acquiringAndReleasing)
        }
    }
}
