@testable import QuireParsing
import Testing

/// The small set must answer like a `Set` on both sides of its switch to hashing.
@Suite struct SmallSetTests {
    @Test(arguments: [0, 5, 32, 33, 200])
    func insertsLikeASet(expected: Int) {
        var small = SmallSet<Int>(expected: expected)
        var reference = Set<Int>()
        var state: UInt64 = 12345
        for _ in 0..<500 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = Int(state >> 58)  // 0..<64: repeats, and more than the limit of distinct values
            let inserted = small.insert(value), expected = reference.insert(value).inserted
            #expect(inserted == expected)
        }
        #expect(reference.count > SmallSet<Int>.limit)
    }

    @Test func stringsCompareByValue() {
        var set = SmallSet<String>()
        let first = set.insert("biology"), again = set.insert(String("bio" + "logy")), other = set.insert("Biology")
        #expect(first)
        #expect(!again)
        #expect(other)
    }
}
