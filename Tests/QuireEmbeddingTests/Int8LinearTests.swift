import Testing
@testable import QuireEmbedding

/// The 8-bit products against the same product in double precision: every shape the encoder uses,
/// row counts around the kernel's blocks of six, rows that are constant, negative or hold one
/// outlier; shapes the kernel does not take are refused.
@Suite(.enabled(if: SentenceEncoder.Precision.int8Available)) struct Int8LinearTests {
    /// A fixed pseudo-random sequence (xorshift), values in -1…1.
    struct Numbers {
        var state: UInt64
        mutating func next() -> Float {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Float(state % 2_000_001) / 1_000_000 - 1
        }
    }

    static func exact(_ input: [Float], rows: Int, inputs: Int, _ weight: [Float], _ bias: [Float], outputs: Int) -> [Double] {
        var out = [Double](repeating: 0, count: rows * outputs)
        for r in 0..<rows {
            for o in 0..<outputs {
                var sum = Double(bias[o])
                for i in 0..<inputs { sum += Double(input[r * inputs + i]) * Double(weight[o * inputs + i]) }
                out[r * outputs + o] = sum
            }
        }
        return out
    }

    static func apply(_ layer: Int8Linear, _ input: [Float], rows: Int, bias: [Float]) -> [Float] {
        var out = [Float](repeating: .nan, count: rows * layer.outputs)
        var scratch = Int8Linear.Scratch(rows: rows, inputs: layer.inputs)
        input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                if let ib = i.baseAddress, let ob = o.baseAddress { layer.apply(ib, rows: rows, bias: bias, into: ob, scratch: &scratch) }
            }
        }
        return out
    }

    /// The error's size against the exact product's (root of the sums of squares).
    static func relativeError(_ got: [Float], _ want: [Double]) -> Double {
        var error = 0.0, size = 0.0
        for (g, w) in zip(got, want) { error += (Double(g) - w) * (Double(g) - w); size += w * w }
        return (error / max(size, 1e-30)).squareRoot()
    }

    @Test(arguments: [(1_152, 384), (384, 384), (1_536, 384), (384, 1_536)])
    func productsWithinOnePercentOfTheExactOnes(outputs: Int, inputs: Int) throws {
        var numbers = Numbers(state: UInt64(outputs * 31 + inputs))
        let weight = (0..<(outputs * inputs)).map { _ in numbers.next() * 0.1 }
        let bias = (0..<outputs).map { _ in numbers.next() }
        let layer = try #require(Int8Linear(weight: weight, outputs: outputs, inputs: inputs))
        for rows in [1, 5, 6, 7, 13] {
            // Rows as the encoder gives them: mostly small values, a GELU-like floor near -0.17.
            let input = (0..<(rows * inputs)).map { _ in max(numbers.next() * 2, -0.17) }
            let got = Self.apply(layer, input, rows: rows, bias: bias)
            #expect(got.allSatisfy { $0.isFinite }, "\(rows) rows: every output written")
            let error = Self.relativeError(got, Self.exact(input, rows: rows, inputs: inputs, weight, bias, outputs: outputs))
            #expect(error < 0.01, "\(outputs)×\(inputs), \(rows) rows: relative error \(error)")
        }
    }

    @Test func constantNegativeAndOutlierRows() throws {
        let outputs = 64, inputs = 32
        var numbers = Numbers(state: 7)
        let weight = (0..<(outputs * inputs)).map { _ in numbers.next() }
        let bias = [Float](repeating: 0.25, count: outputs)
        let layer = try #require(Int8Linear(weight: weight, outputs: outputs, inputs: inputs))
        var rows: [[Float]] = [
            [Float](repeating: 0, count: inputs),
            [Float](repeating: 0.5, count: inputs),
            (0..<inputs).map { _ in -1 - abs(numbers.next()) },
        ]
        var outlier = (0..<inputs).map { _ in numbers.next() * 0.01 }
        outlier[3] = 40
        rows.append(outlier)
        let input = rows.flatMap { $0 }
        let got = Self.apply(layer, input, rows: rows.count, bias: bias)
        let want = Self.exact(input, rows: rows.count, inputs: inputs, weight, bias, outputs: outputs)
        // A row of zeros gives the bias exactly.
        #expect(got.prefix(outputs).allSatisfy { $0 == 0.25 })
        for r in 1..<rows.count {
            let range = (r * outputs)..<((r + 1) * outputs)
            let error = Self.relativeError(Array(got[range]), Array(want[range]))
            #expect(error < 0.02, "row \(r): relative error \(error)")
        }
    }

    @Test func shapesTheKernelDoesNotTakeAreRefused() {
        #expect(Int8Linear(weight: [Float](repeating: 1, count: 63 * 16), outputs: 63, inputs: 16) == nil)
        #expect(Int8Linear(weight: [Float](repeating: 1, count: 64 * 8), outputs: 64, inputs: 8) == nil)
        #expect(Int8Linear(weight: [Float](repeating: 1, count: 64 * 24), outputs: 64, inputs: 24) == nil)
        #expect(Int8Linear(weight: [Float](repeating: 1, count: 10), outputs: 64, inputs: 16) == nil)
        #expect(Int8Linear(weight: [Float](repeating: 1, count: 64 * 16), outputs: 64, inputs: 16) != nil)
    }
}
