import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with WebSocket upgrade, guarded: ``RequestHeadDeadline`` first
/// in every connection's pipeline, before HTTP's decoder, from the moment it is accepted; and
/// ``UpgradeGate`` between the decoder and the upgrade handler.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let headTimeout: TimeAmount
    let gate: @Sendable () -> UpgradeGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(timeout: headTimeout), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(gate(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with WebSocket upgrades on `router`, each connection closed when it takes longer
    /// than `limits` allow to send a request head or sits idle, and upgrades refused by
    /// `policy` or without `token` answered as other requests are.
    static func guarded<Router: HTTPResponderBuilder>(webSocketRouter router: Router, limits: CameraServer.Limits,
                                                      policy: RequestOriginPolicy, token: String?) -> HTTPServerBuilder
    where Router.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = router.buildResponder()
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [ResponseEndNotifier()],
                                               idleTimeout: .nanoseconds(Int64(limits.idleTimeout * 1e9)))
        let headTimeout = TimeAmount.nanoseconds(Int64(limits.requestHeadTimeout * 1e9))
        return HTTPServerBuilder { responder in
            GuardedChildChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                                     configuration: .init(http1: http1)),
                                 headTimeout: headTimeout, gate: { UpgradeGate(policy: policy, token: token) })
        }
    }
}
