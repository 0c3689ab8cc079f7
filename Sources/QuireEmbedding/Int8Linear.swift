internal import CEncoderKernels

/// A linear layer's weights quantised to 8 bits, for the encoder's fast products (AVX-512 VNNI):
/// each output's weights scaled to -127…127 once, each input row scaled to 0…255 when it is
/// used, the products summed exactly in 32-bit integers. About 4 times the products a second of
/// OpenBLAS's single-precision ones on the same core, within 1 % of them (docs/BENCHMARKS.md).
struct Int8Linear: Sendable {
    let outputs: Int, inputs: Int
    let packed: [Int8], scales: [Float], sums: [Int32]

    /// Whether this processor runs the products (else the encoder keeps OpenBLAS's).
    static let available = quire_int8_available() != 0

    /// Quantises `weight` ([outputs, inputs]); nil for a shape the kernel does not take (outputs
    /// a multiple of 64, inputs of 16).
    init?(weight: [Float], outputs: Int, inputs: Int) {
        guard outputs > 0, inputs >= 16, outputs % 64 == 0, inputs % 16 == 0, weight.count == outputs * inputs else { return nil }
        self.outputs = outputs
        self.inputs = inputs
        var packed = [Int8](repeating: 0, count: Int(quire_int8_packed_size(Int32(outputs), Int32(inputs))))
        var scales = [Float](repeating: 0, count: outputs), sums = [Int32](repeating: 0, count: outputs)
        weight.withUnsafeBufferPointer { w in
            packed.withUnsafeMutableBufferPointer { p in
                scales.withUnsafeMutableBufferPointer { s in
                    sums.withUnsafeMutableBufferPointer { t in
                        quire_int8_pack(w.baseAddress, Int32(outputs), Int32(inputs), p.baseAddress, s.baseAddress, t.baseAddress)
                    }
                }
            }
        }
        self.packed = packed
        self.scales = scales
        self.sums = sums
    }

    /// Room for one batch's quantised rows, reused by every layer of the batch.
    struct Scratch {
        var bytes: [UInt8], rowScales: [Float], rowMinimums: [Float]
        init(rows: Int, inputs: Int) {
            bytes = [UInt8](repeating: 0, count: rows * inputs)
            rowScales = [Float](repeating: 0, count: rows)
            rowMinimums = rowScales
        }
    }

    /// out = input · weightᵀ + bias for `rows` rows (`scratch` made for at least as many rows and inputs).
    func apply(_ input: UnsafePointer<Float>, rows: Int, bias: [Float], into out: UnsafeMutablePointer<Float>, scratch: inout Scratch) {
        guard rows > 0, bias.count == outputs, scratch.bytes.count >= rows * inputs, scratch.rowScales.count >= rows else { return }
        packed.withUnsafeBufferPointer { p in
            scales.withUnsafeBufferPointer { s in
                sums.withUnsafeBufferPointer { t in
                    bias.withUnsafeBufferPointer { b in
                        scratch.bytes.withUnsafeMutableBufferPointer { q in
                            scratch.rowScales.withUnsafeMutableBufferPointer { rs in
                                scratch.rowMinimums.withUnsafeMutableBufferPointer { rm in
                                    quire_int8_linear(input, Int32(rows), Int32(inputs), p.baseAddress, s.baseAddress, t.baseAddress,
                                                      b.baseAddress, Int32(outputs), out, q.baseAddress, rs.baseAddress, rm.baseAddress)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
