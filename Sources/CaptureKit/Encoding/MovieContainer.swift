import Foundation
import GStreamerSwift

/// The file format a recording's extension names: `.mp4` and `.mov` (H.264 and AAC, fragmented
/// while recording), `.mkv` (H.264 and Opus).
enum MovieContainer: String, Sendable, CaseIterable {
    case mp4, mov, mkv

    /// The extensions CaptureKit records to.
    static var supportedExtensions: [String] { allCases.map(\.rawValue) }

    /// The container for `url`'s extension (any case), or a typed error naming the supported ones.
    init(url: URL) throws(CaptureError) {
        guard let container = MovieContainer(rawValue: url.pathExtension.lowercased()) else {
            throw .unsupportedFileType(url, supported: Self.supportedExtensions)
        }
        self = container
    }

    /// Whether the muxer writes fragments while recording (the ISO formats).
    var fragments: Bool { self != .mkv }

    /// The muxer `prefix_mux`. For mp4/mov with a valid `fragmentInterval`: standard fragments
    /// (`moof`+`mdat`) every interval while recording, which `MovieFinalizer` turns into a file
    /// with a normal index when it is finished; `fragment-duration` takes precedence over
    /// `faststart` and robust muxing, so neither is set. `streamable` writes the fragments only,
    /// never going back to the header and with no index at the end (a segmented recording cuts
    /// the stream into files); for mkv, clusters of unknown size, a new one at every key frame.
    func muxer(prefix: String, fragmentInterval: CaptureTime, streamable: Bool = false) -> PipelinePlan.Element {
        switch self {
        case .mp4, .mov:
            var properties: [PipelinePlan.Property] = []
            if fragmentInterval.isNumeric, fragmentInterval.seconds > 0 {
                properties = [.init("fragment-duration", .int(max(1, Int((fragmentInterval.seconds * 1000).rounded())))),
                              .init("fragment-mode", .nick("dash-or-mss"))]
                if streamable { properties.append(.init("streamable", true)) }
            }
            return .init(self == .mp4 ? "mp4mux" : "qtmux", .mux, in: prefix, properties)
        case .mkv:
            var properties: [PipelinePlan.Property] = [.init("writing-app", .string("CaptureKit")), .init("offset-to-zero", true)]
            // A cluster at every key frame (not only 500 ms after the last), as fragments are.
            if streamable { properties += [.init("streamable", true), .init("min-cluster-duration", .int(0))] }
            return .init("matroskamux", .mux, in: prefix, properties)
        }
    }

    /// The audio encoder and parser for the container: AAC (`avenc_aac`, else `voaacenc`) for
    /// mp4/mov, Opus for mkv; `prefix_aenc` ! `prefix_aparse`.
    func audioEncoder(prefix: String) -> [PipelinePlan.Element] {
        switch self {
        case .mp4, .mov:
            let encoder = GStreamer.hasElement("avenc_aac") ? "avenc_aac" : "voaacenc"
            return [.init(encoder, .aenc, in: prefix, [.init("bitrate", 128000)]), .init("aacparse", .aparse, in: prefix)]
        case .mkv:
            return [.init("opusenc", .aenc, in: prefix, [.init("bitrate", 96000)]), .init("opusparse", .aparse, in: prefix)]
        }
    }

    /// The raw audio the encoder takes: AAC any rate, Opus 48 kHz.
    var audioCaps: String {
        switch self {
        case .mp4, .mov: "audio/x-raw"
        case .mkv: "audio/x-raw,rate=48000"
        }
    }
}
