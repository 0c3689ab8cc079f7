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

    /// Both paths where the processor runs both: the sixteen-lane C and the four-lane Swift.
    static let paths: [Bool] = VectorMath.wide ? [false, true] : [false]

    @Test(arguments: paths) func geluSoftmaxAndLayerNormInPlace(wide: Bool) {
        // GELU over the erf's whole range, in blocks of sixteen and a tail (values past ±4 too).
        var values = (0..<2_003).map { Float($0 - 1_001) / 200 }
        let exact = values.map { 0.5 * $0 * (1 + erff($0 * 0.70710678118654752)) }
        values.withUnsafeMutableBufferPointer { VectorMath.gelu($0.baseAddress!, count: $0.count, wide: wide) }
        #expect(zip(values, exact).allSatisfy { abs($0 - $1) < 1e-5 })
        // Softmax over rows of several widths (a tail under sixteen, exactly sixteen, one over),
        // exp down to where it underflows.
        for width in [1, 7, 16, 21, 33, 97] {
            var rows = (0..<(3 * width)).map { Float(($0 * 7) % 23) * Float(width % 5 + 1) - 40 }
            let expected = (0..<3).flatMap { r -> [Float] in
                let row = rows[(r * width)..<((r + 1) * width)]
                let top = row.max() ?? 0
                let e = row.map { expf($0 - top) }
                let sum = e.reduce(0, +)
                return e.map { $0 / sum }
            }
            rows.withUnsafeMutableBufferPointer { VectorMath.softmax($0.baseAddress!, rows: 3, width: width, wide: wide) }
            #expect(zip(rows, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "width \(width)")
        }
        // Layer norm of rows of 384 and of 37 (a tail), in double precision for the reference.
        for width in [384, 37] {
            let weight = (0..<width).map { Float($0 % 11) / 5 - 1 }, bias = (0..<width).map { Float($0 % 3) / 10 }
            var rows = (0..<(2 * width)).map { Float(($0 * 13) % 31) / 3 - 4 }
            let expected = (0..<2).flatMap { r -> [Double] in
                let row = rows[(r * width)..<((r + 1) * width)].map(Double.init)
                let mean = row.reduce(0, +) / Double(width)
                let variance = row.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(width)
                return row.enumerated().map { ($1 - mean) / (variance + 1e-12).squareRoot() * Double(weight[$0]) + Double(bias[$0]) }
            }
            rows.withUnsafeMutableBufferPointer { VectorMath.layerNorm($0.baseAddress!, rows: 2, weight: weight, bias: bias, wide: wide) }
            #expect(zip(rows, expected).allSatisfy { abs(Double($0) - $1) < 1e-5 }, "width \(width)")
        }
    }

    /// A search's cosines over stored bytes: each row's sum in doubles, for dimensions with and
    /// without a tail past the last sixteen.
    @Test(arguments: paths) func scoresOfStoredVectors(wide: Bool) {
        for d in [384, 40, 7] {
            let rows = 37
            let codes = (0..<(rows * d)).map { Int8(truncatingIfNeeded: ($0 * 7_919) % 255 - 127) }
            let scales = (0..<rows).map { Float($0 + 1) / 1_000 }
            let query = (0..<d).map { Float(($0 * 31) % 17) / 17 - 0.5 }
            var out = [Float](repeating: .nan, count: rows)
            codes.withUnsafeBufferPointer { c in
                out.withUnsafeMutableBufferPointer { o in
                    VectorMath.scores(codes: c.baseAddress!, scales: scales, query: query, rows: 3..<rows, dimension: d,
                                      out: o.baseAddress!, wide: wide)
                }
            }
            let untouched = out[0..<3].allSatisfy { $0.isNaN }
            #expect(untouched, "rows outside the range are left alone")
            for r in 3..<rows {
                let exact = (0..<d).reduce(0.0) { $0 + Double(codes[r * d + $1]) * Double(query[$1]) } * Double(scales[r])
                #expect(abs(Double(out[r]) - exact) <= 1e-5 * max(1, abs(exact)), "d \(d) row \(r)")
            }
        }
    }
}
