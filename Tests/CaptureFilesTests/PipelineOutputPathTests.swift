import CaptureKit
import Foundation
import Testing
@testable import CaptureFiles

/// Paths a pipeline file writes stay in the run's folder, and replace files only when asked.
/// Every file outside the folder is a decoy in a scratch folder of the test's own.
@Suite struct PipelineOutputPathTests {
    /// A scratch folder holding `out` (the run's folder) and a decoy file beside it.
    struct Scratch {
        let root: URL
        var out: URL { root.appendingPathComponent("out") }
        var decoy: URL { root.appendingPathComponent("passwd") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("capturefiles-paths-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("out"), withIntermediateDirectories: true)
            try Data("root:x:0:0\n".utf8).write(to: root.appendingPathComponent("passwd"))
        }

        /// The decoy's text: unchanged unless something wrote outside the run's folder.
        var decoyText: String { (try? String(contentsOf: decoy, encoding: .utf8)) ?? "(gone)" }
    }

    /// A file with one still output whose `path` value is on line 5, column 20.
    static func stillFile(_ path: String) -> String {
        """
        version: 1
        inputs:
          - device: virtual
        outputs:
          - still: { path: "\(path)" }
        run:
          frames: 1
        """
    }

    static let at = PipelineFile.SourceLocation(file: "paths.yaml", line: 5, column: 20)

    /// The error `checkOutputPaths` throws for a still written to `path`, or nil.
    static func pathError(_ path: String, in directory: URL, replacing: Bool = false) throws -> PipelineFileError? {
        let file = try PipelineFile.parse(stillFile(path), fileName: "paths.yaml")
        do {
            try file.checkOutputPaths(in: directory, replacingExistingFiles: replacing)
            return nil
        } catch {
            return error
        }
    }

