import Foundation
import Testing

/// Each device kind's code stays in its folder (`Sources/CaptureKit/Devices/Kinds/<Kind>/`):
/// nothing outside it (the core, or another kind) names the types it declares or the members it
/// adds to `CaptureDevice`, except the one registration line in `Kinds/DeviceKinds.swift`. The
/// core reaches a kind only through `DeviceKind`, `DeviceBackend`, `DeviceCapabilities` and
/// `DeviceController`, so adding a kind is its folder and that line. This reads the sources as
/// they are in the checkout, the way a reviewer would grep them.
@Suite struct DeviceKindBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CaptureKit")
    static let kinds = sources.appendingPathComponent("Devices/Kinds")

    /// The Swift files under `folder`, by path relative to it.
    static func swiftFiles(under folder: URL) throws -> [String: String] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        var files: [String: String] = [:]
        for path in paths where path.hasSuffix(".swift") {
            files[path] = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    /// The text without comment lines (documentation names other kinds' types freely).
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
    }

    /// What a kind's files declare: top-level types, and members of `extension CaptureDevice`.
    static func declarations(in files: [String]) throws -> (types: Set<String>, members: Set<String>) {
        let type = try Regex(#"(?m)^(?:(?:public|package|internal|final)\s+)*(?:struct|class|enum|protocol|actor)\s+(\w+)"#)
        let extensionBlock = try Regex(#"(?ms)^extension CaptureDevice\b[^{]*\{(.*?)^\}"#)
        let member = try Regex(#"(?m)^    (?:(?:public|package|internal|static|nonisolated|mutating)\s+)*(?:func|var|let)\s+(\w+)"#)
        var types: Set<String> = [], members: Set<String> = []
        for text in files {
            for match in text.matches(of: type) { if let name = match.output[1].substring { types.insert(String(name)) } }
            for block in text.matches(of: extensionBlock) {
                guard let body = block.output[1].substring else { continue }
                for match in body.matches(of: member) { if let name = match.output[1].substring { members.insert(String(name)) } }
            }
        }
        return (types, members)
    }

    @Test("no file outside a kind's folder names that kind's types or its CaptureDevice members, but the registration")
    func kindsStayInTheirFolders() throws {
        let all = try Self.swiftFiles(under: Self.sources)
        let kindNames = try FileManager.default.contentsOfDirectory(atPath: Self.kinds.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.kinds.appendingPathComponent(name).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        #expect(Set(kindNames).isSuperset(of: ["V4L2", "Libcamera", "PipeWire", "File", "Virtual", "Screen", "Microphone"]), "\(kindNames)")
        var crossings: [String] = []
        for kind in kindNames.sorted() {
            let folder = "Devices/Kinds/\(kind)/"
            let own = all.filter { $0.key.hasPrefix(folder) }
            let (types, members) = try Self.declarations(in: Array(own.values))
            #expect(!types.isEmpty, "\(kind) declares no type")
            // Simple word boundaries: Unicode ones take `V4L2Kind.self` for one word.
            let patterns = try types.sorted().map { ($0, try Regex("\\b\($0)\\b").wordBoundaryKind(.simple)) }
                + members.sorted().map { ($0, try Regex("\\.\($0)\\b").wordBoundaryKind(.simple)) }
            for (path, text) in all.sorted(by: { $0.key < $1.key }) where !path.hasPrefix(folder) && path != "Devices/Kinds/DeviceKinds.swift" {
                let code = Self.code(text)
                for (name, pattern) in patterns where code.contains(pattern) {
                    crossings.append("\(path) names \(kind)'s \(name)")
                }
            }
        }
        #expect(crossings.isEmpty, "\(crossings.joined(separator: "\n"))")
    }
}
