import Foundation
import Testing

/// No lock is held across a wait: in CaptureKit and GStreamerSwift, the body of every
/// `withLock` (the only locks they take: `Mutex`) makes no blocking call — no semaphore or
/// group wait, no sleep, no `sync` onto a queue, no GStreamer state change, no `await`. The
/// session's executor is a queue, not a lock, and the waits that remain (a blocking caller's
/// wait for its request) are on the caller's own thread. This reads the sources as they are in
/// the checkout, the way a reviewer would grep them.
@Suite struct LockDisciplineTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    static let blocking = [".wait(", "usleep(", "Thread.sleep", ".sync {", ".sync(", "setState(", "await "]

    /// The bodies of the `withLock` closures in `text`, with the line each starts on.
    static func lockedBodies(in text: String) -> [(line: Int, body: Substring)] {
        var bodies: [(Int, Substring)] = []
        var searchFrom = text.startIndex
        while let call = text.range(of: "withLock", range: searchFrom..<text.endIndex) {
            searchFrom = call.upperBound
            guard let open = text[call.upperBound...].firstIndex(of: "{"),
                  text[call.upperBound..<open].allSatisfy({ $0 == "(" || $0 == " " }) else { continue }
            var depth = 0, index = open
            while index < text.endIndex {
                if text[index] == "{" { depth += 1 } else if text[index] == "}" { depth -= 1; if depth == 0 { break } }
                index = text.index(after: index)
            }
            bodies.append((text[..<call.lowerBound].filter { $0 == "\n" }.count + 1, text[open..<index]))
        }
        return bodies
    }

    @Test("no withLock body in CaptureKit or GStreamerSwift blocks: no wait, sleep, sync, state change or await")
    func noWaitUnderALock() throws {
        var found: [String] = []
        for module in ["CaptureKit", "GStreamerSwift"] {
            let folder = Self.sources.appendingPathComponent(module)
            for case let path as String in FileManager.default.enumerator(atPath: folder.path)! where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                for (line, body) in Self.lockedBodies(in: text) {
                    for call in Self.blocking where body.contains(call) { found.append("\(module)/\(path):\(line): \(call)") }
                }
            }
        }
        #expect(found.isEmpty, "a lock held across a blocking call: \(found)")
        let planted = Self.lockedBodies(in: "state.withLock { state in\n  if x { done.wait() }\n}\nother.withLock { $0 = 1 }")
        #expect(planted.count == 2 && planted[0].body.contains(".wait(") && planted[0].line == 1, "the scan finds a wait it is shown")
    }
}
