import Foundation
import NIOCore

/// At most ``perClient`` connections open at once from one address: a client that opens more
/// (thousands that never finish their request) has each one past the limit closed at once, and
/// the server's few connections stay free for the others. Shared by every connection's
/// ``ConnectionLimiter/Handler``.
final class ConnectionLimiter: @unchecked Sendable {
    /// Connections one address may hold (a browser opens six to a host, and one more per open
    /// page for the live changes).
    let perClient: Int
    private let lock = NSLock()
    private var open: [String: Int] = [:]

    init(perClient: Int) { self.perClient = perClient }

    /// Counts a connection from `address`; false (not counted) when it already holds its limit.
    func admit(_ address: String) -> Bool {
        lock.withLock {
            let held = open[address, default: 0]
            guard held < perClient else { return false }
            open[address] = held + 1
            return true
        }
    }

    /// A counted connection from `address` closed.
    func release(_ address: String) {
        lock.withLock {
            let held = (open[address] ?? 1) - 1
            open[address] = held > 0 ? held : nil
        }
    }

    /// Connections open from `address` now.
    func held(by address: String) -> Int { lock.withLock { open[address, default: 0] } }

    /// A connection's place in the count: admitted when it opens, released when it closes.
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let limiter: ConnectionLimiter
        private var counted: String?

        init(limiter: ConnectionLimiter) { self.limiter = limiter }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) { release() }

        private func admit(_ context: ChannelHandlerContext) {
            guard counted == nil else { return }
            let address = context.channel.remoteAddress?.ipAddress ?? "?"
            if limiter.admit(address) {
                counted = address
            } else {
                context.close(promise: nil)
            }
        }

        private func release() {
            if let address = counted { limiter.release(address) }
            counted = nil
        }
    }
}
