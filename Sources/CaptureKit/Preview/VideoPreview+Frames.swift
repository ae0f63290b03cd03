import GStreamerSwift

extension VideoPreview: StreamFeeding {
    /// With ``sink`` `.frames`: each frame as the preview shows it (the size of ``bounds``,
    /// turned, mirrored and fitted by gravity; BGRA pixels, or JPEG images with `.frames(.jpeg)`),
    /// for an app that draws the picture itself. The newest frame waits for a slow consumer;
    /// older ones are dropped. Frames carry `landscapeRight`, unmirrored attachments: the
    /// turning is done.
    ///
    /// Threading: elements are yielded from GStreamer's streaming thread, which never waits
    /// for the consumer.
    public var frames: AsyncStream<SampleBuffer> { makeStream(bufferingNewest: 1) }

    func withSubscribers<R>(_ body: (inout StreamSubscribers<SampleBuffer>) -> R) -> R {
        state.withLock { body(&$0.subscribers) }
    }

    /// Wraps an appsink frame and yields it to every stream; runs on the streaming thread.
    func deliver(_ sample: Sample, from connection: CaptureConnection) {
        let (layout, streams, jpeg) = state.withLock { state in
            (state.sink == .frames(.jpeg) ? nil : state.layouts.layout(of: sample), state.subscribers.all, state.sink == .frames(.jpeg))
        }
        guard !streams.isEmpty else { return }
        let attachments = SampleAttachments(videoOrientation: .landscapeRight, isVideoMirrored: false, deviceUniqueID: connection.device?.uniqueID ?? "")
        guard let buffer = SampleBuffer.video(sample, codec: jpeg ? .jpeg : nil, layout: layout, attachments: attachments) else { return }
        for stream in streams { stream.yield(buffer) }
    }
}
