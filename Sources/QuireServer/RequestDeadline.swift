import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request does not arrive whole within ``seconds``: counted from the
/// connection's opening, or from the last answer on a connection kept open. A client that sends its
/// head or body a byte at a time (every byte would restart an idle timer) holds one of the
/// server's few connections for that long at most, not for as long as it likes. A request read
/// whole stops the clock while it is answered, however long that takes (the live feed of changes
/// streams for as long as the page is open).
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a request may take to arrive whole.
    let seconds: Int64
    /// Requests read whole and not yet answered.
    private var unanswered = 0
    /// The close that is due unless the request arrives first.
    private var pending: Scheduled<Void>?

    init(seconds: Int64) { self.seconds = seconds }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            unanswered += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 { arm(context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard pending == nil else { return }
        let channel = context.channel
        pending = context.eventLoop.scheduleTask(in: .seconds(seconds)) { channel.close(promise: nil) }
    }

    private func disarm() {
        pending?.cancel()
        pending = nil
    }
}
