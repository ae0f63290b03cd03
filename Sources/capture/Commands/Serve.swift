import ArgumentParser
import CaptureFiles
import CaptureKit
import CaptureServer
import Foundation
import Logging
import ServiceLifecycle

/// `capture serve`: the camera app in the browser, and its HTTP API.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a camera app to browsers: live view (WebRTC), snap, record, zoom, torch, focus, codes and faces.",
        discussion: """
            Open the printed URL in a browser. The page uses only the HTTP API, which other \
            programs can use too (see README, "Camera app in the browser"): GET /api/devices, \
            GET /api/state, POST /api/device, POST /api/controls, POST /api/snap, \
            POST /api/record/start, POST /api/record/stop, GET /recordings/, GET /recordings/NAME, \
            GET /mjpeg, POST /whep, GET /ws/metadata (WebSocket).
            With --segment it also records all the time into the recordings' continuous/ folder, \
            which the page's Timeline and GET /api/recordings, /api/export, /api/thumbnail.jpg \
            and /api/hls.m3u8 read by time; events are marked there by POST /api/events and, \
            with --on code,face,motion, by what the camera sees (GET /ws/events tells each).
            Listens on 127.0.0.1:8080 unless --listen says otherwise. Listening beyond loopback \
            requires a token: --token, or one is generated and printed; every request must then \
            carry it (Authorization: Bearer TOKEN, or ?token=TOKEN), others get 401. Requests \
            whose Host is not this server's get 421, and requests from another web site's page \
            (a foreign Origin) that change something or open a WebSocket get 403, unless \
            --allow-origin names that origin. A connection has 30 s to send a request's \
            headers and may idle 120 s; at most 512 are open at once. Runs until \
            --duration or Ctrl-C (SIGINT/SIGTERM): a recording in progress is finished, then it \
            exits 0.
            """
    )

    @Option(name: .shortAndLong, help: .device)
    var device = "default"

    @Option(help: "HOST:PORT to listen on ([::1]:PORT for IPv6; :PORT for every interface; port 0 takes a free one).")
    var listen = "127.0.0.1:8080"

    @Option(help: "The token every request must carry (default: none on loopback, a generated one elsewhere).")
    var token: String?

    @Option(help: "The folder recordings go to and /recordings/ serves.")
    var recordings = "recordings"

    @Option(help: "Session preset, e.g. high, vga640x480, hd1280x720.")
    var preset: SessionPreset = .high

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Record all the time in segments of this many seconds (1 to 86400) into the recordings' continuous/ folder; /api/recordings, /api/export and /api/events then read and mark it by time.",
        valueName: "seconds"),
            transform: Seconds.positive)
    var segment: Double?

    @OptionGroup var retention: RetentionArguments

    @OptionGroup var eventOptions: EventArguments

    @OptionGroup var overlayOptions: OverlayArguments

    @Option(parsing: .unconditional, help: "Stop after this many seconds (greater than 0, at most 365 days).", transform: Seconds.positive)
    var duration: Double?

    @Option(name: .customLong("allow-origin"),
            help: ArgumentHelp("An origin besides the page's own that may use the API (a reverse proxy's https://camera.example.com, a WHEP player's page); repeatable.",
                               valueName: "scheme://host[:port]"))
    var allowedOrigins: [String] = []

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        _ = try address()
        try overlayOptions.checkUsage()
        if let token, token.isEmpty || token.contains(where: \.isWhitespace) {
            throw ValidationError("--token must be a non-empty token without spaces")
        }
        if let segment, !(1...86400).contains(segment) {
            throw ValidationError("--segment \(segment) is out of range: a number of seconds from 1 to 86400 (a day)")
        }
        if segment == nil, retention.isGiven { throw ValidationError("--keep and --max-disk apply to the continuous recording: give --segment too") }
        if segment == nil, eventOptions.on != nil { throw ValidationError("--on marks events in the continuous recording: give --segment too") }
        try eventOptions.checkUsage(allowed: Self.triggerKinds)
    }

    /// What `--on` takes here: what the camera sees (events also come from POST /api/events).
    static let triggerKinds = ["code", "face", "motion"]

    /// --listen as host and port.
    func address() throws -> (host: String, port: Int) {
        let text = listen
        let usage = "--listen \(text) is not HOST:PORT (e.g. 127.0.0.1:8080, 0.0.0.0:8080, [::1]:8080, :8080) with a port 0…65535"
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError(usage)
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw ValidationError(usage) }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw ValidationError(usage + "; bracket an IPv6 address")
        }
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }

    func run() async throws {
        global.bootstrapLogging()
        let (host, port) = try address()
        var configuration = CameraServer.Configuration(device: device, host: host, port: port, token: token,
                                                       recordingsDirectory: URL(fileURLWithPath: recordings, isDirectory: true), preset: preset,
                                                       allowedOrigins: allowedOrigins, segmentDuration: segment,
                                                       segmentRetention: retention.retention,
                                                       eventTriggers: Set(try eventOptions.kinds(allowed: Self.triggerKinds).compactMap(MetadataEventTrigger.Kind.init(rawValue:))),
                                                       eventRecording: eventOptions.recording(writesClips: false), motionDetection: eventOptions.motion,
                                                       videoOverlay: overlayOptions.videoOverlay)
        var generated = false
        if configuration.token == nil, !configuration.isLoopback {
            configuration.token = CameraServer.Configuration.generateToken()
            generated = true
        }
        let server = try CameraServer(configuration: configuration)
        var logger = Logger(label: "capture.serve")
        logger.logLevel = .error
        let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let announce = Task {
            guard let url = try? await server.pageURL() else { return }
            var lines = generated ? ["token: \(configuration.token ?? "") (generated; every request must carry it)"] : []
            lines.append("serving \(server.configuration.device) at \(url.absoluteString)")
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
        let timer = Task {
            guard let duration else { return }
            try await Task.sleep(for: .seconds(duration))
            _ = try? await server.waitUntilListening()
            await group.triggerGracefulShutdown()
        }
        defer {
            timer.cancel()
            announce.cancel()
        }
        do {
            try await group.run()
        } catch let error as ServiceGroupError {
            throw RuntimeFailure(message: "\(error)")
        }
        FileHandle.standardOutput.write(Data("stopped\n".utf8))
    }
}
