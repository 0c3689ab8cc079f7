import QuireModel
import QuireScheduling
import Testing

@Suite struct IntervalFuzzTests {
    @Test(arguments: [(7, 5...9), (17, 14...20), (20, 17...23), (37, 33...41), (3, 2...4), (100, 93...107)])
    func ankiRanges(interval: Int, range: ClosedRange<Int>) {
        #expect(IntervalFuzz.bounds(for: interval, maximum: 36_500) == range)
    }

    @Test func noFuzzUnderTwoAndAHalfDays() {
        #expect(IntervalFuzz.bounds(for: 1, maximum: 36_500) == 1...1)
        #expect(IntervalFuzz.bounds(for: 2, maximum: 36_500) == 2...2)
        for factor in [0.0, 0.5, 0.999] { #expect(IntervalFuzz.apply(2, factor: factor, maximum: 100) == 2) }
    }

    /// Anki's `fuzz.rs` test cases: factors 0, 0.5 and 0.99 give lower, middle, upper.
    @Test func ankiLimitCases() {
        func lmu(_ i: Int, _ minimum: Int, _ maximum: Int) -> [Int] {
            [0.0, 0.5, 0.99].map { IntervalFuzz.apply(i, factor: $0, minimum: minimum, maximum: maximum) }
        }
        #expect(lmu(7, 1, 1000) == [5, 7, 9])
        #expect(lmu(17, 1, 1000) == [14, 17, 20])
        #expect(lmu(37, 1, 1000) == [33, 37, 41])
        #expect(lmu(2, 3, 1000) == [3, 4, 4])
        #expect(lmu(2, 3, 3) == [3, 3, 3])
        #expect(lmu(20, 3, 1000) == [17, 20, 23])
        #expect(lmu(100, 101, 1000) == [101, 105, 108])
        #expect(lmu(100, 1, 99) == [92, 96, 99])
        #expect(lmu(100, 97, 103) == [97, 100, 103])
    }

    @Test func factorIsDeterministicAndPinned() throws {
        let card = try #require(CardID("7k2m9xq4v1ab"))
        let a = IntervalFuzz.factor(card: card, reviews: 4)
        #expect(a == IntervalFuzz.factor(card: card, reviews: 4))
        #expect(a != IntervalFuzz.factor(card: card, reviews: 5))
        #expect((0..<1).contains(a))
        // The formula is part of the file format's promise (two machines agree): pin one value.
        var h = SipHash24(k0: 0x7175_6972_6566_7a7a)
        h.combine(Array("quire-fuzz-v1\u{0}7k2m9xq4v1ab\u{0}4".utf8))
        #expect(a == Double(h.finalize() >> 11) * 0x1p-53)
    }

    @Test func factorsSpreadEvenly() {
        var counts = [Int: Int]()
        for i in 0..<9_000 {
            let card = CardID("card-\(i)") ?? CardID("x")!
            let f = IntervalFuzz.factor(card: card, reviews: i % 13)
            counts[IntervalFuzz.apply(37, factor: f, maximum: 36_500), default: 0] += 1
        }
        #expect(Set(counts.keys) == Set(33...41))
        for (_, n) in counts { #expect(n > 850 && n < 1_150) }  // 1,000 expected each
    }
}
