import Foundation
import Testing

@Suite("capture record: a folder that cannot take the movie")
struct RecordFolderTests {
    /// Records 1 s into `file` with --verbose (which names the encoder once the session is made).
    static func record(_ file: String) throws -> Completed {
        try launch("capture", ["record", "-d", "virtual", "--preset", "vga640x480", "--duration", "1", "--verbose", "-o", file])
    }

    /// Exit 1 before the camera started, with `reason`, and nothing about frames.
    static func expectRefused(_ result: Completed, _ file: String, _ reasons: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, sourceLocation: sourceLocation)
        #expect(reasons.contains { result.error.contains("error: cannot record to '\(file)': \($0)") }, "\(result.error)", sourceLocation: sourceLocation)
        #expect(!result.error.contains("encoder:") && !result.error.contains("first frame"), "\(result.error)", sourceLocation: sourceLocation)
    }

    @Test("a missing folder, and a path through a regular file, are refused naming the folder and why")
    func missingOrNotAFolder() throws {
        let directory = try scratchDirectory()
        let missing = directory.appendingPathComponent("no/such/folder").path
        Self.expectRefused(try Self.record(missing + "/clip.mp4"), missing + "/clip.mp4", ["the folder '\(missing)' does not exist"])
        let regular = directory.appendingPathComponent("notes.txt")
        try Data("a file".utf8).write(to: regular)
        Self.expectRefused(try Self.record(regular.path + "/clip.mp4"), regular.path + "/clip.mp4", ["'\(regular.path)' is not a folder (ENOTDIR)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
    }

    @Test("a folder the process may not write is refused naming it: /sys/kernel, which root may not write either (EACCES, or EROFS where /sys is read-only)")
    func notWritable() throws {
        Self.expectRefused(try Self.record("/sys/kernel/clip.mp4"), "/sys/kernel/clip.mp4",
                           ["the folder '/sys/kernel' is not writable: permission denied (EACCES)",
                            "the folder '/sys/kernel' is on a read-only file system (EROFS)"])
    }

    @Test("a folder on a read-only file system is refused naming it (EROFS)", .enabled(if: RecordCommandTests.canMountTmpfs))
    func readOnly() throws {
        // A read-only tmpfs over a scratch folder, in a mount namespace that ends with the shell.
        let directory = try scratchDirectory()
        let file = directory.appendingPathComponent("clip.mp4").path
        let capture = binaries.appendingPathComponent("capture").path
        let script = """
            mount -t tmpfs -o ro,size=64k tmpfs '\(directory.path)' || exit 99
            exec '\(capture)' record -d virtual --preset vga640x480 --duration 1 --verbose -o '\(file)'
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["-rm", "sh", "-c", script])
        Self.expectRefused(result, file, ["the folder '\(directory.path)' is on a read-only file system (EROFS)"])
    }
}
