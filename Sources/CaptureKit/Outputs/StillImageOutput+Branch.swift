import Foundation
import GStreamerSwift

extension StillImageOutput {
    func branch(prefix: String, source: SourceFormat) -> [PipelinePlan.Element] {
        var chain: [PipelinePlan.Element] = [
            // Only requested frames enter, so the queue never holds more than the waiting requests.
            .init("queue", .queue, in: prefix, [
                .init("max-size-buffers", 0), .init("max-size-bytes", 0), .init("max-size-time", 0),
            ]),
            .init("videoconvert", .convert, in: prefix),
        ]
        switch settings {
        case .jpeg(let quality):
            // JPEG (JFIF) stores full-range YCbCr with the BT.601 matrix; without saying so,
            // videoconvert hands jpegenc video range and whites decode as 235.
            chain.append(.init("capsfilter", .format, in: prefix, [.init("caps", .caps(StillImageOutput.jpegInputCaps))]))
            chain.append(.init("jpegenc", .encode, in: prefix, [.init("quality", .int(Int((quality * 100).rounded())), live: true)]))
            chain.append(.init("jifmux", .mux, in: prefix))
        case .uncompressed(let format, let range):
            let colorimetry = format.isYCbCr ? ",colorimetry=\(range.colorimetry)" : ""
            chain.append(.init("capsfilter", .format, in: prefix, [.init("caps", .caps("video/x-raw,format=\(format.gstFormat!)\(colorimetry)"))]))
        }
        chain.append(.init("appsink", .sink, in: prefix, [
            .init("sync", false), .init("async", false), .init("emit-signals", false),
            .init("enable-last-sample", false), .init("wait-on-eos", false),
        ]))
        return chain
    }

    /// Full-range BT.601 I420 with sRGB transfer and BT.709 primaries: what JFIF decoders assume.
    static let jpegInputCaps = "video/x-raw,format=I420,colorimetry=\(ColorRange.full.colorimetry)"

    func attach(_ branch: RunningBranch) throws(CaptureError) {
        let settings = self.settings
        let mux: Element? = if case .jpeg = settings { try branch.element(.mux) } else { nil }
        // Gate on the tee's thread: nothing enters unless a request waits and the frame is not older.
        try branch.pad(.queue, "sink").addBufferProbe { [weak self] buffer in
            guard let self, let pts = buffer.presentationTime else { return .drop }
            return pts >= earliestRequest.load(ordering: .acquiring) ? .pass : .drop
        }
        // On the branch thread: take every request this frame answers, tag the frame for them.
        // The probe keeps the connection slot, not the branch: the branch holds the pipeline, which
        // holds this probe, and that cycle would keep every stopped pipeline alive.
        let slot = branch.slot
        try branch.pad(.queue, "src").addBufferProbe { [weak self] buffer in
            guard let self, let pts = buffer.presentationTime else { return .drop }
            let connection = slot.connection
            let (orientation, mirrored) = connection.orientationState
            let device = connection.device
            // Only frames a request waits for pass the gate above, so this runs once per still.
            var metadata = StillMetadata(device: device, orientation: orientation, mirrored: mirrored, date: Date())
            metadata.faces = owner.value?.outputs.compactMap { ($0 as? MetadataOutput)?.facesInView }.flatMap { $0 } ?? []
            let admitted = takeRequests(upTo: pts, attachments: SampleAttachments(
                videoOrientation: orientation, isVideoMirrored: mirrored, deviceUniqueID: device?.uniqueID ?? "", stillMetadata: metadata))
            guard admitted else { return .drop }
            if let mux, let tags = try? TagList(serialized: StillTags.serialized(metadata)) {
                mux.replaceTags(tags)
            }
            return .pass
        }
        if case .jpeg = settings {
            // On the branch thread, once per still: a photo's preview from the frame the encoder
            // takes, laid out as the caps before the encoder say. (The probe holds that pad, not
            // its own: a pad whose probe holds it is never freed.)
            let frames = try branch.pad(.format, "src")
            try branch.pad(.encode, "sink").addBufferProbe { [weak self] buffer in
                self?.takePreview(of: buffer, framesFrom: frames)
                return .pass
            }
        }
        AppSink.setHandlers(.init(newSample: { [weak self] sample in
            self?.deliver(sample, settings: settings)
        }), on: try branch.element(.sink))
        state.withLock { $0.branch = branch }
    }

