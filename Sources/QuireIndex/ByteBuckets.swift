import QuireSupport

/// Elements gathered in 256 buckets, each bucket in the order its elements were added: for tables
/// of a million entries made by the top byte of a hash (the card table, the cache's card-ID table),
/// a bucket at a time.
///
/// An array of 256 arrays would, for every element, touch the header of a random array (a cache
/// miss, to check that it is not shared) as well as its end. Here the 256 buckets' places and
/// counts sit in one block that stays in the processor's cache, and only the one storage object is
/// checked for sharing (a copy of the value is copied on its first change, as arrays are).
struct ByteBuckets<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked: the storage is never changed while shared (copied on write, below), so values on
    // different threads never touch the same storage's contents.
    private var storage = Storage()

    /// The number of elements added.
    var count: Int { storage.total }

    /// Adds `element` at the end of bucket `bucket`.
    mutating func append(_ element: Element, bucket: UInt8) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.append(element, to: Int(bucket))
    }

    /// The number of elements in bucket `bucket`.
    func count(of bucket: Int) -> Int { storage.elements(of: bucket).count }

    /// Calls `body` with the elements of bucket `bucket` (0..<256), in the order added.
    func withBucket<R>(_ bucket: Int, _ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(storage.elements(of: bucket)) }
    }

    /// The buckets' storage: for each bucket a malloc'ed block, its count and its capacity.
    private final class Storage {
        private let bases: UnsafeMutablePointer<UnsafeMutablePointer<Element>?>
        private let counts: UnsafeMutablePointer<Int>
        private let capacities: UnsafeMutablePointer<Int>
        private(set) var total = 0

        init() {
            bases = .allocate(capacity: 256)
            bases.initialize(repeating: nil, count: 256)
            counts = .allocate(capacity: 256)
            counts.initialize(repeating: 0, count: 256)
            capacities = .allocate(capacity: 256)
            capacities.initialize(repeating: 0, count: 256)
        }

        deinit {
            for b in 0..<256 { RawBytes.release(bases[b]) }
            bases.deallocate()
            counts.deallocate()
            capacities.deallocate()
        }

        func append(_ element: Element, to b: Int) {
            if counts[b] == capacities[b] { grow(b) }
            guard let base = bases[b] else { return }
            (base + counts[b]).initialize(to: element)
            counts[b] += 1
            total += 1
        }

        private func grow(_ b: Int) {
            let capacity = max(64, capacities[b] * 2)
            guard let grown = RawBytes.resize(bases[b], to: capacity * MemoryLayout<Element>.stride) else {
                fatalError("out of memory growing a bucket to \(capacity) elements")
            }
            bases[b] = grown.bindMemory(to: Element.self, capacity: capacity)
            capacities[b] = capacity
        }

        func elements(of b: Int) -> UnsafeBufferPointer<Element> {
            UnsafeBufferPointer(start: bases[b], count: counts[b])
        }

        func copy() -> Storage {
            let copy = Storage()
            for b in 0..<256 {
                for element in elements(of: b) { copy.append(element, to: b) }
            }
            return copy
        }
    }
}
