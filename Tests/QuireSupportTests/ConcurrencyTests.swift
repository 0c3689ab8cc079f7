@testable import QuireSupport
import Synchronization
import Testing

/// The helpers the index, the cache and the scanner run their parallel work with.
@Suite struct ConcurrencyTests {
    /// Chunks handed in from two threads in a shuffled order come out once each, in order.
    @Test func chunksComeOutInOrder() {
        let ordered = InOrderChunks<Int>()
        let seen = Mutex<[Int]>([])
        var generator = SplitMix(seed: 7)
        let numbers = Array(0..<2_000).shuffled(using: &generator)
        inParallelChunks(of: numbers.count, chunk: 3, concurrency: 2) { range in
            for i in range { ordered.add(numbers[i], numbers[i]) { n in seen.withLock { $0.append(n) } } }
            return true
        }
        #expect(seen.withLock { $0 } == Array(0..<2_000))
    }

    /// A chunk that arrives before the ones ahead of it waits; nothing is taken out twice or early.
    @Test func aChunkWaitsForTheOnesBeforeIt() {
        let ordered = InOrderChunks<String>()
        var out: [String] = []
        ordered.add(2, "c") { out.append($0) }
        ordered.add(1, "b") { out.append($0) }
        #expect(out.isEmpty)
        ordered.add(0, "a") { out.append($0) }
        #expect(out == ["a", "b", "c"])
        ordered.add(3, "d") { out.append($0) }
        #expect(out == ["a", "b", "c", "d"])
    }

    /// Every index is given to exactly one chunk, in ranges of the asked size, on any thread count.
    @Test(arguments: [1, 2, 7])
    func everyIndexIsRunOnce(concurrency: Int) {
        let count = 1_003
        let hits = ResultSlots<Int>(count: count)
        let ranges = Mutex<[Range<Int>]>([])
        let finished = inParallelChunks(of: count, chunk: 10, concurrency: concurrency) { range in
            ranges.withLock { $0.append(range) }
            for i in range { hits[i] = (hits[i] ?? 0) + 1 }
            return true
        }
        #expect(finished)
        #expect((0..<count).allSatisfy { hits[$0] == 1 })
        let sorted = ranges.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
        #expect(sorted.count == 101)
        #expect(sorted.last == 1_000..<1_003)
        #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }

    /// A body that returns false stops the run: no chunk starts after it, and the call says so.
    @Test func aFalseBodyStopsTheRun() {
        let started = AtomicCounter()
        let finished = inParallelChunks(of: 10_000, chunk: 1, concurrency: 1) { range in
            _ = started.increment()
            return range.lowerBound < 4
        }
        #expect(!finished)
        #expect(started.increment() == 5)
    }

    /// No work for an empty range, and no thread started for it.
    @Test func nothingToDo() {
        let calls = AtomicCounter()
        #expect(inParallelChunks(of: 0, chunk: 4, concurrency: nil) { _ in _ = calls.increment(); return true })
        #expect(calls.increment() == 0)
    }

    /// A slot's value is moved out once.
    @Test func slotsAreTakenOnce() {
        let slots = ResultSlots<[Int]>(count: 2)
        slots[1] = [1, 2]
        #expect(slots.take(1) == [1, 2])
        #expect(slots.take(1) == nil)
        #expect(slots[0] == nil)
    }

    /// A background value is computed once, on another thread, and waited for.
    @Test func backgroundValue() {
        let runs = AtomicCounter()
        let value = BackgroundValue { () -> Int in
            _ = runs.increment()
            return (1...1_000).reduce(0, +)
        }
        #expect(value.value == 500_500)
        #expect(value.value == 500_500)
        #expect(runs.increment() == 1)
    }

    /// Counters and flags shared by many threads lose no update.
    @Test func atomicsUnderContention() {
        let counter = AtomicCounter()
        let flag = AtomicFlag()
        inParallelChunks(of: 8, chunk: 1, concurrency: 4) { _ in
            for _ in 0..<10_000 { _ = counter.increment() }
            flag.set()
            return true
        }
        #expect(counter.increment() == 80_000)
        #expect(flag.isSet)
    }
}

/// A seeded generator, so a shuffle repeats.
typealias SplitMix = SplitMix64
