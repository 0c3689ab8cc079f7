import Dispatch
import Synchronization

/// Fixed slots written by parallel workers, each slot by exactly one worker.
final package class ResultSlots<T: Sendable>: Sendable {
    private let storage: Mutex<[T?]>

    package init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

    package subscript(i: Int) -> T? {
        get { storage.withLock { $0[i] } }
        set { storage.withLock { $0[i] = newValue } }
    }

    /// Moves the value out of slot `i`, leaving it empty.
    package func take(_ i: Int) -> T? {
        storage.withLock { slots in
            var value: T?
            swap(&value, &slots[i])
            return value
        }
    }
}

/// A value computed on another thread from the moment it is made; ``value`` waits for it.
final package class BackgroundValue<T: Sendable>: Sendable {
    private let slot = ResultSlots<T>(count: 1)
    private let done = DispatchGroup()
    private let work: @Sendable () -> T

    package init(_ work: @escaping @Sendable () -> T) {
        self.work = work
        DispatchQueue.global().async(group: done) { [slot] in slot[0] = work() }
    }

    /// The value, once computed.
    package var value: T {
        done.wait()
        // The slot is always filled once the work is done; computing again only keeps this total.
        return slot[0] ?? work()
    }
}

/// Chunks handed in by worker threads in any order and taken out in order: the thread that hands
/// in the next chunk takes it out, and every later one already waiting, while the other threads go
/// on with their work. Chunks are taken out one at a time, so what `consume` does needs no more
/// ordering than that.
final package class InOrderChunks<Chunk: Sendable>: Sendable {
    private struct Queue: Sendable {
        var waiting: [Int: Chunk] = [:]
        var next = 0
        var draining = false
    }

    private let queue = Mutex(Queue())

    package init() {}

    /// Hands in chunk `number` (chunks are numbered from 0). When no other thread is taking chunks
    /// out, passes each chunk from the next one on that is already there to `consume`, in order.
    package func add(_ number: Int, _ chunk: Chunk, consume: (Chunk) -> Void) {
        let mustDrain = queue.withLock { queue -> Bool in
            queue.waiting[number] = chunk
            if queue.draining { return false }
            queue.draining = true
            return true
        }
        guard mustDrain else { return }
        // A chunk handed in after this thread found it missing is taken out by the thread that
        // hands it in.
        while let next = queue.withLock({ queue -> Chunk? in
            guard let chunk = queue.waiting.removeValue(forKey: queue.next) else {
                queue.draining = false
                return nil
            }
            queue.next += 1
            return chunk
        }) {
            consume(next)
        }
    }
}

/// Runs `body` on consecutive ranges of `0..<count`, `chunk` indexes at a time, on up to
/// `concurrency` threads (default: one per core), taking chunks in order as threads come free.
/// When `body` returns false, no thread starts another chunk.
///
/// - Returns: false when `body` stopped the run.
@discardableResult
package func inParallelChunks(of count: Int, chunk: Int, concurrency: Int?, _ body: @Sendable (Range<Int>) -> Bool) -> Bool {
    let workers = max(1, min(concurrency ?? System.coreCount, count))
    let chunks = (count + chunk - 1) / chunk
    let next = AtomicCounter()
    let stopped = AtomicFlag()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while !stopped.isSet {
            let c = next.increment()
            guard c < chunks else { break }
            if !body((c * chunk)..<min(count, (c + 1) * chunk)) { stopped.set() }
        }
    }
    return !stopped.isSet
}

/// A flag any worker thread can raise.
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    package init() {}

    var isSet: Bool { value.load(ordering: .relaxed) }

    func set() { value.store(true, ordering: .relaxed) }
}

/// A counter shared by worker threads.
final package class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    /// Returns the current value and adds one.
    package func increment() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
