import Foundation
import QuireEmbedding
import QuireSearch
import QuireSystem

/// A thread that computes the search index's missing vectors whenever woken, at the lowest
/// priority, on one core, through a connection of its own (SQLite's write lock and busy timeout
/// keep its batches and the watcher's updates apart). Each batch is committed as it is done, so
/// the work survives the process being stopped at any point.
public final class VectorWorker: @unchecked Sendable {
    // Sendable: `pending`, `runs` and `niceness` are only touched under `condition`.
    private let condition = NSCondition()
    private var pending = false
    private var runs = 0
    /// The worker thread's niceness once it lowered it (nil before it started).
    public private(set) var niceness: Int32?

    init(path: String, encoder: SentenceEncoder) {
        let thread = Thread { [self] in run(path: path, encoder: encoder) }
        thread.name = "quire-vectors"
        thread.start()
    }

    /// Asks for a pass over the index (the vectors of chunks that have none).
    public func wake() {
        condition.lock()
        pending = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every pass asked for so far has ended, or `seconds` pass; whether they ended.
    public func waitUntilIdle(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while pending || runs > 0 {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    private func run(path: String, encoder: SentenceEncoder) {
        let nice = ThreadPriority.lowerCurrent()
        condition.lock()
        niceness = nice
        condition.unlock()
        var index: SearchIndex?
        while true {
            condition.lock()
            while !pending { condition.wait() }
            pending = false
            runs += 1
            condition.unlock()
            // A failure waits for the next wake (the next search computes what is missing).
            if index == nil { index = try? SearchIndex(path: path) }
            _ = try? index?.embedMissing(with: encoder, threads: 1)
            condition.lock()
            runs -= 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
