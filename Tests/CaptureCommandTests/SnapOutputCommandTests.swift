import Foundation
import Testing

/// `capture snap`'s output: the house rule (an existing file is replaced only with --force) and
/// clear errors for a directory or an empty path.
@Suite("capture snap: output files", .serialized)
struct SnapOutputCommandTests {
    @Test("an existing file is left alone without --force and replaced with it; a bracket's files too")
    func existingFile() throws {
        let directory = try scratchDirectory()
        let file = directory.appendingPathComponent("photo.jpg")
        try Data("old".utf8).write(to: file)
        let refused = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "-o", file.path])
        #expect(refused.status == 1 && refused.output.isEmpty)
        #expect(refused.error == "error: '\(file.path)' already exists: remove it or write another file, or pass --force to replace it\n",
                "\(refused.error)")
        #expect(try Data(contentsOf: file) == Data("old".utf8))
        let forced = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "-o", file.path, "--force"])
        #expect(forced.status == 0 && forced.output == file.path + "\n", "\(forced.error)")
        #expect(try Data(contentsOf: file).prefix(2) == Data([0xFF, 0xD8]))
        let second = directory.appendingPathComponent("b-2.jpg")
        try Data("old".utf8).write(to: second)
        let bracket = try launch("capture", ["snap", "-d", "virtual", "--preset", "cif352x288", "--bracket", "-1,1",
                                             "-o", directory.appendingPathComponent("b.jpg").path])
        #expect(bracket.status == 1 && bracket.error.contains("'\(second.path)' already exists"), "\(bracket.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("b-1.jpg").path))
    }

    @Test("a directory or an empty -o is a usage error naming it and what to give")
    func directoryOrEmpty() throws {
        let directory = try scratchDirectory()
        let folder = try launch("capture", ["snap", "-d", "virtual", "-o", directory.path])
        #expect(folder.status == 2)
        #expect(folder.error.contains("-o '\(directory.path)' is a directory; give a file in it, e.g. -o \(directory.path)/photo.jpg"),
                "\(folder.error)")
        #expect(!folder.error.contains("NSCocoaErrorDomain"))
        let forced = try launch("capture", ["snap", "-d", "virtual", "-o", directory.path, "--force"])
        #expect(forced.status == 2 && forced.error.contains("is a directory"), "\(forced.error)")
        let empty = try launch("capture", ["snap", "-d", "virtual", "-o", ""])
        #expect(empty.status == 2)
        #expect(empty.error.contains("-o '' is empty; give the file to write, e.g. -o photo.jpg"), "\(empty.error)")
        let raw = try launch("capture", ["snap", "-d", "virtual", "--format", "nv12", "-o", ""])
        #expect(raw.error.contains("e.g. -o photo.nv12"), "\(raw.error)")
    }
}
