import Foundation
import Testing

/// README's "Supported systems" table tells users of other distributions which GStreamer
/// elements each feature needs. It must name real elements (the packages `make test` installs
/// have them all, and one of each "any one of" set), and every element the golden pipelines of
/// `Tests/CaptureFilesTests/Golden` use must be in it.
@Suite("README's element table")
struct ReadmeElementsTests {
    /// The table's rows: (feature, elements all needed, elements any one of which will do).
    static func rows() throws -> [(feature: String, needed: [String], anyOf: [String])] {
        let text = try String(contentsOf: ReadmeCommandTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Supported systems").dropFirst().first?
            .components(separatedBy: "\n## ").first, "README.md has no Supported systems section")
        func elements(_ cell: Substring) -> [String] {
            cell.matches(of: #/`([a-z0-9]+)`/#).map { String($0.1) }
        }
        return section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| feature") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces)[...] }
            return (String(cells[1]), elements(cells[2]), elements(cells[3]))
        }
    }

    static func exists(_ element: String) throws -> Bool {
        try runProcess(URL(fileURLWithPath: "/usr/bin/gst-inspect-1.0"), ["--exists", element]).status == 0
    }

    @Test("every element the table needs exists here, and one of each 'any one of' set")
    func elementsExist() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 10, "\(rows)")
        for row in rows {
            let missing = try row.needed.filter { try !Self.exists($0) }
            #expect(missing.isEmpty, "\(row.feature): \(missing) not in this GStreamer's registry")
            if !row.anyOf.isEmpty {
                #expect(try row.anyOf.contains { try Self.exists($0) }, "\(row.feature): none of \(row.anyOf) here")
            }
        }
    }

    @Test("every element of the golden pipelines is in the table")
    func goldenElementsListed() throws {
        let listed = Set(try Self.rows().flatMap { $0.needed + $0.anyOf })
        let golden = ReadmeCommandTests.root.appendingPathComponent("Tests/CaptureFilesTests/Golden")
        var used: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(at: golden, includingPropertiesForKeys: nil) where file.lastPathComponent.hasSuffix(".launch.txt") {
            let line = try String(contentsOf: file, encoding: .utf8)
            // An element is a factory name followed by its `name=`.
            for match in line.matches(of: #/(?:^|! |\s)([a-z0-9]+) name=/#) { used.insert(String(match.1)) }
        }
        #expect(used.count >= 10, "\(used.sorted())")
        #expect(used.subtracting(listed).isEmpty, "not in README's table: \(used.subtracting(listed).sorted())")
    }
}
