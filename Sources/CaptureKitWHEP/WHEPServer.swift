@_spi(WHEP) import CaptureKit
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A WHEP endpoint's own HTTP server, for a `StreamTarget.whep(host:port:path:)` output:
/// Hummingbird at `http://host:port/path` with ``WHEPRoutes`` and CORS on every response
/// (``WHEPCORSMiddleware``).
///
/// The handlers run on Hummingbird's tasks; the viewers' work (which blocks on GStreamer)
/// runs on the output's own thread.
actor WHEPServer: WHEPSignalling.Server {
    typealias Handlers = WHEPSignalling.Handlers

    enum State {
        case idle
        case running(group: ServiceGroup, task: Task<Void, Never>)
        case stopped
    }

    let host: String
    let port: Int
    let path: String
    private let handlers: Handlers
    private var state = State.idle

    init(host: String, port: Int, path: String, handlers: Handlers) {
        self.host = host
        self.port = port
        self.path = path
        self.handlers = handlers
    }

    /// Listens; returns once the port is bound. Throws `streamFailed` naming the address when
    /// it cannot be bound (in use, not a local address).
    func start(target: StreamTarget) async throws(CaptureError) {
        guard case .idle = state else { return }
        var logger = Logger(label: "CaptureKit.WHEP")
        logger.logLevel = .warning
        let (bound, boundContinuation) = AsyncStream<Result<Void, any Error>>.makeStream()
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "CaptureKit"),
            onServerRunning: { _ in boundContinuation.yield(.success(())) },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
            } catch {
                boundContinuation.yield(.failure(error))
            }
            boundContinuation.finish()
        }
        state = .running(group: group, task: task)
        var iterator = bound.makeAsyncIterator()
        switch await iterator.next() {
        case .success?: return
        case .failure(let error)?:
            state = .stopped
            throw .streamFailed(target, message: "cannot serve WHEP there: \(error)")
        case nil:
            state = .stopped
            throw .streamFailed(target, message: "the WHEP server stopped at once")
        }
    }

    /// Stops listening and closes idle connections; returns once the port is free.
    func stop() async {
        guard case .running(let group, let task) = state else {
            state = .stopped
            return
        }
        state = .stopped
        await group.triggerGracefulShutdown()
        await task.value
    }

    private nonisolated func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.addMiddleware { WHEPCORSMiddleware() }
        let handlers = self.handlers, path = self.path
        WHEPRoutes.add(to: router, path: path, handlers: handlers, options: false)
        return router
    }
}
