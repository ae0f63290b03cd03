import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `capture serve` as a user runs it: the URL printed, the token beyond loopback, a recording
/// finished by Ctrl-C, exit codes.
@Suite("capture serve", .serialized)
struct ServeCommandTests {
    /// A running `capture serve`, its standard output collected as it comes.
    final class Server: @unchecked Sendable {
        let process = Process()
        private let out = Pipe(), err = Pipe()
        private let lock = NSLock()
        private var collected = Data()

        /// `capture serve ARGUMENTS`; with `openFiles`, under that RLIMIT_NOFILE (prlimit); with
        /// `hosts`, with that file as /etc/hosts (bound over it in a mount namespace of its own).
        init(_ arguments: [String], openFiles: Int? = nil, hosts: URL? = nil, environment: [String: String] = [:]) throws {
            let capture = binaries.appendingPathComponent("capture")
            if let hosts {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
                process.arguments = ["--mount", "/bin/sh", "-c", #"mount --bind "$0" /etc/hosts && exec "$@""#, hosts.path, capture.path, "serve"] + arguments
            } else if let openFiles {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
                process.arguments = ["--nofile=\(openFiles):\(openFiles)", capture.path, "serve"] + arguments
            } else {
                process.executableURL = capture
                process.arguments = ["serve"] + arguments
            }
            if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            process.standardOutput = out
            process.standardError = err
            out.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else { return }
                self.lock.lock()
                self.collected.append(data)
                self.lock.unlock()
            }
            try process.run()
        }

