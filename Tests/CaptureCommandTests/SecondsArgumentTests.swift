import Foundation
import Testing

@Suite("seconds options: --duration, --fragment, --watch")
struct SecondsArgumentTests {
    static let valid = "at most 31536000 (365 days)"

    @Test("decimal seconds only: hexadecimal, inf, nan and signs are refused saying what is valid",
          arguments: ["0x10", "0x1p4", "inf", "nan", "1e", "2s", "", " 2", "1,5"])
    func notDecimal(text: String) throws {
        let directory = try scratchDirectory()
        let result = try launch("capture", ["record", "-d", "virtual", "--duration", text, "-o", "never.mp4"], in: directory)
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.contains("'\(text)' is not a number of seconds: write decimal digits, e.g. 2 or 1.5, greater than 0, \(Self.valid)"),
                "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("too long is said to be too long, with the limit; 0 and below too short", arguments: [
        ("1e9", "1e9 s is too long"), ("31536001", "31536001 s is too long"), ("1e400", "1e400 s is too long"),
        ("0", "0 s is too short"), ("-1", "-1 s is too short"), ("0.0", "0.0 s is too short"),
    ])
    func outOfRange(text: String, message: String) throws {
        let result = try launch("capture", ["record", "-d", "virtual", "--duration", text, "-o", "never.mp4"], in: try scratchDirectory())
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.contains("\(message): a number of seconds greater than 0, \(Self.valid)"), "\(result.error)")
    }

    @Test("--fragment takes 0 (no fragments) and refuses what --duration refuses")
    func fragment() throws {
        for (text, message) in [("0x10", "'0x10' is not a number of seconds"), ("-1", "-1 s is too short"), ("1e9", "1e9 s is too long")] {
            let result = try launch("capture", ["record", "-d", "virtual", "--fragment", text, "-o", "never.mp4"], in: try scratchDirectory())
            #expect(result.status == 2, "\(result.error)")
            #expect(result.error.contains(message) && result.error.contains("from 0 to 31536000 (365 days)"), "\(result.error)")
        }
    }

    @Test("stream, serve, preview and devices say the same", arguments: [
        ["stream", "-d", "virtual", "--duration", "0x10", "rtp://127.0.0.1:5004"],
        ["serve", "-d", "virtual", "--duration", "0x10"],
        ["preview", "-d", "virtual", "--duration", "0x10"],
        ["devices", "--watch", "0x10"],
    ])
    func otherCommands(arguments: [String]) throws {
        let result = try launch("capture", arguments, in: try scratchDirectory())
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.contains("'0x10' is not a number of seconds: write decimal digits, e.g. 2 or 1.5, greater than 0, \(Self.valid)"),
                "\(result.error)")
    }
}
