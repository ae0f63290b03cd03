import Foundation
import GStreamerSwift

extension SegmentArchive {
    /// The widths ``thumbnail(at:maxWidth:)`` takes.
    public static let thumbnailWidths = 16...3840

    /// A JPEG of the recording at `time`: the key frame at or before it (what a player seeking
    /// there shows first), scaled to at most `maxWidth` pixels across with its aspect kept. Only
    /// that key frame's fragment is read and decoded.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` for a width outside
    ///   ``thumbnailWidths`` or a time no segment covers; ``CaptureError/Code/fileUnreadable`` or
    ///   ``CaptureError/Code/fileUndecodable`` for a segment that cannot be read or decoded.
    public func thumbnail(at time: Date, maxWidth: Int = 320) throws(CaptureError) -> Data {
        guard Self.thumbnailWidths.contains(maxWidth) else {
            throw .invalidSetting(name: "thumbnail width", value: "\(maxWidth)", valid: "\(Self.thumbnailWidths.lowerBound)…\(Self.thumbnailWidths.upperBound) pixels")
        }
        let export = try export(from: time, to: time.addingTimeInterval(0.001))
        guard let piece = export.pieces.first else {
            throw .invalidSetting(name: "thumbnail time", value: Self.timestamp(time), valid: "a time the folder's segments cover")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("capturekit-thumbnail-\(UUID().uuidString).\(export.fileType)")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try (export.header + export.bytes(of: piece)).write(to: file)
        } catch {
            throw (error as? CaptureError) ?? .fileUnreadable(file.path, reason: error.localizedDescription)
        }
        return try Self.firstFrameJPEG(of: file, maxWidth: maxWidth, describedAs: piece.url.path)
    }

    /// `filesrc ! decodebin ! videoscale ! videoconvert ! jpegenc ! appsink`, prerolled: the
    /// file's first frame as a JPEG.
    private static func firstFrameJPEG(of file: URL, maxWidth: Int, describedAs path: String) throws(CaptureError) -> Data {
        let pipeline = Pipeline(name: "capturekit-thumbnail")
        defer { try? pipeline.setState(.null) }
        let sink: Element
        do throws(GStreamerError) {
            let source = try Element(factory: "filesrc", name: "file")
            try source.set("location", .string(file.path))
            let decode = try Element(factory: "decodebin", name: "decode")
            let convert = try Element(factory: "videoconvert", name: "convert")
            let scale = try Element(factory: "videoscale", name: "scale")
            let size = try Element(factory: "capsfilter", name: "size")
            // Through RGB: videoconvert passes a decoder's limited-range I420 on as it is even when
            // asked for full range, and JPEG reads it full range (greyed blacks and whites).
            try size.set("caps", .caps("video/x-raw,format=RGB,width=[1,\(maxWidth)],pixel-aspect-ratio=1/1"))
            let encode = try Element(factory: "jpegenc", name: "encode")
            sink = try Element(factory: "appsink", name: "sink")
            for element in [source, decode, convert, scale, size, encode, sink] { pipeline.add(element) }
            try source.link(to: decode)
            try scale.link(to: convert)
            try convert.link(to: size)
            try size.link(to: encode)
            try encode.link(to: sink)
            decode.onPadAdded { pad in
                if pad.isRawVideo { try? pad.link(to: scale) }
            }
            try pipeline.setState(.paused, timeout: 5_000_000_000)
        } catch {
            throw .fileUndecodable(path, reason: pipeline.bus.pendingErrorText() ?? error.description)
        }
        guard let sample = AppSink.pullPreroll(from: sink), let jpeg = try? sample.withBytes({ Data($0) }), !jpeg.isEmpty else {
            throw .fileUndecodable(path, reason: pipeline.bus.pendingErrorText() ?? "no frame decoded within 5 s")
        }
        return jpeg
    }
}
