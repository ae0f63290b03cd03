import Foundation
import Testing

/// `capture validate` and `capture run` on pipeline files that write outside `--directory`,
/// replace files, or are huge. Every file outside the run's folder is a decoy in a scratch folder.
@Suite("capture run and validate: paths and sizes", .serialized)
struct RunPathCommandTests {
    /// A pipeline file in `folder` whose one still is written to `path` (the value at 5:20).
    static func pipeline(writing path: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("p-\(UUID().uuidString.prefix(8)).yaml")
        try """
            version: 1
            inputs:
              - device: virtual
            outputs:
              - still: { path: "\(path)" }
            run:
              frames: 1
            """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("'..', an absolute path, a link leading out and a new nested folder outside are file:line:column errors from validate and run; nothing is written")
    func pathsLeadingOut() throws {
        let root = try scratchDirectory()
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let decoy = root.appendingPathComponent("passwd")
        try Data("root:x:0:0\n".utf8).write(to: decoy)
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent("etc").path, withDestinationPath: root.path)
        for path in ["../passwd", decoy.path, "etc/passwd", "../made/deeper/x.jpg"] {
            let file = try Self.pipeline(writing: path, in: root)
            for command in ["validate", "run"] {
                let result = try launch("capture", [command, file.path, "-d", out.path, "--force"])
                #expect(result.status == 2, "\(command) \(path): \(result.status) \(result.output)")
                #expect(result.error.hasPrefix("\(file.path):5:20: path '\(path)' resolves to "), "\(result.error)")
                #expect(result.error.contains("outside the output directory '\(out.path)'"), "\(result.error)")
                #expect(result.output.isEmpty)
            }
        }
        #expect(try String(contentsOf: decoy, encoding: .utf8) == "root:x:0:0\n")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("made").path))
    }

    @Test("an existing file needs --force, from validate and run alike")
    func existingFileNeedsForce() throws {
        let root = try scratchDirectory()
        let existing = root.appendingPathComponent("photo.jpg")
        try Data("old".utf8).write(to: existing)
        let file = try Self.pipeline(writing: "photo.jpg", in: root)
        for command in ["validate", "run"] {
            let refused = try launch("capture", [command, file.path, "-d", root.path])
            #expect(refused.status == 2, "\(command): \(refused.status)")
            #expect(refused.error.hasPrefix("\(file.path):5:20: path 'photo.jpg': the file '"), "\(refused.error)")
            #expect(refused.error.contains("exists; pass --force"), "\(refused.error)")
        }
        #expect(try Data(contentsOf: existing) == Data("old".utf8))
        #expect(try launch("capture", ["validate", file.path, "-d", root.path, "--force"]).output == "\(file.path): ok\n")
        let forced = try launch("capture", ["run", file.path, "-d", root.path, "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try Data(contentsOf: existing).prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test("a 5 MB file is refused by its size, a 1 MB value is quoted in 80 characters, and a FIFO is refused without waiting")
    func hugeFilesAndValues() throws {
        let root = try scratchDirectory()
        let huge = root.appendingPathComponent("huge.yaml")
        try Data(("version: 1\npreset: " + String(repeating: "x", count: 5_000_000) + "\n").utf8).write(to: huge)
        for command in ["validate", "run"] {
            let result = try launch("capture", [command, huge.path])
            #expect(result.status == 2)
            #expect(result.error == "\(huge.path):1:1: pipeline file is 5000020 bytes; pipeline files may be at most 1 MiB (1048576 bytes)\n",
                    "\(result.error.prefix(300))")
        }
        let big = root.appendingPathComponent("big.yaml")
        try Data(("version: 1\npreset: " + String(repeating: "x", count: 1_000_000)
            + "\ninputs: [{ device: virtual }]\noutputs: [still: ~]\nrun: { frames: 1 }\n").utf8).write(to: big)
        let value = try launch("capture", ["validate", big.path])
        #expect(value.status == 2)
        #expect(value.error.hasPrefix("\(big.path):2:9: invalid value '" + String(repeating: "x", count: 80) + "…' (1000000 characters) for 'preset'"),
                "\(value.error.prefix(300))")
        #expect(value.error.utf8.count < 1000)
        let fifo = root.appendingPathComponent("fifo.yaml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let piped = try launch("capture", ["validate", fifo.path])
        #expect(piped.status == 2 && piped.error == "\(fifo.path):1:1: cannot read pipeline file: it is a FIFO, not a regular file\n", "\(piped.error)")
    }
}
