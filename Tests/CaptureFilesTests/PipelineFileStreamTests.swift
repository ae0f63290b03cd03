import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Decoding `stream` outputs and `videoData` outputs with a codec, and the errors bad values
/// give, each at its position.
@Suite("Pipeline file stream outputs")
struct PipelineFileStreamTests {
    private func yaml(_ kind: String, _ settings: String) -> String { OneOutputFile.yaml(kind, settings) }

    private func error(_ kind: String, _ settings: String) -> String { OneOutputFile.error(kind, settings, fileName: "stream.yaml") }

    @Test("every key decodes: the target with the address to listen on and credentials, the encoding and the microphone")
    func decodes() throws {
        let file = try PipelineFile.parse(yaml("stream", """
            name: cam
            target: rtsp://:8554/cam
            listen: 0.0.0.0
            user: viewer
            password: secret
            bitrate: 2000000
            keyFrameInterval: 60
            audio: { input: mic }
            connection: { input: camera }
            """), fileName: "stream.yaml")
        guard case .stream(let spec) = try #require(file.outputs.first) else {
            Issue.record("not a stream output: \(file.outputs)")
            return
        }
        #expect(spec.name == "cam" && spec.bitrate == 2_000_000 && spec.keyFrameInterval == 60 && spec.audio?.input == "mic")
        #expect(spec.target == .rtsp(host: "0.0.0.0", port: 8554, path: "/cam", credentials: StreamCredentials(user: "viewer", password: "secret")))
    }

    @Test("bad values are reported at their position, naming what is accepted")
    func errors() {
        #expect(error("stream", "target: ftp://x:1/y\nconnection: { input: camera }")
            == "stream.yaml:9:15: malformed value 'ftp://x:1/y' for 'target': expected one of " + StreamTarget.acceptedForms.joined(separator: ", "))
        #expect(error("stream", "connection: { input: camera }") == "stream.yaml:8:5: missing required key 'target' in stream output")
        #expect(error("stream", "target: srt://:9000\nuser: me\nconnection: { input: camera }").hasPrefix("stream.yaml:10:7:"))
        #expect(error("videoData", "codec: h264\npixelFormat: nv12\nconnection: { input: camera }").hasPrefix("stream.yaml:10:7:"))
        #expect(error("videoData", "bitrate: 1000000\nconnection: { input: camera }").contains("codec"))
        #expect(error("videoData", "codec: vp9\nconnection: { input: camera }").hasPrefix("stream.yaml:9:14:"))
    }

    @Test("a videoData output with a codec is built with compressed settings")
    func compressedVideoData() throws {
        let file = try PipelineFile.parse(yaml("videoData", "codec: h264\nbitrate: 500000\nkeyFrameInterval: 15\naction: dump\npath: au-{n}.h264\nconnection: { input: camera }"),
                                          fileName: "stream.yaml")
        guard case .videoData(let spec) = try #require(file.outputs.first) else { return }
        #expect(spec.settings == VideoDataOutput.VideoSettings(codec: .h264, bitrate: 500_000, keyFrameInterval: 15))
    }
}
