import Foundation
import Testing

/// `capture record --webhook`: events reach a real HTTP receiver (Python's http.server) through
/// its failures, and a dead receiver holds up neither the recording nor its end.
@Suite("capture record --webhook")
struct EventWebhookCommandTests {
    /// An HTTP receiver on a free loopback port: answers 503 to the first `failures` POSTs,
    /// then 200, appending each accepted body as a line to `log`; prints its port first.
    static let receiver = """
    import http.server, sys
    failures = int(sys.argv[1]); log = sys.argv[2]; seen = [0]
    class Hook(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers['Content-Length']))
            seen[0] += 1
            if seen[0] <= failures:
                self.send_response(503); self.end_headers(); return
            with open(log, 'ab') as f: f.write(body + b'\\n')
            self.send_response(204); self.end_headers()
        def log_message(self, *args): pass
    server = http.server.HTTPServer(('127.0.0.1', 0), Hook)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

    @Test("each event's start and end is POSTed as the --events JSON, in order, after the receiver's first two refusals")
    func delivered() throws {
        let directory = try scratchDirectory()
        let log = directory.appendingPathComponent("received.jsonl")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-c", Self.receiver, "2", log.path]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        // SIGKILL: the test process may ignore SIGTERM, and a child inherits that.
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let port = try #require(out.fileHandleForReading.availableLine(within: 10))
        let record = Process()
        record.executableURL = binaries.appendingPathComponent("capture")
        record.arguments = ["record", "-d", "virtual", "--preset", "vga640x480", "--on", "signal", "--pre", "0", "--post", "0.5",
                            "--duration", "4", "--webhook", "http://127.0.0.1:\(port)/hook", "-o", directory.appendingPathComponent("shed").path + "/"]
        record.standardOutput = FileHandle.nullDevice
        record.standardError = FileHandle.nullDevice
        try record.run()
        Thread.sleep(forTimeInterval: 2)
        kill(record.processIdentifier, SIGUSR1)
        record.waitUntilExit()
        #expect(record.terminationStatus == 0)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0["event"] as? String } == ["start", "end"], "\(lines)")
        #expect(events.allSatisfy { $0["kinds"] as? [String] == ["signal"] }, "\(lines)")
        let clip = try #require(events.last?["clip"] as? String)
        #expect(FileManager.default.fileExists(atPath: clip), "\(clip)")
    }

    @Test("a receiver that is not there: the recording keeps its length and its segments, and ends by giving up what it could not deliver")
    func deadReceiver() throws {
        let directory = try scratchDirectory()
        // A port nothing listens on: bound, then closed.
        let port = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"),
                                  ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let record = Process()
        record.executableURL = binaries.appendingPathComponent("capture")
        record.arguments = ["record", "-d", "virtual", "--preset", "vga640x480", "--on", "code", "--pre", "0", "--post", "1",
                            "--segment", "1", "--duration", "3", "--webhook", "http://127.0.0.1:\(port)/hook", "-o", directory.appendingPathComponent("yard").path + "/"]
        let out = Pipe(), error = Pipe()
        record.standardOutput = out
        record.standardError = error
        try record.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        record.waitUntilExit()
        #expect(record.terminationStatus == 0, "\(complaints)")
        // Three seconds of segments, all closed and listed, whatever the receiver did.
        let segments = printed.split(separator: "\n").filter { $0.hasSuffix(".mp4") && !$0.contains("/clips/") }
        #expect(segments.count >= 3, "\(printed)")
        // It ended by giving up the undelivered events, not by delivering them.
        #expect(complaints.contains("webhook: gave up an event"), "\(complaints)")
    }
}
