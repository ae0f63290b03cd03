import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// A pipeline file's `file:` devices are read from the pipeline file's own folder, and never
/// from outside it: a file that names `../secret.png`, an absolute path elsewhere or a link
/// leading out is refused at the `device` value, before anything is opened.
@Suite struct PipelineFileCameraPathTests {
    /// A scratch folder: `pipes/` (the pipeline file's folder) holding a white image, and a black
    /// decoy image beside it, outside.
    struct Scratch {
        let root: URL
        var pipes: URL { root.appendingPathComponent("pipes") }
        var decoy: URL { root.appendingPathComponent("secret.png") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("capturefiles-camera-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("pipes"), withIntermediateDirectories: true)
            try Self.png(pattern: "white", at: pipes.appendingPathComponent("scene.png"))
            try Self.png(pattern: "black", at: decoy)
        }

        /// A 160x120 PNG of one videotestsrc pattern, written by gst-launch-1.0.
        static func png(pattern: String, at url: URL) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
            process.arguments = ["-q", "videotestsrc", "num-buffers=1", "pattern=\(pattern)", "!", "video/x-raw,width=160,height=120",
                                 "!", "pngenc", "!", "filesink", "location=\(url.path)"]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }

        /// A pipeline file in `pipes/` whose one input is `device: file:<path>` (the value on
        /// line 3, column 13), and a brightness output.
        func pipeline(device path: String) throws -> String {
            let file = pipes.appendingPathComponent("scene.yaml")
            try Data("""
                version: 1
                inputs:
                  - device: "file:\(path)"
                outputs:
                  - videoData: { name: brightness, pixelFormat: gray8, action: stats }
                run:
                  frames: 3
                """.utf8).write(to: file)
            return file.path
        }
    }

    /// The error making the session of the pipeline file at `path` throws.
    static func sessionError(_ path: String) throws -> PipelineFileError {
        do {
            _ = try PipelineFile.load(contentsOf: path).makeSession(context: CaptureContext())
        } catch {
            return error
        }
        Issue.record("the session was made")
        throw CancellationError()
    }

    @Test("a relative file: device is read from the pipeline file's folder, whatever the working directory")
    func relativeToThePipelineFile() async throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        // The working directory is not the pipeline file's folder: the path must not be read from it.
        #expect(FileManager.default.currentDirectoryPath != scratch.pipes.path)
        let pipeline = try PipelineFile.load(contentsOf: try scratch.pipeline(device: "scene.png")).makeSession(context: CaptureContext())
        let real = scratch.pipes.resolvingSymlinksInPath().appendingPathComponent("scene.png").path
        #expect(pipeline.inputs.first?.device.uniqueID == "file:" + real)
        let out = scratch.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let report = try await pipeline.run(writingTo: out)
        let stats = try #require(report.output(named: "brightness"))
        #expect(stats.count == 3)
        // The white scene, not the black decoy.
        #expect(stats.meanLuma.allSatisfy { $0 > 200 }, "\(stats.meanLuma)")
    }

    @Test("'..', an absolute path elsewhere, a link leading out and '..' after a missing folder are errors at the device value")
    func pathsLeadingOut() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let folder = scratch.pipes.path
        let secret = scratch.root.resolvingSymlinksInPath().appendingPathComponent("secret.png").path
        let dotDot = try Self.sessionError(try scratch.pipeline(device: "../secret.png"))
        #expect(dotDot.location == PipelineFile.SourceLocation(file: scratch.pipes.appendingPathComponent("scene.yaml").path, line: 3, column: 13))
        #expect(dotDot.kind == .inputOutsideFolder("../secret.png", reason: "resolves to '\(secret)'", folder: folder))
        #expect(dotDot.description.hasSuffix("device file '../secret.png' is outside the pipeline file's folder '\(folder)':"
            + " it resolves to '\(secret)'; name a file inside that folder (relative to the pipeline file, with no '..' or symbolic link leading out)"),
            "\(dotDot)")
        let absolute = try Self.sessionError(try scratch.pipeline(device: scratch.decoy.path))
        #expect(absolute.kind == .inputOutsideFolder(scratch.decoy.path, reason: "resolves to '\(secret)'", folder: folder))
        try FileManager.default.createSymbolicLink(atPath: scratch.pipes.appendingPathComponent("link.png").path, withDestinationPath: scratch.decoy.path)
        let link = try Self.sessionError(try scratch.pipeline(device: "link.png"))
        #expect(link.kind == .inputOutsideFolder("link.png", reason: "resolves to '\(secret)'", folder: folder))
        let missing = try Self.sessionError(try scratch.pipeline(device: "new/../../secret.png"))
        #expect(missing.kind == .inputOutsideFolder("new/../../secret.png", reason: "has '..' after a folder that does not exist", folder: folder))
        // A file inside that is missing is CaptureKit's own error, naming the resolved path.
        let absent = try Self.sessionError(try scratch.pipeline(device: "absent.png"))
        #expect(absent.description.contains(scratch.pipes.resolvingSymlinksInPath().appendingPathComponent("absent.png").path), "\(absent)")
    }
}