    @Test("'..', an absolute path and a nested new folder outside the run's folder are errors at the path, naming it and the folder")
    func pathsLeadingOut() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let root = scratch.root.resolvingSymlinksInPath().path
        let out = scratch.out.path
        let dotDot = try #require(try Self.pathError("../passwd", in: scratch.out))
        #expect(dotDot.location == Self.at)
        #expect(dotDot.kind == .pathOutsideDirectory("../passwd", resolved: root + "/passwd", directory: out))
        #expect(dotDot.description == "paths.yaml:5:20: path '../passwd' resolves to '\(root)/passwd', outside the output directory"
            + " '\(out)'; write a path inside it (relative, with no '..' or symbolic link leading out)")
        let absolute = try #require(try Self.pathError(scratch.decoy.path, in: scratch.out, replacing: true))
        #expect(absolute.kind == .pathOutsideDirectory(scratch.decoy.path, resolved: root + "/passwd", directory: out))
        let nested = try #require(try Self.pathError("../new/deeper/x.jpg", in: scratch.out))
        #expect(nested.kind == .pathOutsideDirectory("../new/deeper/x.jpg", resolved: root + "/new/deeper/x.jpg", directory: out))
        let missingThenUp = try #require(try Self.pathError("new/../../passwd", in: scratch.out))
        #expect(missingThenUp.description.contains("'..' follows a folder that does not exist yet"), "\(missingThenUp)")
        // Inside the folder, '..' that stays in and an absolute path into it are fine.
        try FileManager.default.createDirectory(at: scratch.out.appendingPathComponent("sub"), withIntermediateDirectories: true)
        #expect(try Self.pathError("sub/../x.jpg", in: scratch.out) == nil)
        #expect(try Self.pathError(scratch.out.appendingPathComponent("new/x.jpg").path, in: scratch.out) == nil)
        #expect(scratch.decoyText == "root:x:0:0\n")
    }

    @Test("a symbolic link in the folder leading out, to a folder or to a missing file, is an error")
    func linksLeadingOut() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: scratch.out.appendingPathComponent("up").path, withDestinationPath: scratch.root.path)
        try fm.createSymbolicLink(atPath: scratch.out.appendingPathComponent("photo.jpg").path, withDestinationPath: scratch.decoy.path)
        try fm.createSymbolicLink(atPath: scratch.out.appendingPathComponent("dangling.jpg").path,
                                  withDestinationPath: scratch.root.appendingPathComponent("created-outside").path)
        let root = scratch.root.resolvingSymlinksInPath().path
        let folder = try #require(try Self.pathError("up/passwd", in: scratch.out, replacing: true))
        #expect(folder.kind == .pathOutsideDirectory("up/passwd", resolved: root + "/passwd", directory: scratch.out.path))
        let newInLinked = try #require(try Self.pathError("up/new/x.jpg", in: scratch.out))
        #expect(newInLinked.kind == .pathOutsideDirectory("up/new/x.jpg", resolved: root + "/new/x.jpg", directory: scratch.out.path))
        let file = try #require(try Self.pathError("photo.jpg", in: scratch.out, replacing: true))
        #expect(file.kind == .pathOutsideDirectory("photo.jpg", resolved: root + "/passwd", directory: scratch.out.path))
        let dangling = try #require(try Self.pathError("dangling.jpg", in: scratch.out, replacing: true))
        #expect(dangling.description.contains("is a symbolic link to '\(scratch.root.path)/created-outside', which does not exist"),
                "\(dangling)")
        // A link inside the folder to a folder inside it is fine.
        try fm.createDirectory(at: scratch.out.appendingPathComponent("real"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: scratch.out.appendingPathComponent("alias").path, withDestinationPath: "real")
        #expect(try Self.pathError("alias/x.jpg", in: scratch.out) == nil)
    }

    @Test("an existing file is replaced only when asked; a directory or FIFO never is; {n} patterns find an earlier run's files")
    func existingFiles() throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let existing = scratch.out.appendingPathComponent("photo.jpg")
        try Data("old".utf8).write(to: existing)
        let refused = try #require(try Self.pathError("photo.jpg", in: scratch.out))
        let resolved = existing.resolvingSymlinksInPath().path
        #expect(refused.kind == .fileExists("photo.jpg", resolved: resolved))
        #expect(refused.description == "paths.yaml:5:20: path 'photo.jpg': the file '\(resolved)' exists; pass --force"
            + " (replacingExistingFiles: true) to replace it")
        #expect(try Self.pathError("photo.jpg", in: scratch.out, replacing: true) == nil)
        try FileManager.default.createDirectory(at: scratch.out.appendingPathComponent("dir.jpg"), withIntermediateDirectories: true)
        let directory = try #require(try Self.pathError("dir.jpg", in: scratch.out, replacing: true))
        #expect(directory.description.hasSuffix("exists and is a directory, not a file a run can replace"), "\(directory)")
        #expect(mkfifo(scratch.out.appendingPathComponent("fifo.jpg").path, 0o600) == 0)
        let fifo = try #require(try Self.pathError("fifo.jpg", in: scratch.out, replacing: true))
        #expect(fifo.description.hasSuffix("exists and is a FIFO, not a file a run can replace"), "\(fifo)")
        // A dump in a seconds run has no known frame count: frame 12 of an earlier run is found.
        try Data("old".utf8).write(to: scratch.out.appendingPathComponent("frame-12.raw"))
        let dump = try PipelineFile.parse("""
            version: 1
            inputs: [{ device: virtual }]
            outputs:
              - videoData: { action: dump, path: "frame-{n}.raw" }
            run: { seconds: 1 }
            """, fileName: "dump.yaml")
        #expect(throws: PipelineFileError(.fileExists("frame-12.raw", resolved: scratch.out.resolvingSymlinksInPath().path + "/frame-12.raw"),
                                          at: PipelineFile.SourceLocation(file: "dump.yaml", line: 4, column: 38))) {
            try dump.checkOutputPaths(in: scratch.out)
        }
    }

    @Test("a run refuses an unsafe path or an existing file before it starts, and replaces a file when asked")
    func runChecksFirst() async throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.root) }
        let outside = try PipelineFile.parse(Self.stillFile("../passwd"), fileName: "paths.yaml").makeSession(context: CaptureContext())
        await #expect(throws: PipelineRunError.self) { try await outside.run(writingTo: scratch.out, replacingExistingFiles: true) }
        #expect(!outside.session.isRunning)
        #expect(scratch.decoyText == "root:x:0:0\n")
        let existing = scratch.out.appendingPathComponent("photo.jpg")
        try Data("old".utf8).write(to: existing)
        let inside = try PipelineFile.parse(Self.stillFile("photo.jpg"), fileName: "paths.yaml").makeSession(context: CaptureContext())
        let error = await #expect(throws: PipelineRunError.self) { try await inside.run(writingTo: scratch.out) }
        guard case .unsafePath(let fileError)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(fileError.location == Self.at)
        #expect(try Data(contentsOf: existing) == Data("old".utf8))
        let report = try await inside.run(writingTo: scratch.out, replacingExistingFiles: true)
        #expect(report.filesWritten == [existing.path])
        #expect(try Data(contentsOf: existing).prefix(2) == Data([0xFF, 0xD8]))
    }
}
