import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// Answers a WebSocket upgrade that ``RequestOriginPolicy`` or the token refuses with the
/// same status as any other request (401, 403, 421), before NIO's upgrade handler sees it:
/// that handler turns every refused upgrade into a bare 400. Sits between HTTP's decoder and
/// the upgrade handler for a connection's first request (the only one that may upgrade), then
/// takes itself out. A first request that is not HTTP at all (the decoder fails on it) gets a
/// 400 and the connection is closed: nothing after this handler would close it. On the
/// channel's event loop.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let policy: RequestOriginPolicy
    let token: String?
    private var refused = false

    init(policy: RequestOriginPolicy, token: String?) {
        self.policy = policy
        self.token = token
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        switch verdict(on: head) {
        case .pass:
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .refuse(let error):
            respond(context, version: head.version, error: error)
        case .askForToken:
            respond(context, version: head.version, error: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !refused else { return context.fireErrorCaught(error) }
        respond(context, version: .http1_1,
                error: APIError.badRequest("malformedRequest", "the request is not HTTP/1.1 (\(error)); valid: a request line and headers"))
    }

    /// Answers `error` (nil: a bare 401 asking for the token) and closes the connection.
    private func respond(_ context: ChannelHandlerContext, version: HTTPVersion, error: APIError?) {
        refused = true
        var headers = HTTPHeaders([("Connection", "close")])
        var body = ByteBuffer()
        if let error {
            body = ByteBuffer(string: error.body + "\n")
            headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        } else {
            headers.add(name: "WWW-Authenticate", value: "Bearer")
        }
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        let status = HTTPResponseStatus(statusCode: error.map { Int($0.status.code) } ?? 401)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    /// What to do with a first request.
    enum Verdict {
        /// Not an upgrade, or an upgrade allowed: on to the upgrade handler.
        case pass
        /// An upgrade `RequestOriginPolicy` refuses (421, 403).
        case refuse(APIError)
        /// An upgrade without the token: a bare 401, as ``TokenMiddleware`` answers.
        case askForToken
    }

    private func verdict(on head: HTTPRequestHead) -> Verdict {
        guard head.headers["Upgrade"].contains(where: { $0.lowercased().contains("websocket") }) else { return .pass }
        let path = String(head.uri.prefix { $0 != "?" })
        if let refusal = policy.refusal(method: head.method.rawValue, host: head.headers["Host"].first,
                                        origin: head.headers["Origin"].first, upgrade: "websocket") {
            return .refuse(OriginMiddleware<BasicRequestContext>.error(refusal, method: head.method.rawValue, path: path, policy: policy))
        }
        if let token {
            let given = URI(head.uri).queryParameters.getAll("token").map { String($0) }
            guard TokenMiddleware<BasicRequestContext>.carries(authorization: head.headers["Authorization"].first, query: given, token: token) else {
                return .askForToken
            }
        }
        return .pass
    }
}
