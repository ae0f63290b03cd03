import Foundation
import Testing

/// Every command line README.md shows in a `sh` block, run verbatim, so the README cannot drift
/// from the product: `capture …` lines run in order in one scratch directory (a later line may
/// read what an earlier one wrote) with the built `capture` first on PATH and `pipelines/` beside
/// them (`capture preview` with an Xvfb display of its own in `$DISPLAY`); `make …` lines are the runner of this very suite, so they are checked with `make -n`
/// (their targets exist and expand) rather than run inside themselves. A line may start with
/// environment assignments (`CAPTUREKIT_VIRTUAL_MOVERS=… capture …`), which the shell applies.
@Suite("README command lines", .serialized)
struct ReadmeCommandTests {
    static let root = binaries.deletingLastPathComponent().deletingLastPathComponent()

    /// The command lines of README.md's `sh` blocks, trailing comments removed.
    static func commandLines() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var lines: [String] = []
        var inShell = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = !inShell && line == "```sh"
                continue
            }
            guard inShell else { continue }
            var command = String(line)
            if let comment = command.range(of: " #") { command = String(command[..<comment.lowerBound]) }
            command = command.trimmingCharacters(in: .whitespaces)
            if !command.isEmpty { lines.append(command) }
        }
        return lines
    }

    /// Runs `line` with /bin/sh in `directory`, the built products first on PATH, `display` in
    /// `$DISPLAY` when given.
    static func shell(_ line: String, in directory: URL, display: String? = nil) throws -> Completed {
        try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", line], in: directory, pathFirst: binaries,
                       environment: display.map { ["DISPLAY": $0] } ?? [:])
    }

    @Test("every command line in README.md runs and does what it says")
    func readmeCommands() throws {
        let lines = try Self.commandLines()
        #expect(lines.count >= 10, "README.md's sh blocks: \(lines)")
        let directory = try scratchDirectory()
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("pipelines"),
                                                   withDestinationURL: Self.root.appendingPathComponent("pipelines"))
        var xvfb: XvfbDisplay?
        for line in lines {
            // The command after any leading NAME=value assignments.
            let words = Array(line.split(separator: " ").map(String.init).drop { $0.range(of: "^[A-Z_]+=", options: .regularExpression) != nil })
            if words.dropFirst().first == "preview", xvfb == nil { xvfb = try XvfbDisplay(width: 800, height: 700) }
            switch words.first {
            case "make":
                let dryRun = try Self.shell("make -n " + words.dropFirst().joined(separator: " "), in: Self.root)
                #expect(dryRun.status == 0, "\(line): \(dryRun.error)")
            case "capture":
                let result = try Self.shell(line, in: directory, display: words.dropFirst().first == "preview" ? xvfb?.name : nil)
                #expect(result.status == 0, "\(line) exited \(result.status): \(result.error)")
                #expect(!result.output.isEmpty, "\(line) printed nothing")
                if words.contains("--json") {
                    let whole = try? JSONSerialization.jsonObject(with: Data(result.output.utf8))
                    let eachLine = result.output.split(separator: "\n").allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }
                    #expect(whole != nil || eachLine, "\(line) printed one JSON document or JSON lines: \(result.output)")
                }
                if words.contains("--events") {
                    // Events: each line a JSON object saying which end of an event it is.
                    let events = result.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                    #expect(!events.isEmpty && events.allSatisfy { $0?["event"] != nil }, "\(line): \(result.output)")
                } else if let flag = words.firstIndex(of: "-o"), flag + 1 < words.count, words.contains("--segment") {
                    // Segments: each closed one's path, a file under the folder (or the pattern's folder).
                    let target = words[flag + 1].trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                    let folder = directory.appendingPathComponent(String(target.prefix { $0 != "%" }))
                    let paths = result.output.split(separator: "\n").map(String.init)
                    #expect(!paths.isEmpty && paths.allSatisfy { $0.hasPrefix(folder.path) && FileManager.default.fileExists(atPath: $0) },
                            "\(line): \(result.output)")
                } else if let flag = words.firstIndex(of: "-o"), flag + 1 < words.count, !words.contains("--bracket") {
                    let file = directory.appendingPathComponent(words[flag + 1])
                    #expect(result.output == file.path + "\n" || result.output == words[flag + 1] + "\n", "\(line): \(result.output)")
                    #expect(FileManager.default.fileExists(atPath: file.path), "\(line) wrote \(file.path)")
                }
            default:
                Issue.record("README.md shows '\(line)', which this test does not know how to run: teach it, or show it in a text block")
            }
        }
    }
}
