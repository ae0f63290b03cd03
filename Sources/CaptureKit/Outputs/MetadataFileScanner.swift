import Detectors
import Foundation
import GStreamerSwift
import Synchronization

/// Finds machine-readable codes in image files (PNG, JPEG, GIF) and video files, with the
/// detectors of `MetadataOutput` behind the same GRAY8 conversion: `filesrc ! decodebin
/// (gdkpixbufdec for GIF) ! videoconvert ! GRAY8 ! appsink`, as fast as the file decodes.
/// Still images get the thorough passes (codes: every binarizer, inversion, turns, scaling;
/// faces: profiles and tilted heads too) unless `effort` is `.fast`; video frames the live pass.
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

    public init(types: [MetadataObjectType] = MetadataObjectType.machineReadableCodes,
                rectOfInterest: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1), effort: Effort = .thorough) {
        self.types = types
        self.rectOfInterest = rectOfInterest
        self.effort = effort
    }

    /// File extensions read as still images.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "bmp", "pnm", "pgm", "ppm"]

    /// The objects of each frame of `url` that has any, in order; ends at the end of the file,
    /// or throws `pipelineFailed` naming the element for a file that cannot be read or decoded,
    /// `invalidSetting` for a rect of interest outside {0, 0, 1, 1}.
    public func scan(_ url: URL) -> AsyncThrowingStream<[any MetadataObject], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[any MetadataObject], any Error>.makeStream(bufferingPolicy: .unbounded)
        do throws(CaptureError) {
            try MetadataOutput.validateRectOfInterest(rectOfInterest)
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
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw .invalidSetting(name: "file", value: url.path, valid: "a readable image or video file")
        }
        let isImage = MetadataFileScanner.imageExtensions.contains(url.pathExtension.lowercased())
        let isGIF = url.pathExtension.lowercased() == "gif"
        do throws(GStreamerError) {
            let source = try Element(factory: "filesrc", name: "file")
            try source.set("location", url.path)
            let decode = try Element(factory: isGIF ? "gdkpixbufdec" : "decodebin", name: "decode")
            let convert = try Element(factory: "videoconvert", name: "convert")
            let format = try Element(factory: "capsfilter", name: "format")
            try format.set("caps", "video/x-raw,format=GRAY8")
            let sink = try Element(factory: "appsink", name: "sink")
            for (name, value) in [("sync", "false"), ("emit-signals", "false"), ("max-buffers", "1"), ("drop", "false")] {
                try sink.set(name, value)
            }
            for element in [source, decode, convert, format, sink] { pipeline.add(element) }
            try source.link(to: decode)
            if isGIF {
                try decode.link(to: convert)
            } else {
                decode.onPadAdded { pad in if pad.isRawVideo { try? pad.link(to: convert) } }
            }
            try convert.link(to: format)
            try format.link(to: sink)
            let thorough = isImage && scanner.effort == .thorough
            let detector = FrameDetector(passes: thorough ? BarcodeReader.thorough : BarcodeReader.live,
                                         facePasses: thorough ? .thorough : .live,
                                         settings: { (scanner.types, scanner.rectOfInterest) },
                                         deliver: { continuation.yield($0) })
            AppSink.setHandlers(.init(newSample: { detector.detect($0) }), on: sink)
        } catch {
            throw .pipelineFailed(error)
        }
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
