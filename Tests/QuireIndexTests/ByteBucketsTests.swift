@testable import QuireIndex
import Testing

/// The buckets against an array of 256 arrays doing the same, and their value semantics.
@Suite struct ByteBucketsTests {
    @Test func bucketsKeepTheOrderAddedAndGrow() {
        var buckets = ByteBuckets<(UInt64, UInt32)>()
        var model = [[(UInt64, UInt32)]](repeating: [], count: 256)
        var state: UInt64 = 1
        for i in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Skewed, so that some buckets grow far past their first block and some stay empty.
            let bucket = UInt8(truncatingIfNeeded: (state >> 60) * (state >> 58 & 15))
            buckets.append((state, UInt32(i)), bucket: bucket)
            model[Int(bucket)].append((state, UInt32(i)))
        }
        #expect(buckets.count == 20_000)
        for b in 0..<256 {
            #expect(buckets.count(of: b) == model[b].count)
            let same = buckets.withBucket(b) { elements in
                elements.count == model[b].count && zip(elements, model[b]).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            }
            #expect(same, "bucket \(b)")
        }
        #expect(model.contains { $0.isEmpty } && model.contains { $0.count > 1_000 })
    }

    @Test func aCopyIsAValue() {
        var original = ByteBuckets<Int>()
        for i in 0..<100 { original.append(i, bucket: UInt8(i % 3)) }
        var copy = original
        copy.append(1_000, bucket: 0)
        original.append(2_000, bucket: 1)
        #expect(original.count == 101 && copy.count == 101)
        #expect(original.withBucket(0) { Array($0) } == Array(stride(from: 0, to: 100, by: 3)))
        #expect(copy.withBucket(0) { Array($0) } == Array(stride(from: 0, to: 100, by: 3)) + [1_000])
        #expect(original.withBucket(1) { $0.last } == 2_000)
        #expect(copy.withBucket(1) { $0.last } == 97)
    }
}
