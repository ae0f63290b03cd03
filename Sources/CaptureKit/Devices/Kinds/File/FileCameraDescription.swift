import Foundation
import GStreamerSwift

/// What a video file, a still image or a numbered image sequence holds, read so that it can play
/// as a camera: the picture size and frame rate its decoder gives.
struct FileCameraDescription: Equatable, Sendable {
    /// The file, as an absolute path.
    var path: String
    /// A still image (shown again at every frame) or a video (played in a loop).
    var isImage: Bool
    /// For a numbered image sequence (`shot-%04d.png`): the index of its first image. Its
    /// images play in turn at `frameRate`, in a loop.
    var firstIndex: Int?
    /// The container or image format, as its first bytes say (`PNG`, `MP4`…).
    var container: String
    var width: Int
    var height: Int
    /// The video's own frame rate; 30 for images and videos of variable rate.
    var frameRate: Double

    /// The uniqueID of the camera that plays `path`.
    static func uniqueID(for path: String) -> String { "file:" + path }

    /// Reads the file at `path` (absolute): its header, then its first decoded frame.
    /// - Throws: `fileUnreadable` for a missing, unreadable or non-regular file,
    ///   `fileUndecodable` for a file no decoder reads (the reason GStreamer gives), or a picture
    ///   larger than `MetadataFileScanner.defaultMaxPixels`.
    static func probe(path: String, timeout: UInt64 = 5_000_000_000) throws(CaptureError) -> FileCameraDescription {
        if let sequence = try ImageSequencePattern(path) {
            guard let first = sequence.firstIndex() else {
                throw .fileUnreadable(path, reason: "no image numbered 0 or 1 (\(sequence.path(for: 0)), \(sequence.path(for: 1)))")
            }
            var image = try probe(path: sequence.path(for: first), timeout: timeout)
            guard image.isImage else { throw .fileUndecodable(path, reason: "\(image.path) is a video; a sequence is of images") }
            image.path = path
            image.firstIndex = first
            return image
        }
        try checkReadable(path)
        let header: MediaFileHeader
        do {
            header = try MediaFileHeader.read(URL(fileURLWithPath: path))
        } catch {
            throw .fileUnreadable(path, reason: error.localizedDescription)
        }
        if case .other(let what) = header.kind {
            throw .fileUndecodable(path, reason: (what.isEmpty ? "not an image or a video" : what) + "; CaptureKit plays " + MediaFileHeader.readable)
        }
        if let size = header.size { try checkSize(path, size.width, size.height) }
        let decoded = try decodedCaps(path, timeout: timeout)
        guard case .int(let width)? = decoded.fields["width"], case .int(let height)? = decoded.fields["height"] else {
            throw .fileUndecodable(path, reason: "its decoder gave no picture size (\(decoded.name))")
        }
        try checkSize(path, width, height)
        var rate = 30.0
        if header.kind == .video, case .fraction(let n, let d)? = decoded.fields["framerate"], n > 0, d > 0 { rate = Double(n) / Double(d) }
        return FileCameraDescription(path: path, isImage: header.kind == .image, firstIndex: nil, container: header.format, width: width, height: height,
                                     frameRate: rate)
    }

    /// The caps of one image of a sequence, for `multifilesrc`.
    var imageCaps: String {
        let type = switch container {
        case "PNG": "image/png"
        case "JPEG": "image/jpeg"
        case "GIF": "image/gif"
        case "BMP": "image/bmp"
        default: "image/x-portable-anymap"
        }
        return "\(type),framerate=\(Int(frameRate))/1"
    }

    private static func checkReadable(_ path: String) throws(CaptureError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .fileUnreadable(path, reason: String(cString: strerror(errno)).lowercased()) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .fileUnreadable(path, reason: "not a regular file") }
        guard access(path, R_OK) == 0 else { throw .fileUnreadable(path, reason: String(cString: strerror(errno)).lowercased()) }
    }

    private static func checkSize(_ path: String, _ width: Int, _ height: Int) throws(CaptureError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, width > 0, height > 0, pixels <= MetadataFileScanner.defaultMaxPixels else {
            throw .fileUndecodable(path, reason: "its picture is \(width)x\(height), more than \(MetadataFileScanner.defaultMaxPixels) pixels")
        }
    }

    /// The caps of the file's first decoded video frame: `filesrc ! decodebin ! fakesink`,
    /// prerolled (PAUSED) within `timeout`.
    private static func decodedCaps(_ path: String, timeout: UInt64) throws(CaptureError) -> CapsStructure {
        let pipeline = Pipeline(name: "capturekit-file-probe")
        defer { try? pipeline.setState(.null) }
        let sink: Element
        do throws(GStreamerError) {
            let source = try Element(factory: "filesrc", name: "file")
            try source.set("location", .string(path))
            let decode = try Element(factory: "decodebin", name: "decode")
            sink = try Element(factory: "fakesink", name: "sink")
            for element in [source, decode, sink] { pipeline.add(element) }
            try source.link(to: decode)
            decode.onPadAdded { pad in
                if pad.isRawVideo { try? pad.link(to: sink) }
            }
            try pipeline.setState(.paused, timeout: timeout)
        } catch {
            throw .fileUndecodable(path, reason: pipeline.bus.pendingErrorText() ?? error.description)
        }
        guard pipeline.currentState == .paused, let caps = try? sink.staticPad("sink").currentCaps,
              let structure = try? CapsStructure.parse(caps: caps).first else {
            throw .fileUndecodable(path, reason: pipeline.bus.pendingErrorText() ?? "no video frame decoded within \(timeout / 1_000_000_000) s")
        }
        return structure
    }
}
