import CaptureKit
import Foundation
import Yams

/// Decoding of `stream` outputs, and of `videoData` outputs' encoding keys.
extension PipelineFileDecoder {
    /// The keys allowed in a `stream` output.
    static let streamKeys = ["name", "target", "listen", "user", "password", "bitrate", "keyFrameInterval", "audio", "connection"]

    /// Decodes a `stream` output: its target URL (one of `StreamTarget.acceptedForms`), the
    /// address servers bind, credentials, video encoding, and connections to a camera and,
    /// with `audio`, a microphone.
    func decodeStream(
        _ settings: YAMLMapping,
        defaultName: String,
        location: PipelineFile.SourceLocation,
        inputs: [PipelineFile.Input]
    ) throws(PipelineFileError) -> PipelineFile.StreamSpec {
        try settings.rejectUnknownKeys(allowed: Self.streamKeys)
        let name = try outputName(settings, default: defaultName)
        let expected = "one of " + StreamTarget.acceptedForms.joined(separator: ", ")
        guard let targetEntry = settings["target"] else {
            throw PipelineFileError(.missingKey("target", context: "stream output"), at: location)
        }
        let listen = try settings["listen"].map { entry throws(PipelineFileError) in
            try nonEmptyString(entry, expected: "an address to listen on, e.g. 0.0.0.0")
        }
        let text = try nonEmptyString(targetEntry, expected: expected)
        var target: StreamTarget
        do {
            target = try StreamTarget(parsing: text, listen: listen)
        } catch {
            throw PipelineFileError(.malformedValue(key: targetEntry.key, value: text, expected: expected), at: targetEntry.valueLocation)
        }
        let user = try settings["user"].map { entry throws(PipelineFileError) in try nonEmptyString(entry, expected: "a user name") }
        let password = try settings["password"].map { entry throws(PipelineFileError) in try nonEmptyString(entry, expected: "a password") }
        if user == nil, let entry = settings["password"] {
            throw PipelineFileError(.missingKey("user", context: "stream output with a password"), at: entry.keyLocation)
        }
        if let user {
            let credentials = StreamCredentials(user: user, password: password ?? "")
            switch target {
            case .rtsp(let host, let port, let path, _): target = .rtsp(host: host, port: port, path: path, credentials: credentials)
            case .rtspPublish(let url, _): target = .rtspPublish(url: url, credentials: credentials)
            default:
                throw PipelineFileError(.conflictingKeys("user", with: "target", reason: "credentials apply to rtsp:// and publish:rtsp:// targets"),
                                        at: settings["user"]!.keyLocation)
            }
        }
        let (bitrate, keyFrameInterval) = try encoding(settings)
        let audio = try settings["audio"].map { entry throws(PipelineFileError) in
            try connection(entry, inputs: inputs, outputLocation: location, kind: "stream", output: name, needs: .audio)
        }
        return PipelineFile.StreamSpec(
            name: name, target: target, bitrate: bitrate, keyFrameInterval: keyFrameInterval, audio: audio,
            connection: try connection(settings["connection"], inputs: inputs, outputLocation: location, kind: "stream", output: name),
            location: location, targetLocation: targetEntry.valueLocation
        )
    }

    /// A `videoData` output's `codec`, `bitrate` and `keyFrameInterval`: compressed frames. A
    /// raw format (`pixelFormat`, `size`) or the `stats` action (luma of raw frames) conflicts
    /// with `codec`; `bitrate` and `keyFrameInterval` need it.
    func decodeVideoDataCodec(_ settings: YAMLMapping, into spec: inout PipelineFile.VideoDataSpec) throws(PipelineFileError) {
        let (bitrate, keyFrameInterval) = try encoding(settings)
        guard let entry = settings["codec"] else {
            if let extra = settings["bitrate"] ?? settings["keyFrameInterval"] {
                throw PipelineFileError(.missingKey("codec", context: "videoData output with \(extra.key)"), at: extra.keyLocation)
            }
            return
        }
        for raw in ["pixelFormat", "size"] {
            if let other = settings[raw] {
                throw PipelineFileError(.conflictingKeys(raw, with: "codec", reason: "compressed frames have no raw \(raw)"), at: other.keyLocation)
            }
        }
        if spec.action == .stats, let action = settings["action"] {
            throw PipelineFileError(.conflictingKeys("action", with: "codec", reason: "stats measures raw frames; use count or dump"),
                                    at: action.valueLocation)
        }
        spec.codec = try choice(entry, of: VideoCodecType.self)
        spec.bitrate = bitrate
        spec.keyFrameInterval = keyFrameInterval
    }

    /// `bitrate` (bit/s) and `keyFrameInterval` (frames), each when given.
    func encoding(_ settings: YAMLMapping) throws(PipelineFileError) -> (bitrate: Int?, keyFrameInterval: Int?) {
        let bitrate = try settings["bitrate"].map { entry throws(PipelineFileError) in
            try integer(entry, in: 1...Int.max, valid: "bits per second, at least 1")
        }
        let keyFrameInterval = try settings["keyFrameInterval"].map { entry throws(PipelineFileError) in
            try integer(entry, in: 1...Int.max, valid: "frames, at least 1")
        }
        return (bitrate, keyFrameInterval)
    }
}
