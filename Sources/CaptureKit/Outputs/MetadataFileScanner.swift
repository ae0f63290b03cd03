import Foundation
import GStreamerSwift
import Synchronization

/// Finds machine-readable codes in image files (PNG, JPEG, GIF) and video files, with the
/// detectors of `MetadataOutput` behind the same GRAY8 conversion: `filesrc ! decodebin
/// (gdkpixbufdec for GIF) ! videoconvert ! GRAY8 ! appsink`, as fast as the file decodes.
/// Still images get the thorough passes (codes: every binarizer, inversion, turns, scaling;
/// faces: profiles and tilted heads too) unless `effort` is `.fast`; video frames the live pass.
///
/// A file is read only when it is a regular file whose first bytes name a format it reads
/// (PNG, JPEG, GIF, BMP, PNM images; MP4, MOV, Matroska, WebM, AVI, MPEG, Ogg, FLV, ASF videos),
/// and an image only when the size its header claims is at most ``maxPixels``: a few bytes can
/// claim a picture of gigabytes, and decoding would allocate them.
public struct MetadataFileScanner: Sendable {
    /// How hard still images are searched.
    public enum Effort: String, Sendable, CaseIterable {
        /// One pass, as live frames get: zxing's default hints (local binarizer, try-harder,
        /// rotation, the downscaled layer).
        case fast
        /// Every pass until one finds a code.
        case thorough
    }

    public var types: [MetadataObjectType]
    public var rectOfInterest: CGRect
    public var effort: Effort
    /// The largest picture decoded, in pixels (width × height): an image whose header claims
    /// more is refused before it is decoded, a video whose frames are larger once its decoder
    /// says so. ``defaultMaxPixels`` (100 megapixels) unless set.
    public var maxPixels: Int

    /// 100 megapixels: 10000 × 10000, about 400 MB of decoded RGBA.
    public static let defaultMaxPixels = 100_000_000

    public init(types: [MetadataObjectType] = MetadataObjectType.machineReadableCodes,
                rectOfInterest: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1), effort: Effort = .thorough,
                maxPixels: Int = MetadataFileScanner.defaultMaxPixels) {
        self.types = types
        self.rectOfInterest = rectOfInterest
        self.effort = effort
        self.maxPixels = maxPixels
    }

    /// The objects of each frame of `url` that has any, in order; ends at the end of the file,
    /// or throws `pipelineFailed` naming the element for a file that cannot be decoded,
    /// `invalidSetting` for a rect of interest outside {0, 0, 1, 1} or a path that is missing,
    /// unreadable or not a regular file (a FIFO, a directory), `unsupportedFormat` for a file
    /// that is not an image or video format it reads, `outOfRange` for a picture larger than
    /// ``maxPixels``. Each message names the file. Throws `invalidSetting` for a type this
    /// process cannot detect (any, without the `CaptureKitDetectors` product).
    public func scan(_ url: URL) -> AsyncThrowingStream<[any MetadataObject], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[any MetadataObject], any Error>.makeStream(bufferingPolicy: .unbounded)
        do throws(CaptureError) {
            try MetadataOutput.validateRectOfInterest(rectOfInterest)
            try MetadataDetection.validate(types)
            let run = try FileScan(url: url, scanner: self, continuation: continuation)
            continuation.onTermination = { _ in run.stop() }
            try run.start()
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }
}

/// One file being scanned: its pipeline and bus.
final class FileScan: Sendable {
    private let pipeline = Pipeline(name: "capturekit-scan")
    private let watch = Mutex<BusWatch?>(nil)
    private let continuation: AsyncThrowingStream<[any MetadataObject], any Error>.Continuation

    init(url: URL, scanner: MetadataFileScanner, continuation: AsyncThrowingStream<[any MetadataObject], any Error>.Continuation) throws(CaptureError) {
        self.continuation = continuation
        let header = try Self.header(of: url, maxPixels: scanner.maxPixels)
        let isImage = header.kind == .image
        let isGIF = header.format == "GIF"
        do throws(GStreamerError) {
            let source = try Element(factory: "filesrc", name: "file")
            try source.set("location", .string(url.path))
            let decode = try Element(factory: isGIF ? "gdkpixbufdec" : "decodebin", name: "decode")
            let convert = try Element(factory: "videoconvert", name: "convert")
            let format = try Element(factory: "capsfilter", name: "format")
            try format.set("caps", .caps("video/x-raw,format=GRAY8"))
            let sink = try Element(factory: "appsink", name: "sink")
            for (name, value): (String, PropertyValue) in [("sync", false), ("emit-signals", false), ("max-buffers", 1), ("drop", false)] {
                try sink.set(name, value)
            }
            for element in [source, decode, convert, format, sink] { pipeline.add(element) }
            try source.link(to: decode)
            if isGIF {
                try decode.link(to: convert)
            } else {
                decode.onPadAdded { [weak self] pad in
                    guard pad.isRawVideo else { return }
                    // A video's frame size is known once its decoder's caps are.
                    if let size = Self.frameSize(pad.currentCaps) {
                        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
                        if overflow || pixels > scanner.maxPixels {
                            self?.fail(Self.tooLarge(url, format: "video", size: size, maxPixels: scanner.maxPixels))
                            return
                        }
                    }
                    try? pad.link(to: convert)
                }
            }
            try convert.link(to: format)
            try format.link(to: sink)
            let thorough = isImage && scanner.effort == .thorough
            let detector = FrameDetector(effort: thorough ? .thorough : .fast,
                                         settings: { (scanner.types, scanner.rectOfInterest) },
                                         deliver: { continuation.yield($0) })
            AppSink.setHandlers(.init(newSample: { detector.detect($0) }), on: sink)
        } catch {
            throw .pipelineFailed(error)
        }
    }

