import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The HTTP side of a WHEP endpoint (draft-ietf-wish-whep), served with Hummingbird at
/// `http://host:port/path`:
///
/// - `POST path` with an SDP offer (`Content-Type: application/sdp`): 201 Created, the answer
///   (every ICE candidate in it) and `Location: path/ID`, the viewer's session resource; 400
///   when the body is not an SDP offer, 406 when it has no H.264 video to answer.
/// - `DELETE path/ID`: 200, that viewer's session ends; 404 for an unknown ID.
/// - `PATCH path/ID` (trickle ICE): 405, the answer has every candidate already.
/// - `OPTIONS` and CORS headers on every response (``WHEPCORSMiddleware``).
///
/// The handlers run on Hummingbird's tasks; the viewers' work (which blocks on GStreamer)
/// runs on the ``Handlers``' own threads.
actor WHEPServer {
    /// What the server asks of its output.
    struct Handlers: Sendable {
        /// A new viewer for an offer: its session ID and the answer, or why not.
        let offer: @Sendable (WHEPOffer) async -> Result<(id: String, answer: String), CaptureError>
        /// Ends the viewer `id`; false when there is none.
        let end: @Sendable (String) async -> Bool
    }

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
            throw .streamFailed(target, message: "cannot serve WHEP on \(StreamTarget.bracketed(host)):\(port): \(error)")
        case nil:
            state = .stopped
            throw .streamFailed(target, message: "the WHEP server on \(StreamTarget.bracketed(host)):\(port) stopped at once")
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
        router.post(RouterPath(path)) { request, _ -> Response in
            let type = request.headers[.contentType]?.lowercased() ?? ""
            let body = try await request.body.collect(upTo: 256 * 1024)
            let text = String(buffer: body)
            guard type.hasPrefix("application/sdp"), text.hasPrefix("v=0") else {
                throw HTTPError(.badRequest, message: "expected an SDP offer (Content-Type: application/sdp, a body starting v=0); got Content-Type '\(type)' and \(body.readableBytes) bytes")
            }
            guard let offer = WHEPOffer(sdp: text) else {
                throw HTTPError(.notAcceptable, message: "the offer has no H.264 video in packetization mode 1 to answer")
            }
            switch await handlers.offer(offer) {
            case .success(let viewer):
                return Response(status: .created,
                                headers: [.contentType: "application/sdp", .location: "\(path)/\(viewer.id)"],
                                body: .init(byteBuffer: ByteBuffer(string: viewer.answer)))
            case .failure(let error):
                throw HTTPError(.serviceUnavailable, message: error.message)
            }
        }
        router.delete(RouterPath("\(path)/:id")) { _, context -> Response in
            let id = try context.parameters.require("id")
            guard await handlers.end(id) else { throw HTTPError(.notFound, message: "no WHEP session \(id)") }
            return Response(status: .ok)
        }
        router.patch(RouterPath("\(path)/:id")) { _, _ -> Response in
            Response(status: .methodNotAllowed, headers: [.allow: "DELETE, OPTIONS"])
        }
        return router
    }
}
