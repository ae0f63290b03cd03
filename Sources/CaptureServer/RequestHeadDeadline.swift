import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not send a whole request head (request line and headers, up
/// to the blank line) within ``timeout`` of opening, or of sending the first byte of a later
/// request: slow senders, half-sent heads, and connections that say nothing at all. It reads
/// the raw bytes, first in the pipeline, since HTTP's own handlers see nothing until a head is
/// complete (and the WebSocket upgrade adds the idle timer only after the first one).
///
/// After a head it waits: the body and the response are ``HTTPConnectionStateHandler``'s idle
/// timer's. A ``ResponseEnded`` event (sent toward the front by ``ResponseEndNotifier``, on
/// the channel's event loop) puts it back to waiting for the next request's first byte.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A response ended: the connection may start its next request.
    struct ResponseEnded: Sendable {}

    enum State {
        /// Reading a head: `matched` bytes of `\r\n\r\n` seen at the end of what came.
        case awaitingHead(matched: Int)
        /// A head came; its body or response goes on.
        case afterHead
        /// Between requests: the next byte starts a head.
        case idle
    }

    let timeout: TimeAmount
    private var state = State.awaitingHead(matched: 0)
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil, case .awaitingHead = state { arm(context) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .afterHead:
            break
        case .idle:
            state = .awaitingHead(matched: 0)
            arm(context)
            scan(unwrapInboundIn(data))
        case .awaitingHead:
            scan(unwrapInboundIn(data))
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ResponseEnded else { return context.triggerUserOutboundEvent(event, promise: promise) }
        if case .afterHead = state { state = .idle }
        promise?.succeed(())
    }

    /// Looks for the blank line that ends a head; cancels the timer when it comes.
    private func scan(_ buffer: ByteBuffer) {
        guard case .awaitingHead(var matched) = state else { return }
        let ending: [UInt8] = [13, 10, 13, 10]
        for byte in buffer.readableBytesView {
            if byte == ending[matched] {
                matched += 1
                if matched == 4 {
                    state = .afterHead
                    timer?.cancel()
                    timer = nil
                    return
                }
            } else {
                matched = byte == 13 ? 1 : 0
            }
        }
        state = .awaitingHead(matched: matched)
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        // The task runs on the channel's loop, where handler and context belong; it holds the
        // handler until it fires or is cancelled (re-armed, removed).
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            guard case .awaitingHead = loopBound.value.handler.state else { return }
            loopBound.value.context.close(promise: nil)
        }
    }
}

/// Tells ``RequestHeadDeadline`` when each response ends; after HTTP's decoding, on the
/// channel's event loop.
final class ResponseEndNotifier: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ended = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if ended { context.triggerUserOutboundEvent(RequestHeadDeadline.ResponseEnded(), promise: nil) }
    }
}
