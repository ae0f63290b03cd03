import Foundation
import Testing

/// The house rule for written files on the commands beside snap: `record -o` and `stream --sdp`
/// empty or a directory are usage errors; `stream --sdp` replaces a file only with --force; and
/// scan's `--timeout` reads seconds as the other commands do.
@Suite("capture record, stream, scan: output files and seconds", .serialized)
struct OutputRuleCommandTests {
    /// A folder is no longer an error: it records segments (SegmentedRecordCommandTests).
    @Test("record -o '' is a usage error naming it (before: an extension error about the current folder)")
    func recordOutput() throws {
        let empty = try launch("capture", ["record", "-d", "virtual", "--duration", "1", "-o", ""])
        #expect(empty.status == 2 && empty.error.contains("-o '' is empty"), "\(empty.error)")
    }

    @Test("stream --sdp: an existing file is kept without --force (exit 1 naming it) and replaced with it; a directory is a usage error")
    func streamSDP() throws {
        let directory = try scratchDirectory()
        let sdp = directory.appendingPathComponent("stream.sdp")
        try Data("old".utf8).write(to: sdp)
        let refused = try launch("capture", ["stream", "-d", "virtual", "--preset", "cif352x288", "--duration", "1",
                                             "rtp://127.0.0.1:5990", "--sdp", sdp.path])
        #expect(refused.status == 1 && refused.error.contains("'\(sdp.path)' already exists") && refused.error.contains("--force"), "\(refused.error)")
        #expect(try String(contentsOf: sdp, encoding: .utf8) == "old")
        let forced = try launch("capture", ["stream", "-d", "virtual", "--preset", "cif352x288", "--duration", "1",
                                            "rtp://127.0.0.1:5990", "--sdp", sdp.path, "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try String(contentsOf: sdp, encoding: .utf8).hasPrefix("v=0"))
        let folder = try launch("capture", ["stream", "-d", "virtual", "--duration", "1", "rtp://127.0.0.1:5990", "--sdp", directory.path])
        #expect(folder.status == 2 && folder.error.contains("is a directory"), "\(folder.error)")
    }

    @Test("scan --timeout takes decimal seconds only: 0x10 and 1e9 are refused by name")
    func scanTimeout() throws {
        let hex = try launch("capture", ["scan", "-d", "virtual", "--timeout", "0x10"])
        #expect(hex.status == 2 && hex.error.contains("'0x10' is not a number of seconds"), "\(hex.error)")
        let long = try launch("capture", ["scan", "-d", "virtual", "--timeout", "1e9"])
        #expect(long.status == 2 && long.error.contains("too long"), "\(long.error)")
    }
}
