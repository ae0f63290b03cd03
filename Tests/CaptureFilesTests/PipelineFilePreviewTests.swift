import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Decoding `preview` outputs, the session they build, and the errors bad values give, each
/// at its position.
@Suite("Pipeline file preview outputs")
struct PipelineFilePreviewTests {
    private func error(_ settings: String) -> String { OneOutputFile.error("preview", settings, fileName: "preview.yaml") }

    @Test("every key decodes, short and AVFoundation gravity names alike, and builds a VideoPreview")
    func decodes() throws {
        let file = try PipelineFile.parse(OneOutputFile.yaml("preview", """
            name: view
            sink: kms
            gravity: resizeAspectFill
            size: 800x480
            connection: { input: camera, orientation: landscapeLeft, mirrored: true }
            """), fileName: "preview.yaml")
        guard case .preview(let spec) = try #require(file.outputs.first) else {
            Issue.record("not a preview output: \(file.outputs)")
            return
        }
        #expect(spec.name == "view" && spec.sink == .kms && spec.gravity == .resizeAspectFill && spec.size == .init(width: 800, height: 480))
        let built = try file.makeSession(context: CaptureContext())
        let preview = try #require(built.session.connections.lazy.compactMap { $0.output as? VideoPreview }.first)
        #expect(preview.sink == .kms && preview.videoGravity == .resizeAspectFill && preview.bounds == CGRect(x: 0, y: 0, width: 800, height: 480))
        #expect(preview.connection?.videoOrientation == .landscapeLeft && preview.connection?.isVideoMirrored == true)

        let defaults = try PipelineFile.parse(OneOutputFile.yaml("preview", "gravity: fill"), fileName: "preview.yaml")
        guard case .preview(let plain) = try #require(defaults.outputs.first) else { return }
        #expect(plain.sink == .window && plain.gravity == .resizeAspectFill && plain.size == nil)
    }

    @Test("bad values are reported at their position, naming what is accepted and the closest")
    func errors() {
        #expect(error("sink: windw") == "preview.yaml:9:13: invalid value 'windw' for 'sink' (valid: window, kms, frames, none); did you mean 'window'?")
        #expect(error("gravity: stretch") == "preview.yaml:9:16: invalid value 'stretch' for 'gravity' (valid: aspect, fill, resize, resizeAspect, resizeAspectFill)")
        #expect(error("size: 0x480").hasPrefix("preview.yaml:9:13:"))
        #expect(error("zoom: 2").hasPrefix("preview.yaml:9:7:"))
        #expect(error("connection: { input: mic }").contains("mic"))
    }
}
