import Foundation
import Testing
@testable import CaptureFiles

/// Huge files and values: refused or quoted in part, quickly, in bounded memory.
@Suite struct PipelineFileSizeTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("capturefiles-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A file whose preset is `preset`.
    static func file(preset: String) -> String {
        """
        version: 1
        preset: \(preset)
        inputs: [{ device: virtual }]
        outputs: [still: ~]
        run: { frames: 1 }
        """
    }

    @Test("a file over 1 MiB is refused before it is read, naming its size and the limit")
    func fileTooLarge() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("huge.yaml").path
        let text = Self.file(preset: String(repeating: "x", count: 5_000_000))
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: PipelineFileError.self) { try PipelineFile.load(contentsOf: path) }
        #expect(error.kind == .fileTooLarge(size: text.utf8.count, limit: 1 << 20))
        #expect(error.description == "\(path):1:1: pipeline file is \(text.utf8.count) bytes; pipeline files may be at most 1 MiB (1048576 bytes)")
        let parsed = try #require(throws: PipelineFileError.self) { try PipelineFile.parse(text, fileName: "huge.yaml") }
        #expect(parsed.kind == .fileTooLarge(size: text.utf8.count, limit: 1 << 20))
    }

    @Test("a FIFO or a directory is refused without waiting for a writer")
    func notRegular() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.yaml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = try #require(throws: PipelineFileError.self) { try PipelineFile.load(contentsOf: fifo) }
        #expect(error.description == "\(fifo):1:1: cannot read pipeline file: it is a FIFO, not a regular file")
        let folder = try #require(throws: PipelineFileError.self) { try PipelineFile.load(contentsOf: directory.path) }
        #expect(folder.kind == .unreadableFile(reason: "it is a directory, not a regular file"))
    }

    @Test("an invalid value of a megabyte is quoted in 80 characters with its length", arguments: ["preset", "input", "device", "type", "named input"])
    func hugeValueQuotedInPart(place: String) throws {
        let huge = String(repeating: "y", count: 1_000_000)
        let text = switch place {
        case "preset": Self.file(preset: huge)
        case "input": Self.file(preset: "high").replacing("[still: ~]", with: "[still: { connection: { input: \(huge) } }]")
        case "device": Self.file(preset: "high").replacing("device: virtual", with: "device: \(huge)")
        case "type": Self.file(preset: "high").replacing("[still: ~]", with: "[still: { count: \(huge) }]")
        // An input named with half a megabyte and a connection naming another: no suggestion is sought.
        default: Self.file(preset: "high").replacing("[{ device: virtual }]", with: "[{ name: \(huge.dropLast(500_000))z, device: virtual }]")
            .replacing("[still: ~]", with: "[still: { connection: { input: \(huge.dropLast(500_000))x } }]")
        }
        let error = try #require(throws: PipelineFileError.self) { try PipelineFile.parse(text, fileName: "big.yaml").makeSession() }
        let message = error.description
        #expect(message.count < 600, "\(message.prefix(600))")
        #expect(message.contains(String(repeating: "y", count: 80) + "…"), "\(message.prefix(600))")
        #expect(message.contains(place == "named input" ? " (500001 characters)" : " (1000000 characters)"), "\(message.prefix(600))")
        #expect(!message.contains(String(repeating: "y", count: 81)))
    }
}
