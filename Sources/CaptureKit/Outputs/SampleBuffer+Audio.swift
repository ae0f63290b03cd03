import GStreamerSwift

extension SampleBuffer {
    /// An audio sample over a GStreamer raw-audio sample of `format` (parsed from its caps by
    /// the caller, once per caps). `numSamples` counts whole frames; the duration is the
    /// buffer's, or `numSamples / sampleRate` where the buffer has none.
    convenience init(audioSample sample: Sample, format: AudioFormat, attachments: SampleAttachments) {
        let frames = sample.byteCount / format.bytesPerFrame
        let duration = sample.duration ?? UInt64(frames) * 1_000_000_000 / UInt64(format.sampleRate)
        self.init(presentationTime: CaptureTime(nanoseconds: sample.presentationTime ?? 0),
                  duration: CaptureTime(nanoseconds: duration),
                  formatDescription: FormatDescription(codec: nil, pixelFormat: nil, width: 0, height: 0, bytesPerRow: [], audioFormat: format),
                  attachments: attachments, storage: .sample(sample), numSamples: frames)
    }

    /// Maps an audio sample's PCM data for reading, without copying: `numSamples` interleaved
    /// frames in `formatDescription.audioFormat`. Throws `wrongSampleFormat` for video samples.
    public func withAudioBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let format = formatDescription.audioFormat, case .sample(let sample) = storage else {
            throw CaptureError.wrongSampleFormat(expected: "audio", found: formatDescription.codec?.rawValue ?? "video")
        }
        return try sample.withBytes { bytes in
            try body(UnsafeRawBufferPointer(rebasing: bytes.prefix(numSamples * format.bytesPerFrame)))
        }
    }

    /// An S16LE audio sample's values, interleaved, without copying. Throws `wrongSampleFormat`
    /// for video samples and other sample formats.
    public func withAudioSamples<R>(as type: Int16.Type, _ body: (UnsafeBufferPointer<Int16>) throws -> R) throws -> R {
        try withTypedAudio(.s16le, body)
    }

    /// An F32LE audio sample's values, interleaved, without copying. Throws `wrongSampleFormat`
    /// for video samples and other sample formats.
    public func withAudioSamples<R>(as type: Float.Type, _ body: (UnsafeBufferPointer<Float>) throws -> R) throws -> R {
        try withTypedAudio(.f32le, body)
    }

    private func withTypedAudio<T, R>(_ expected: AudioSampleFormat, _ body: (UnsafeBufferPointer<T>) throws -> R) throws -> R {
        guard let format = formatDescription.audioFormat, format.sampleFormat == expected else {
            throw CaptureError.wrongSampleFormat(expected: "\(expected) audio",
                                                 found: formatDescription.audioFormat.map { "\($0.sampleFormat) audio" } ?? "video")
        }
        return try withAudioBytes { bytes in
            // GStreamer allocates buffer memory aligned for any sample type.
            guard let base = bytes.baseAddress, Int(bitPattern: base) % MemoryLayout<T>.alignment == 0 else {
                if bytes.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
                throw CaptureError.wrongSampleFormat(expected: "\(expected) audio aligned to \(MemoryLayout<T>.alignment) bytes", found: "unaligned data")
            }
            let count = bytes.count / MemoryLayout<T>.stride
            return try base.withMemoryRebound(to: T.self, capacity: count) { try body(UnsafeBufferPointer(start: $0, count: count)) }
        }
    }
}

/// Caches the audio format of the last caps seen, so a stream parses its caps once, not per buffer.
struct AudioFormatCache {
    private var caps: Caps?
    private var format: AudioFormat?

    mutating func format(of sample: Sample) -> AudioFormat? {
        if !sample.hasCaps(caps) || format == nil {
            caps = sample.capsObject
            format = sample.capsStructure.flatMap { AudioFormat(capsName: $0.name, fields: $0.fields) }
        }
        return format
    }
}
