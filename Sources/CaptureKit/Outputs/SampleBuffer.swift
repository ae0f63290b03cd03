import Foundation
import GStreamerSwift
import Synchronization

/// Codecs of compressed images and video (AVVideoCodecType).
public enum VideoCodecType: String, Sendable, Hashable, CaseIterable {
    case jpeg, h264
}

/// The format of a sample: size and pixel layout, or codec, of video; rate, channels and
/// sample format of audio.
public struct FormatDescription: Sendable, Hashable {
    /// The codec for compressed samples; nil for raw frames.
    public var codec: VideoCodecType?
    /// The pixel format of raw frames; nil for compressed samples.
    public var pixelFormat: PixelFormat?
    public var width: Int
    public var height: Int
    /// Bytes per row of each plane (raw frames).
    public var bytesPerRow: [Int]
    /// The range of a YCbCr frame's values (video or full); nil for RGB, gray and compressed
    /// samples, and where the source did not say.
    public var colorRange: ColorRange? = nil
    /// The format of PCM audio samples; nil for video and images (whose size fields are 0 and
    /// `bytesPerRow` empty for audio).
    public var audioFormat: AudioFormat? = nil

    /// Audio for audio samples, else video.
    public var mediaType: MediaType { audioFormat == nil ? .video : .audio }
}

/// What travels with a sample: orientation and mirroring (metadata, never applied to pixels)
/// and the device it came from.
public struct SampleAttachments: Sendable, Hashable {
    public var videoOrientation: VideoOrientation
    public var isVideoMirrored: Bool
    public var deviceUniqueID: String
    /// A still's exposure, white balance, flash, zoom and date (what its EXIF says); nil for
    /// video frames.
    public var stillMetadata: StillMetadata? = nil

    /// The EXIF Orientation (1–8) viewers apply.
    public var exifOrientation: Int { videoOrientation.exifOrientation(mirrored: isVideoMirrored) }
}

/// One frame or still, or a run of audio frames (CMSampleBuffer): time, format, attachments and
/// zero-copy data access.
///
/// Raw frames and audio keep GStreamer's buffer alive while the sample lives; plane and PCM
/// access map it without copying for the duration of a closure.
public final class SampleBuffer: Sendable {
    /// When the frame (or the first audio frame) was captured, on the session's clock (running time).
    public let presentationTime: CaptureTime
    public let duration: CaptureTime
    /// How many samples the buffer holds (CMSampleBufferGetNumSamples): 1 for a video frame or
    /// still, the number of audio frames (one sample of every channel) for audio.
    public let numSamples: Int
    public let formatDescription: FormatDescription
    public let attachments: SampleAttachments
    /// When the sample is decoded (compressed video; the presentation time otherwise).
    public let decodeTime: CaptureTime
    /// Whether a decoder can start at this sample: every raw frame, still and audio buffer, and
    /// an H.264 access unit that is an IDR (with its SPS and PPS before it).
    public let isKeyFrame: Bool
    let storage: Storage
    /// CoreVideo's lock of the planes (`CVPixelBufferLockBaseAddress`), inline: no allocation
    /// per frame.
    let pixelLock = Mutex(PixelBufferLock())

    /// The preview image delivered beside a photo (iOS 10's photo delegate), when its settings
    /// asked for one.
    let previewPhoto: SampleBuffer?

    enum Storage: Sendable {
        case sample(Sample)
        case data(Data)
        /// One plane of raw pixels CaptureKit made (a photo's preview).
        case pixels(PixelMemory)
    }

    init(presentationTime: CaptureTime, duration: CaptureTime, formatDescription: FormatDescription,
         attachments: SampleAttachments, storage: Storage, numSamples: Int = 1, decodeTime: CaptureTime? = nil, isKeyFrame: Bool = true,
         previewPhoto: SampleBuffer? = nil) {
        self.presentationTime = presentationTime
        self.decodeTime = decodeTime ?? presentationTime
        self.isKeyFrame = isKeyFrame
        self.duration = duration
        self.numSamples = numSamples
        self.formatDescription = formatDescription
        self.attachments = attachments
        self.storage = storage
        self.previewPhoto = previewPhoto
    }

    deinit {
        pixelLock.withLock { $0.unmap() }
    }