    /// The header of the file at `url`, if it is a regular file in a format scan reads, with a
    /// picture of at most `maxPixels`; the error names the file otherwise.
    static func header(of url: URL, maxPixels: Int) throws(CaptureError) -> MediaFileHeader {
        var status = stat()
        guard stat(url.path, &status) == 0, FileManager.default.isReadableFile(atPath: url.path) else {
            throw .invalidSetting(name: "file", value: url.path, valid: "a readable image or video file")
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            let kind = switch type {
            case S_IFDIR: "a directory"
            case S_IFIFO: "a FIFO"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
            throw CaptureError(code: .invalidSetting, message: "'\(url.path)' is \(kind), not a regular file; scan reads image and video files",
                               value: url.path)
        }
        let header: MediaFileHeader
        do {
            header = try MediaFileHeader.read(url)
        } catch {
            throw .invalidSetting(name: "file", value: url.path, valid: "a readable image or video file")
        }
        switch header.kind {
        case .other(let description):
            throw CaptureError(code: .unsupportedFormat, message: "'\(url.path)' is not an image or video format scan reads (it is"
                + " \(description)); scan reads \(MediaFileHeader.readable)", value: url.path)
        case .image:
            guard let size = header.size else {
                throw CaptureError(code: .unsupportedFormat, message: "'\(url.path)' is a \(header.format) image whose header, cut"
                    + " short, gives no size", value: url.path)
            }
            let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            if overflow || pixels > maxPixels {
                throw tooLarge(url, format: header.format, size: size, maxPixels: maxPixels)
            }
        case .video:
            break
        }
        return header
    }

    /// The error for a picture of `size` over `maxPixels`.
    static func tooLarge(_ url: URL, format: String, size: (width: Int, height: Int), maxPixels: Int) -> CaptureError {
        let style = FloatingPointFormatStyle<Double>.number.precision(.significantDigits(1...3)).grouping(.never)
            .locale(Locale(identifier: "en_US_POSIX"))
        let megapixels = (Double(size.width) * Double(size.height) / 1e6).formatted(style)
        let limit = (Double(maxPixels) / 1e6).formatted(style)
        return CaptureError(code: .outOfRange, message: "'\(url.path)' is a \(size.width)x\(size.height) \(format) (\(megapixels)"
            + " megapixels), over the limit of \(limit) megapixels (\(maxPixels) pixels); it was not decoded. Raise the limit"
            + " (maxPixels, capture scan --max-pixels) to read it", value: url.path)
    }

    /// The width and height in raw video caps text.
    static func frameSize(_ caps: String?) -> (width: Int, height: Int)? {
        guard let caps, let width = caps.firstMatch(of: #/width=\(int\)(\d+)/#), let height = caps.firstMatch(of: #/height=\(int\)(\d+)/#),
              let w = Int(width.1), let h = Int(height.1) else { return nil }
        return (w, h)
    }

    /// Ends the scan with `error`.
    private func fail(_ error: CaptureError) {
        continuation.finish(throwing: error)
        stop()
    }

    func start() throws(CaptureError) {
        watch.withLock { $0 = BusWatch(pipeline: pipeline) { [weak self] message in self?.handle(message) } }
        do {
            try pipeline.setState(.playing)
        } catch {
            stop()
            // The failed state change names only the pipeline; GStreamer's message names the element.
            throw .pipelineFailed(element: nil, message: error.description, underlyingError: error)
        }
    }

    private func handle(_ message: BusMessage) {
        switch message {
        case .endOfStream:
            continuation.finish()
            stop()
        case .error(let source, let text, _, _):
            continuation.finish(throwing: CaptureError.pipelineFailed(element: source, message: text))
            stop()
        default:
            break
        }
    }

    func stop() {
        DispatchQueue.global().async { [self] in
            watch.withLock { $0?.stop(); $0 = nil }
            try? pipeline.setState(.null)
        }
    }
}