    func detach(error: CaptureError) {
        let cancelled = state.withLock { state -> [Request] in
            defer {
                state.pending = []
                state.encoding = []
                state.branch = nil
                state.layouts = LayoutCache()
            }
            return state.pending + state.encoding.flatMap(\.requests)
        }
        earliestRequest.store(.max, ordering: .releasing)
        updateCapturing(false)
        guard !cancelled.isEmpty else { return }
        callbackQueue.async {
            for request in cancelled { request.handler(nil, error) }
        }
    }

    /// Moves every request made at or before `pts` into the encoding queue; false when none.
    private func takeRequests(upTo pts: UInt64, attachments: SampleAttachments) -> Bool {
        state.withLock { state in
            let answered = state.pending.filter { $0.time <= pts }
            guard !answered.isEmpty else { return false }
            state.pending.removeAll { $0.time <= pts }
            state.encoding.append(Batch(requests: answered, attachments: attachments))
            earliestRequest.store(state.pending.map(\.time).min() ?? .max, ordering: .releasing)
            return true
        }
    }

    /// On the branch thread: marks the batch whose frame reached the encoder and, where its
    /// requests asked, makes their preview from the frame (I420, as `pad`'s caps lay it out; read
    /// only for a still that wants a preview).
    private func takePreview(of buffer: borrowing ProbeBuffer, framesFrom pad: Pad) {
        let wanted = state.withLock { state -> (index: Int, size: (width: Int, height: Int), attachments: SampleAttachments)? in
            guard let index = state.encoding.firstIndex(where: { !$0.reachedEncoder }) else { return nil }
            state.encoding[index].reachedEncoder = true
            return state.encoding[index].previewSize.map { (index, $0, state.encoding[index].attachments) }
        }
        guard let wanted, let layout = pad.currentCaps.flatMap(VideoLayout.init(caps:)), layout.format == "I420",
              buffer.size >= layout.byteCount else { return }
        let time = CaptureTime(nanoseconds: buffer.presentationTime ?? 0)
        let preview = try? buffer.withBytes { bytes in
            PreviewPhoto.bgra(fromI420: bytes, layout: layout, width: wanted.size.width, height: wanted.size.height,
                              presentationTime: time, attachments: wanted.attachments)
        }
        // Batches leave only from the front, after their frame was encoded: this one is still at `index`.
        state.withLock { state in
            if state.encoding.indices.contains(wanted.index) { state.encoding[wanted.index].preview = preview }
        }
    }

    /// On the appsink's thread: pairs the encoded still with its batch and hands it to the queue.
    private func deliver(_ sample: Sample, settings: StillImageSettings) {
        let (batch, layout, idle) = state.withLock { state in
            let batch = state.encoding.isEmpty ? nil : state.encoding.removeFirst()
            let layout = state.layouts.layout(of: sample)
            return (batch, layout, state.pending.isEmpty && state.encoding.isEmpty)
        }
        guard let batch else { return }
        callbackQueue.async { [weak self] in
            let result = Result { () throws(CaptureError) -> SampleBuffer in
                try StillImageOutput.makeSampleBuffer(sample, layout: layout, settings: settings, attachments: batch.attachments,
                                                      preview: batch.preview)
            }
            for request in batch.requests {
                switch result {
                case .success(let buffer): request.handler(buffer, nil)
                case .failure(let error): request.handler(nil, error)
                }
            }
            if idle { self?.updateCapturing(false) }
        }
    }

    private static func makeSampleBuffer(_ sample: Sample, layout: VideoLayout?, settings: StillImageSettings,
                                         attachments: SampleAttachments, preview: SampleBuffer?) throws(CaptureError) -> SampleBuffer {
        switch settings {
        case .uncompressed:
            guard let layout else { throw .wrongSampleFormat(expected: "raw video", found: sample.caps ?? "no caps") }
            return SampleBuffer(sample: sample, layout: layout, attachments: attachments)
        case .jpeg:
            let (width, height) = StillTags.jpegSize(sample.caps)
            let jpeg: Data
            do {
                jpeg = try sample.withBytes { bytes in try JPEGExif.normalize(bytes, width: width, height: height) }
            } catch {
                throw .pipelineFailed(element: "jifmux", message: "\(error)", underlyingError: error)
            }
            let format = FormatDescription(codec: .jpeg, pixelFormat: nil, width: width, height: height, bytesPerRow: [])
            return SampleBuffer(presentationTime: CaptureTime(nanoseconds: sample.presentationTime ?? 0),
                                duration: CaptureTime(nanoseconds: sample.duration ?? 0),
                                formatDescription: format, attachments: attachments, storage: .data(jpeg), previewPhoto: preview)
        }
    }
}
