import CaptureKit
import Foundation
import Hummingbird
import HummingbirdWebSocket
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The web camera app behind `capture serve`: one capture session served over HTTP to the
/// page at `/` and to any program, with WebRTC (WHEP) viewers sharing one encode.
///
/// Run it as a swift-service-lifecycle `Service`; a graceful shutdown (SIGINT or SIGTERM in
/// a `ServiceGroup` set up for them) finishes a recording in progress, ends the streams and
/// stops the camera, then ``run()`` returns.
///
/// ```swift
/// let server = try CameraServer(configuration: .init(device: "virtual", port: 8080))
/// let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [.sigint, .sigterm],
///                                               logger: Logger(label: "serve")))
/// try await group.run()
/// ```
///
/// The HTTP API (the README's "Camera app in the browser" lists it in full): `GET /api/devices`,
/// `GET /api/state`, `POST /api/device`, `POST /api/controls`, `POST /api/snap`,
/// `POST /api/record/start`, `POST /api/record/stop`, `GET /recordings/`,
/// `GET /recordings/NAME`, `GET /mjpeg`, `GET /snapshot.jpg`, `POST /whep` (and `DELETE /whep/ID`),
/// `GET /ws/metadata` (WebSocket). Errors are `{"error": {"code": …, "message": …}}` with a
/// 4xx status.
public actor CameraServer: Service {
    enum State {
        case idle
        case starting
        case running(port: Int)
        case stopping
        case stopped
        case failed(CaptureError)
    }

    /// What the server was configured with.
    public nonisolated let configuration: Configuration
    nonisolated let camera: ServerCamera
    /// `GET /snapshot.jpg`'s stills.
    nonisolated let snapshots: Snapshots
    /// The address bound, as resolved when the server was made.
    nonisolated let address: ListenAddress
    private var state = State.idle
    private var listeners: [CheckedContinuation<Int, any Error>] = []

    /// A server for `configuration`: it opens the camera now (throws `deviceNotFound` for an
    /// unknown one) and the recordings' folder (created if need be); it listens from ``run()``.
    /// Throws `invalidSetting` for a host beyond loopback without a token (decided on the
    /// addresses the host resolves to), and for the other mistakes ``Configuration`` lists.
    /// The camera is found among `context`'s devices, and its session is of that context.
    public init(configuration: Configuration, context: CaptureContext = .shared) throws(CaptureError) {
        address = try configuration.validate()
        let recordings: RecordingsDirectory
        do {
            recordings = try RecordingsDirectory(configuration.recordingsDirectory)
        } catch {
            throw .invalidSetting(name: "recordings folder", value: configuration.recordingsDirectory.path,
                                  valid: "a folder that exists or can be created (\(error.localizedDescription))")
        }
        self.configuration = configuration
        camera = try ServerCamera(device: configuration.device, preset: configuration.preset, recordings: recordings, context: context,
                                  continuous: configuration.segmentDuration.map {
                                      .init(segmentDuration: $0, retention: configuration.segmentRetention, events: configuration.eventRecording,
                                            triggers: configuration.eventTriggers, motion: configuration.motionDetection)
                                  }, overlay: configuration.videoOverlay)
        snapshots = Snapshots(camera: camera)
    }

    /// The page's folder (index.html, app.js, style.css).
    static var pageFolder: URL? { Bundle.module.url(forResource: "Page", withExtension: nil) }

    /// Starts the camera, listens, and serves until a graceful shutdown (or cancellation);
    /// then finishes a recording, ends the streams and stops the camera. Throws when the camera
    /// cannot start or the address cannot be bound. Runs once.
    public func run() async throws {
        guard case .idle = state else {
            throw CaptureError(code: .invalidSetting, message: "the camera server runs once; make a new one to run again")
        }
        state = .starting
        var logger = Logger(label: "CaptureServer.http")
        logger.logLevel = .warning
        do {
            try await camera.start()
            let policy = RequestOriginPolicy(hosts: configuration.serverHosts(address), origins: configuration.allowedOrigins)
            let router = ServerRoutes(camera: camera, page: Self.pageFolder, snapshots: snapshots).router(token: configuration.token, policy: policy)
            let limits = configuration.limits
            let app = Application(
                router: router,
                server: .guarded(webSocketRouter: router, limits: limits, policy: policy, token: configuration.token),
                configuration: .init(address: .hostname(address.address, port: configuration.port), serverName: "CaptureKit",
                                     availableConnectionsDelegate: MaximumAvailableConnections(limits.effectiveMaximumConnections)),
                onServerRunning: { [weak self] channel in await self?.listening(on: channel) },
                logger: logger
            )
            let camera = self.camera
            try await withGracefulShutdownHandler {
                try await app.run()
            } onGracefulShutdown: {
                // Long-lived responses (MJPEG, WebSockets) end, so the server can close.
                camera.metadata.finishAll()
                camera.frames.finishAll()
            }
        } catch {
            await camera.stop()
            let failure = (error as? CaptureError)
                ?? CaptureError(code: .streamFailed, message: "cannot serve on \(configuration.host):\(configuration.port): \(error)", underlyingError: error)
            fail(failure)
            throw failure
        }
        state = .stopping
        await camera.stop()
        fail(CaptureError(code: .sessionNotRunning, message: "the camera server stopped"))
        state = .stopped
    }

    /// The server listens on `channel` (bound to ``address``: the numeric address the host
    /// was resolved to and checked as, so a name resolved again at bind time cannot move it).
    private func listening(on channel: any Channel) {
        let port = channel.localAddress?.port ?? 0
        state = .running(port: port)
        for listener in listeners { listener.resume(returning: port) }
        listeners = []
    }

    private func fail(_ error: CaptureError) {
        if case .starting = state { state = .failed(error) } else if case .running = state { state = .failed(error) }
        for listener in listeners { listener.resume(throwing: error) }
        listeners = []
    }

    /// The port the server listens on, once it does (at once when it already does). Throws
    /// when it failed to start or has stopped.
    public func waitUntilListening() async throws -> Int {
        switch state {
        case .running(let port): return port
        case .failed(let error): throw error
        case .stopping, .stopped: throw CaptureError(code: .sessionNotRunning, message: "the camera server stopped")
        case .idle, .starting:
            return try await withCheckedThrowingContinuation { listeners.append($0) }
        }
    }

    /// The page's URL for this server: `http://HOST:PORT/`, with `?token=` when there is one.
    public func pageURL() async throws -> URL {
        let port = try await waitUntilListening()
        let host = configuration.host == "0.0.0.0" || configuration.host == "::" ? Self.hostName() : configuration.host
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let query = configuration.token.map { "?token=\($0)" } ?? ""
        return URL(string: "http://\(bracketed):\(port)/\(query)")!
    }

    /// This machine's name, for a URL when listening on every interface.
    static func hostName() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }
}