        var output: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: collected, as: UTF8.self)
        }

        /// The URL it printed (`serving DEVICE at URL`), once it has.
        func url(seconds: Double = 20) -> URL? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, process.isRunning {
                if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }),
                   let text = line.split(separator: " ").last { return URL(string: String(text)) }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }

        /// Sends `signal` and waits for the exit: status and standard error.
        func stop(_ signal: Int32 = SIGINT) -> (Int32, String) {
            kill(process.processIdentifier, signal)
            let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, error)
        }
    }

    static func request(_ url: URL, method: String = "GET", token: String? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Whether this process may make mount namespaces (root, as `make test` runs).
    static let canRebindHosts = (try? runProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["--mount", "true"]))?.status == 0

    @Test("A listen name that looks like loopback but resolves to 0.0.0.0 gets a token; one that resolves to loopback and beyond is refused",
          .enabled(if: canRebindHosts, "needs mount namespaces (root) to give the server its own /etc/hosts"))
    func loopbackIsResolved() async throws {
        let directory = try scratchDirectory()
        let rebound = directory.appendingPathComponent("hosts-rebound")
        try "0.0.0.0 127.evil.test\n127.0.0.1 localhost\n".write(to: rebound, atomically: true, encoding: .utf8)
        let server = try Server(["-d", "virtual", "--preset", "vga640x480", "--listen", "127.evil.test:0", "--duration", "30",
                                 "--recordings", directory.appendingPathComponent("clips").path], hosts: rebound)
        let url = try #require(server.url(), "no URL printed: \(server.output)")
        let token = try #require(server.output.split(separator: "\n").first { $0.hasPrefix("token: ") }?.split(separator: " ").dropFirst().first,
                                 "a token is generated for every interface: \(server.output)")
        let state = try #require(URL(string: "http://127.0.0.1:\(url.port ?? 0)/api/state"))
        let (bare, _) = try await Self.request(state)
        #expect(bare == 401, "without the token: \(bare)")
        let (carried, _) = try await Self.request(state, token: String(token))
        #expect(carried == 200)
        #expect(server.stop(SIGINT).0 == 0)

        let mixed = directory.appendingPathComponent("hosts-mixed")
        try "127.0.0.1 mixed.test\n192.0.2.1 mixed.test\n127.0.0.1 localhost\n".write(to: mixed, atomically: true, encoding: .utf8)
        let refused = try Server(["-d", "virtual", "--listen", "mixed.test:0", "--duration", "5"], hosts: mixed)
        let (status, error) = refused.stop(0)
        #expect(status != 0 && error.contains("mixed.test") && error.contains("127.0.0.1, 192.0.2.1"), "\(status): \(error)")
    }

    @Test("Prints its URL, records through the API, and on SIGINT finishes the recording and exits 0")
    func recordAndInterrupt() async throws {
        let directory = try scratchDirectory()
        let recordings = directory.appendingPathComponent("clips")
        let server = try Server(["-d", "virtual", "--preset", "vga640x480", "--listen", "127.0.0.1:0", "--recordings", recordings.path])
        let url = try #require(server.url(), "no URL printed: \(server.output)")
        #expect(url.host == "127.0.0.1" && url.port != 0 && url.query == nil, "\(url)")
        let (started, body) = try await Self.request(url.appendingPathComponent("api/record/start"), method: "POST")
        #expect(started == 201, "\(String(decoding: body, as: UTF8.self))")
        try await Task.sleep(for: .seconds(2))
        let (status, error) = server.stop(SIGINT)
        #expect(status == 0, "\(error)")
        #expect(server.output.contains("stopped"))
        let files = try FileManager.default.contentsOfDirectory(atPath: recordings.path).filter { $0.hasSuffix(".mp4") }
        #expect(files.count == 1, "\(files)")
        let probe = try Probe(recordings.appendingPathComponent(try #require(files.first)))
        let video = try #require(probe.stream("video"), "\(probe.fields)")
        #expect(probe.duration > 1 && probe.field(video, "width") == "640", "a finished movie: \(probe.fields)")
    }

    @Test("Beyond loopback a token is generated and printed; requests without it get 401; SIGTERM exits 0")
    func generatedToken() async throws {
        let server = try Server(["-d", "virtual", "--preset", "vga640x480", "--listen", "0.0.0.0:0", "--recordings", try scratchDirectory().path])
        let url = try #require(server.url(), "no URL printed: \(server.output)")
        let token = try #require(server.output.split(separator: "\n").first { $0.hasPrefix("token: ") }?.split(separator: " ")[1], "\(server.output)")
        #expect(token.count == 43 && url.query == "token=\(token)", "\(server.output)")
        let local = URL(string: "http://127.0.0.1:\(url.port!)/api/state")!
        let (bare, bareBody) = try await Self.request(local)
        #expect(bare == 401 && bareBody.isEmpty)
        let (authorized, _) = try await Self.request(local, token: String(token))
        #expect(authorized == 200)
        let (query, _) = try await Self.request(URL(string: "http://127.0.0.1:\(url.port!)/api/state?token=\(token)")!)
        #expect(query == 200)
        let (status, error) = server.stop(SIGTERM)
        #expect(status == 0, "\(error)")
    }

    @Test("A bad --listen is a usage error (exit 2) naming the form; an unknown device exits 1")
    func badArguments() throws {
        let listen = try runProcess(binaries.appendingPathComponent("capture"), ["serve", "-d", "virtual", "--listen", "localhost"])
        #expect(listen.status == 2 && listen.error.contains("HOST:PORT"), "\(listen.error)")
        let ipv6 = try runProcess(binaries.appendingPathComponent("capture"), ["serve", "-d", "virtual", "--listen", "::1:8080"])
        #expect(ipv6.status == 2 && ipv6.error.contains("bracket"), "\(ipv6.error)")
        let device = try runProcess(binaries.appendingPathComponent("capture"), ["serve", "-d", "no-such-camera", "--listen", "127.0.0.1:0"])
        #expect(device.status == 1 && device.error.contains("no-such-camera"), "\(device.error)")
    }

    @Test("--segment with --on motion: a patch entering the virtual scene marks a motion event in the continuous recording where it entered; --on without --segment, or with signal, is a usage error naming it")
    func motionEvents() async throws {
        let directory = try scratchDirectory()
        // The moving square stands still; a patch enters 3 s into the frames' clock, for 1.5 s.
        let server = try Server(["-d", "virtual", "--preset", "vga640x480", "--listen", "127.0.0.1:0", "--recordings", directory.path,
                                 "--segment", "1", "--on", "motion", "--pre", "1", "--post", "1"],
                                environment: ["CAPTUREKIT_VIRTUAL_MOVERS": "3-4.5@0.6,0.3,0.2,0.25", "CAPTUREKIT_VIRTUAL_SQUARE": "still"])
        let url = try #require(server.url(), "no URL printed: \(server.output)")
        let listing = url.appendingPathComponent("api/recordings")
        var events: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(25)
        while Date() < deadline {
            let (_, body) = try await Self.request(listing)
            events = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["events"] as? [[String: Any]] ?? []
            if events.contains(where: { $0["end"] is String }) { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        let (status, error) = server.stop(SIGINT)
        #expect(status == 0, "\(error)")
        #expect(events.count == 1, "one event, for the one patch: \(events)")
        let event = try #require(events.first)
        #expect(event["kinds"] as? [String] == ["motion"], "\(event)")
        let bounds = event["bounds"] as? [Double] ?? []
        let patch = [0.6, 0.3, 0.2, 0.25]
        #expect(bounds.count == 4 && zip(bounds, patch).allSatisfy { abs($0 - $1) < 0.07 }, "bounds \(bounds), the patch \(patch)")

        let capture = binaries.appendingPathComponent("capture")
        let alone = try runProcess(capture, ["serve", "-d", "virtual", "--on", "motion"])
        #expect(alone.status == 2 && alone.error.contains("--on marks events in the continuous recording: give --segment too"), "\(alone.error)")
        let signal = try runProcess(capture, ["serve", "-d", "virtual", "--segment", "1", "--on", "signal"])
        #expect(signal.status == 2 && signal.error.contains("--on 'signal' is not a trigger: give one or more of code, face, motion"), "\(signal.error)")
        let ignore = try runProcess(capture, ["serve", "-d", "virtual", "--segment", "1", "--on", "face", "--motion-ignore", "0,0,1,0.2"])
        #expect(ignore.status == 2 && ignore.error.contains("--motion-ignore applies to motion: give --on motion"), "\(ignore.error)")
    }
}
