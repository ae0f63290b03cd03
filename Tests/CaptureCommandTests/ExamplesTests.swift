import Foundation
import Testing

/// The examples of the documentation's flows (Examples/), built by `swift build --build-tests` and
/// run as a user runs them; each also checks its own outcome and exits non-zero when it fails.
@Suite("examples of the documented flows", .serialized)
struct ExamplesTests {
    /// The repository's root, three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("MetadataScanExample finds the virtual camera's QR code and EAN-13, each where the scene draws it")
    func metadataScan() throws {
        let result = try launch("MetadataScanExample", [])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let qr = try #require(lines.first { $0.hasPrefix("qr ") }, "\(result.output)")
        let ean = try #require(lines.first { $0.hasPrefix("ean13 ") }, "\(result.output)")
        #expect(qr.hasPrefix("qr https://capturekit.dev/virtual-camera at "), "\(qr)")
        #expect(ean.hasPrefix("ean13 4006381333931 at "), "\(ean)")
        // "... at x X y Y w W h H" in device coordinates: the QR code on the left, the EAN-13 on the right.
        func box(_ line: String) -> [Double] { line.split(separator: " ").suffix(8).enumerated().filter { $0.offset % 2 == 1 }.compactMap { Double($0.element) } }
        let qrBox = box(qr), eanBox = box(ean)
        try #require(qrBox.count == 4 && eanBox.count == 4, "\(qr) / \(ean)")
        #expect(qrBox[0] + qrBox[2] <= 0.5 && eanBox[0] >= 0.5, "\(qrBox) \(eanBox)")
        #expect(lines.last == "found 2 of 2 codes")
    }

    @Test("RecordMovieExample records a second of H.264 and AAC that ffprobe reads, and says so")
    func recordMovie() throws {
        let file = try scratchDirectory().appendingPathComponent("clip.mp4")
        let result = try launch("RecordMovieExample", [file.path])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(result.output.contains("recording to \(file.path) with "), "\(result.output)")
        let probe = try Probe(file)
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        let audio = try #require(probe.stream("audio"), "\(probe.fields)")
        #expect(probe.field(video, "codec_name") == "h264" && probe.field(audio, "codec_name") == "aac")
        #expect(probe.duration > 0.8 && probe.duration < 1.4, "\(probe.duration) s")
        #expect(result.output.split(separator: "\n").last?.hasPrefix("\(file.path): ") == true, "\(result.output)")
    }

    @Test("StreamCameraExample serves SRT and writes HLS from one encode: the playlist it wrote plays in ffprobe")
    func streamCamera() throws {
        let directory = try scratchDirectory().appendingPathComponent("live")
        let port = Int.random(in: 20_000..<60_000)
        let result = try launch("StreamCameraExample", [directory.path, String(port)])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(result.output.hasPrefix("serving srt://127.0.0.1:\(port) and hls:\(directory.path)"), "\(result.output)")
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".ts") }.sorted()
        let segment = try #require(segments.first, "segments in \(directory.path)")
        let probe = try Probe(directory.appendingPathComponent(segment))
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect(probe.field(video, "codec_name") == "h264" && probe.field(video, "width") == "640")
    }

    @Test("ManualControlsExample: ISO 400 frames brighter than ISO 100 ones, focus and white balance locked as set")
    func manualControls() throws {
        let result = try launch("ManualControlsExample", [])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let exposure = try #require(lines.first { $0.hasPrefix("exposure 1/480 s: mean luma ") }, "\(result.output)")
        let levels = exposure.split(separator: " ").compactMap { Double($0) }
        try #require(levels.count == 4, "\(exposure)") // 100, 400 and the two means, in order of appearance
        let (dim, bright) = (levels[0], levels[2])
        #expect(dim > 5 && bright > dim * 1.5, "\(exposure)")
        #expect(lines.contains("focus locked at lens position 0.25"), "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("white balance locked at 3200 K") }, "\(result.output)")
        #expect(lines.last == "manual controls applied")
    }

    @Test("PipelineFileExample runs pipelines/scan-codes.yaml from Swift: its launch line, both codes, the JSON lines file")
    func pipelineFile() throws {
        let directory = try scratchDirectory()
        let file = Self.root.appendingPathComponent("pipelines/scan-codes.yaml").path
        let result = try launch("PipelineFileExample", [file, directory.path])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(result.output.hasPrefix("videotestsrc name=input0_src is-live=true"), "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(Set(lines.filter { $0.hasPrefix("code: ") }) == ["code: qr https://capturekit.dev/virtual-camera", "code: ean13 4006381333931"],
                "\(result.output)")
        let written = try String(contentsOf: directory.appendingPathComponent("codes.jsonl"), encoding: .utf8)
        #expect(written.split(separator: "\n").count == 2 && written.contains("4006381333931"), "\(written)")

        let missing = try launch("PipelineFileExample", [directory.appendingPathComponent("none.yaml").path])
        #expect(missing.status != 0 && missing.error.contains("none.yaml"), "\(missing.error)")
    }
}
