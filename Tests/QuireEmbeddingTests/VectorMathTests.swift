import Foundation
import Testing
@testable import QuireEmbedding

/// The encoder's vectorised erf, exp, GELU and softmax against libm's, value by value.
@Suite struct VectorMathTests {
    @Test func erfAndExpAgreeWithLibm() {
        var worstErf: Float = 0, worstExp: Float = 0
        for k in -60_000...60_000 {
            let x = Float(k) / 10_000
            worstErf = max(worstErf, abs(VectorMath.erf(SIMD4(repeating: x))[0] - erff(x)))
        }
        for k in 0...87_000 {
            let x = -Float(k) / 1_000
            let exact = expf(x)
            worstExp = max(worstExp, abs(VectorMath.exp(SIMD4(repeating: x))[0] - exact) / exact)
        }
        #expect(worstErf < 1e-6, "\(worstErf)")
        #expect(worstExp < 3e-7, "\(worstExp)")
    }

    @Test func geluAndSoftmaxInPlace() {
        // 37 values: two blocks of sixteen and a tail.
        var values = (0..<37).map { Float($0 - 18) / 4 }
        let exact = values.map { 0.5 * $0 * (1 + erff($0 * 0.70710678118654752)) }
        values.withUnsafeMutableBufferPointer { VectorMath.gelu($0.baseAddress!, count: $0.count) }
        #expect(zip(values, exact).allSatisfy { abs($0 - $1) < 1e-5 })
        var rows = (0..<(3 * 21)).map { Float(($0 * 7) % 23) - 11 }
        let expected = (0..<3).flatMap { r -> [Float] in
            let row = rows[(r * 21)..<((r + 1) * 21)]
            let top = row.max() ?? 0
            let e = row.map { expf($0 - top) }
            let sum = e.reduce(0, +)
            return e.map { $0 / sum }
        }
        rows.withUnsafeMutableBufferPointer { VectorMath.softmax($0.baseAddress!, rows: 3, width: 21) }
        #expect(zip(rows, expected).allSatisfy { abs($0 - $1) < 1e-6 })
    }
}
