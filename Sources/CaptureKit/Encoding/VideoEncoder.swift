import Foundation
import GStreamerSwift

/// The H.264 encoder a branch uses, chosen once per ``CaptureContext`` from what this machine has: VA-API
/// (`vah264enc`, then `vaapih264enc`) when a render node exists, `v4l2h264enc` (a Raspberry
/// Pi's), else `x264enc` tuned for live capture, else `openh264enc`.
///
/// Each takes the bit rate and key-frame interval in its own units and property names;
/// `elements(prefix:settings:source:)` renders them. Shared by every output that encodes.
struct VideoEncoder: Sendable, Hashable {
    enum Kind: String, Sendable, CaseIterable {
        case vah264enc, vaapih264enc, v4l2h264enc, x264enc, openh264enc
    }

    let kind: Kind

    /// The factory name, as `capture record --verbose` reports it.
    var name: String { kind.rawValue }

    /// The first of `Kind.allCases` that `hasElement` knows, VA-API only with a render node.
    static func choose(hasElement: (String) -> Bool, hasRenderNode: Bool) -> VideoEncoder? {
        Kind.allCases.first { kind in
            (hasRenderNode || (kind != .vah264enc && kind != .vaapih264enc)) && hasElement(kind.rawValue)
        }.map(VideoEncoder.init)
    }

    /// Whether a DRM render node (a GPU VA-API can use) exists.
    static var hasRenderNode: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains { $0.hasPrefix("renderD") }
    }

    /// The property and value that set `bitrate` (bits per second) on a running encoder; nil
    /// for an encoder that cannot change it while running.
    func liveBitrate(_ bitrate: Int) -> (String, PropertyValue)? {
        switch kind {
        case .x264enc, .vah264enc, .vaapih264enc: ("bitrate", .int(max(1, bitrate / 1000)))
        case .openh264enc: ("bitrate", .int(bitrate))
        case .v4l2h264enc: nil
        }
    }

    /// The encoder element `prefix_enc` for `settings` on a source of `source`'s size and rate,
    /// followed by `h264parse` `prefix_parse` (parameter sets with every key frame).
    func elements(prefix: String, settings: VideoCodecSettings, source: SourceFormat) -> [PipelinePlan.Element] {
        let bitrate = settings.bitrate ?? VideoCodecSettings.defaultBitrate(width: source.width, height: source.height, frameRate: source.frameRate)
        let interval = settings.keyFrameInterval ?? VideoCodecSettings.defaultKeyFrameInterval(frameRate: source.frameRate)
        let kbps = PropertyValue.int(max(1, bitrate / 1000))
        let properties: [PipelinePlan.Property] = switch kind {
        case .x264enc:
            // ultrafast leaves out CABAC and 8x8 transforms, which makes every stream constrained
            // baseline whatever profile is asked; main and high need superfast's.
            [.init("speed-preset", .nick(settings.profile == .main || settings.profile == .high ? "superfast" : "ultrafast")),
             .init("tune", .nick("zerolatency")), .init("bitrate", kbps, live: true),
             .init("key-int-max", .int(interval))]
        case .openh264enc:
            [.init("bitrate", .int(bitrate), live: true), .init("gop-size", .int(interval))]
        case .vah264enc:
            [.init("bitrate", kbps, live: true), .init("key-int-max", .int(interval))]
        case .vaapih264enc:
            [.init("bitrate", kbps, live: true), .init("keyframe-period", .int(interval))]
        case .v4l2h264enc:
            [.init("extra-controls", .serialized("controls,video_bitrate=\(bitrate),h264_i_frame_period=\(interval)"))]
        }
        return [
            .init(kind.rawValue, .enc, in: prefix, properties),
            .init("h264parse", .parse, in: prefix, [.init("config-interval", -1)]),
        ]
    }
}
