import Testing
@testable import QuireEmbedding

/// Vectors stored as a scale and a byte a value, and searched by dot product.
@Suite struct VectorSetTests {
    @Test func nearestIsExactOrderedAndBounded() {
        var set = VectorSet(dimension: 3)
        for v: [Float] in [[1, 0, 0], [0, 1, 0], [0.8, 0.6, 0], [-1, 0, 0]] { set.append(v) }
        #expect(set.nearest([1, 0, 0], limit: 2).map(\.index) == [0, 2])
        #expect(set.nearest([1, 0, 0], limit: 10).map(\.index) == [0, 2, 1, 3])
        #expect(set.nearest([1, 0, 0], limit: 0).isEmpty)
        // Many vectors: the bounded selection agrees with a full sort.
        var big = VectorSet(dimension: 3)
        var state: UInt64 = 7
        for _ in 0..<1000 {
            let v = (0..<3).map { _ -> Float in state = state &* 6364136223846793005 &+ 1; return Float(Int64(bitPattern: state >> 20) % 1000) / 1000 }
            big.append(v)
        }
        let scores = big.scores([0.6, 0.8, 0])
        let expected = scores.enumerated().sorted { $0.element > $1.element || ($0.element == $1.element && $0.offset < $1.offset) }.prefix(25).map(\.offset)
        #expect(big.nearest([0.6, 0.8, 0], limit: 25).map(\.index) == Array(expected))
    }

    @Test func byteCodingRoundTripsWithinHalfAStepAndRejectsWrongSizes() {
        var set = VectorSet(dimension: 4)
        let v: [Float] = [0.5, -0.25, 0.125, 0.0625]
        let added = set.append(encoded: VectorCoding.encode(v))
        #expect(added)
        // Each value within half a step (the largest / 127 / 2) of the original.
        #expect(zip(set.vector(at: 0), v).allSatisfy { abs($0 - $1) <= 0.5 / 127 / 2 + 1e-7 })
        #expect(set.vector(at: 0)[0] == 0.5)
        // All zero, or not finite: still a vector (zeros), never a crash.
        let zeros = set.append(encoded: VectorCoding.encode([0, 0, 0, 0]))
        let nan = set.append(encoded: VectorCoding.encode([.nan, 1, 0, 0]))
        #expect(zeros && nan)
        #expect(set.vector(at: 2) == [0, 1, 0, 0])
        let wrong = set.append(encoded: [1, 2, 3])
        #expect(!wrong)
        #expect(set.count == 3)
    }
}