    /// One plane of a raw frame, valid only inside `withPlanes`.
    public struct Plane {
        public let bytes: UnsafeRawBufferPointer
        public let bytesPerRow: Int
        public let height: Int
    }

    /// Maps the frame's planes for reading, without copying. Throws for compressed samples.
    public func withPlanes<R>(_ body: ([Plane]) throws -> R) throws -> R {
        if case .pixels(let memory) = storage {
            return try body([Plane(bytes: UnsafeRawBufferPointer(memory.bytes), bytesPerRow: formatDescription.bytesPerRow[0],
                                   height: formatDescription.height)])
        }
        guard case .sample(let sample) = storage, formatDescription.pixelFormat != nil else {
            throw CaptureError.wrongSampleFormat(expected: "raw video", found: formatDescription.audioFormat.map { "audio \($0)" }
                                                 ?? formatDescription.codec?.rawValue ?? "none")
        }
        return try sample.withPlanes { planes in
            try body(planes.map { Plane(bytes: $0.bytes, bytesPerRow: $0.bytesPerRow, height: $0.height) })
        }
    }

    /// The whole data (compressed bytes, or a raw frame's planes back to back), without copying.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        switch storage {
        case .sample(let sample): return try sample.withBytes(body)
        case .data(let data): return try data.withUnsafeBytes(body)
        case .pixels(let memory): return try body(UnsafeRawBufferPointer(memory.bytes))
        }
    }

    /// The data's size in bytes.
    public var dataLength: Int {
        switch storage {
        case .sample(let sample): sample.byteCount
        case .data(let data): data.count
        case .pixels(let memory): memory.bytes.count
        }
    }
}

extension SampleBuffer {
    /// A sample over a GStreamer raw-video sample; `layout` is the caps' layout (cached by the caller).
    convenience init(sample: Sample, layout: VideoLayout, attachments: SampleAttachments) {
        let pixelFormat = PixelFormat(gstFormat: layout.format)
        let format = FormatDescription(codec: nil, pixelFormat: pixelFormat, width: layout.width, height: layout.height,
                                       bytesPerRow: layout.bytesPerRow,
                                       colorRange: pixelFormat?.isYCbCr == true ? layout.isFullRange.map { $0 ? .full : .video } : nil)
        self.init(presentationTime: CaptureTime(nanoseconds: sample.presentationTime ?? 0),
                  duration: CaptureTime(nanoseconds: sample.duration ?? 0),
                  formatDescription: format, attachments: attachments, storage: .sample(sample))
    }
}

extension SampleBuffer {
    /// A sample over one compressed frame: an H.264 access unit (Annex B, parameter sets with
    /// every key frame) or a JPEG image.
    convenience init(compressed sample: Sample, codec: VideoCodecType, width: Int, height: Int, attachments: SampleAttachments) {
        let format = FormatDescription(codec: codec, pixelFormat: nil, width: width, height: height, bytesPerRow: [])
        let pts = CaptureTime(nanoseconds: sample.presentationTime ?? 0)
        self.init(presentationTime: pts, duration: CaptureTime(nanoseconds: sample.duration ?? 0), formatDescription: format,
                  attachments: attachments, storage: .sample(sample),
                  decodeTime: sample.decodeTime.map { CaptureTime(nanoseconds: $0) } ?? pts, isKeyFrame: !sample.isDeltaUnit)
    }
}

extension SampleBuffer {
    /// A video frame from an appsink: compressed with `codec` (its size read from the caps),
    /// else raw with `layout`; nil when neither can be read.
    static func video(_ sample: Sample, codec: VideoCodecType?, layout: VideoLayout?, attachments: SampleAttachments) -> SampleBuffer? {
        if let codec {
            guard let size = sample.videoSize else { return nil }
            return SampleBuffer(compressed: sample, codec: codec, width: size.width, height: size.height, attachments: attachments)
        }
        return layout.map { SampleBuffer(sample: sample, layout: $0, attachments: attachments) }
    }
}

/// Caches the layout of the last caps seen, so a stream parses its caps once, not per frame.
struct LayoutCache {
    private var caps: Caps?
    private var layout: VideoLayout?

    mutating func layout(of sample: Sample) -> VideoLayout? {
        if !sample.hasCaps(caps) || layout == nil {
            caps = sample.capsObject
            layout = sample.videoLayout
        }
        return layout
    }
}
