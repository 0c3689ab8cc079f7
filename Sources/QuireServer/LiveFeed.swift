import Foundation
import QuireSupport

/// The pages listening for changes (server-sent events): each gets every batch of changed notes.
final class LiveFeed: @unchecked Sendable {
    private var listeners: [UUID: AsyncStream<String>.Continuation] = [:]
    /// The listeners' IDs, oldest first.
    private var order: [UUID] = []
    private let lock = NSLock()
    /// Pages listening at once, at most (each holds a connection).
    static let maximumListeners = 64

    /// A stream of events for one page; it ends when the page goes away or too many listen.
    func listen() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        lock.withLock {
            if listeners.count >= Self.maximumListeners, let oldest = order.first {
                order.removeFirst()
                listeners.removeValue(forKey: oldest)?.finish()
            }
            listeners[id] = continuation
            order.append(id)
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock {
                self.listeners.removeValue(forKey: id)
                self.order.removeAll { $0 == id }
            }
        }
        return stream
    }

    /// Tells every page that the notes at `paths` changed (`*`: the whole vault was read again).
    func send(paths: [String]) {
        let data = JSONValue.object([("paths", .array(paths.map { .string($0) }))]).serialized()
        let event = "event: changed\ndata: \(data)\n\n"
        lock.withLock { for c in listeners.values { c.yield(event) } }
    }

    /// Ends every stream (the server stops).
    func finish() {
        lock.withLock {
            for c in listeners.values { c.finish() }
            listeners.removeAll()
            order.removeAll()
        }
    }
}
