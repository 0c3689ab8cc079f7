import Foundation
import QuireSupport

/// all-MiniLM-L6-v2's sentence embeddings computed here: the 6-layer BERT encoder (384 wide, 12
/// heads, 1,536 in its feed-forward layers, GELU, layer norm), then the mean of the token vectors
/// and unit length, as sentence-transformers computes them. Matrix products go through OpenBLAS,
/// or, with ``Precision/int8``, the linear layers' through 8-bit integer products.
/// Deterministic: the same text always gives the same vector with the same precision.
public final class SentenceEncoder: @unchecked Sendable {
    /// How the linear layers' products are computed.
    public enum Precision: String, Sendable, CaseIterable {
        /// Single-precision floats, as the reference computes them (vectors within cosine 0.99999 of
        /// sentence-transformers').
        case float32
        /// 8-bit integers (AVX-512 VNNI): several times faster, vectors within cosine 0.99 of the
        /// float ones (docs/BENCHMARKS.md). Only where ``int8Available``.
        case int8

        /// The fastest this processor runs: ``int8`` where it can, else ``float32``.
        public static var fastest: Precision { int8Available ? .int8 : .float32 }
        /// Whether this processor runs ``int8``.
        public static var int8Available: Bool { Int8Linear.available }
    }

    /// The vectors' length.
    public static let dimension = 384
    static let heads = 12, layers = 6, inner = 1536, positions = 512
    /// The most tokens one text gives the encoder (sentence-transformers' `max_seq_length`).
    public static let maximumTokens = 256

    public let tokenizer: WordPieceTokenizer
    let wordEmbeddings: [Float], positionEmbeddings: [Float], typeEmbeddings: [Float]
    let embeddingNorm: (weight: [Float], bias: [Float])
    struct Layer {
        /// Query, key and value weights stacked ([1152, 384]) and their biases.
        var qkv: [Float], qkvBias: [Float]
        var output: [Float], outputBias: [Float]
        var attentionNorm: (weight: [Float], bias: [Float])
        var up: [Float], upBias: [Float]
        var down: [Float], downBias: [Float]
        var outputNorm: (weight: [Float], bias: [Float])
        /// The four linear layers quantised, with ``Precision/int8``.
        var quantized: (qkv: Int8Linear, output: Int8Linear, up: Int8Linear, down: Int8Linear)?
    }
    let blocks: [Layer]
    /// How this encoder computes its linear layers.
    public let precision: Precision

    /// How the products are computed, for people: "8-bit products (AVX-512 VNNI); OpenBLAS (SkylakeX)".
    public var arithmetic: String {
        (precision == .int8 ? "8-bit products (AVX-512 VNNI)" : "single precision") + "; OpenBLAS (\(BLAS.kernels ?? "kernels unknown"))"
    }

    /// Builds the encoder from a model's tensors and vocabulary; `precision` ``Precision/int8``
    /// where the processor cannot run it gives ``Precision/float32``.
    public init(tensors: Safetensors, tokenizer: WordPieceTokenizer, precision: Precision = .fastest) throws(EmbeddingError) {
        guard BLAS.routines != nil else {
            throw .unreadable(path: BLAS.names[0], reason: "OpenBLAS cannot be loaded (Debian: apt-get install libopenblas0)")
        }
        let d = Self.dimension
        func t(_ name: String, _ shape: [Int]) throws(EmbeddingError) -> [Float] { try tensors.tensor(name, shape: shape).values }
        let vocab = tokenizer.count
        wordEmbeddings = try t("embeddings.word_embeddings.weight", [vocab, d])
        positionEmbeddings = try t("embeddings.position_embeddings.weight", [Self.positions, d])
        typeEmbeddings = try t("embeddings.token_type_embeddings.weight", [2, d])
        embeddingNorm = (try t("embeddings.LayerNorm.weight", [d]), try t("embeddings.LayerNorm.bias", [d]))
        var blocks: [Layer] = []
        for l in 0..<Self.layers {
            let p = "encoder.layer.\(l)."
            let q = try t(p + "attention.self.query.weight", [d, d]), k = try t(p + "attention.self.key.weight", [d, d])
            let v = try t(p + "attention.self.value.weight", [d, d])
            let qb = try t(p + "attention.self.query.bias", [d]), kb = try t(p + "attention.self.key.bias", [d])
            let vb = try t(p + "attention.self.value.bias", [d])
            blocks.append(Layer(
                qkv: q + k + v, qkvBias: qb + kb + vb,
                output: try t(p + "attention.output.dense.weight", [d, d]), outputBias: try t(p + "attention.output.dense.bias", [d]),
                attentionNorm: (try t(p + "attention.output.LayerNorm.weight", [d]), try t(p + "attention.output.LayerNorm.bias", [d])),
                up: try t(p + "intermediate.dense.weight", [Self.inner, d]), upBias: try t(p + "intermediate.dense.bias", [Self.inner]),
                down: try t(p + "output.dense.weight", [d, Self.inner]), downBias: try t(p + "output.dense.bias", [d]),
                outputNorm: (try t(p + "output.LayerNorm.weight", [d]), try t(p + "output.LayerNorm.bias", [d]))))
        }
        if precision == .int8, Int8Linear.available {
            for l in blocks.indices {
                let b = blocks[l]
                if let qkv = Int8Linear(weight: b.qkv, outputs: 3 * d, inputs: d),
                   let output = Int8Linear(weight: b.output, outputs: d, inputs: d),
                   let up = Int8Linear(weight: b.up, outputs: Self.inner, inputs: d),
                   let down = Int8Linear(weight: b.down, outputs: d, inputs: Self.inner) {
                    blocks[l].quantized = (qkv, output, up, down)
                }
            }
        }
        // All layers quantised or none: a layer without its 8-bit weights in an int8 encoder would
        // get no scratch room for its rows.
        if !blocks.allSatisfy({ $0.quantized != nil }) {
            for l in blocks.indices { blocks[l].quantized = nil }
        }
        self.precision = blocks.allSatisfy { $0.quantized != nil } ? precision : .float32
        self.blocks = blocks
        self.tokenizer = tokenizer
        // One text's matrices are small (at most 256 × 1,536): OpenBLAS's threads cost more than
        // they save on them (most of the time in the kernel, waiting). Texts are spread over the
        // cores instead (``embed(_:)`` is safe to call from several threads at once).
        BLAS.routines?.setThreads?(1)
    }

    /// The unit-length embedding of `text`.
    /// How near two of this encoder's embeddings are: their cosine, which for its unit-length
    /// vectors is their dot product (the shorter's length taken).
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        var sum: Float = 0
        for k in 0..<min(a.count, b.count) { sum += a[k] * b[k] }
        return sum
    }

    public func embed(_ text: String) -> [Float] { embed(ids: tokenizer.ids(text, maximumLength: Self.maximumTokens)) }

    /// The embeddings of `texts`, in order, computed on every core (`threads`: how many at once).
    /// Texts go through the encoder a few at a time (``embed(batch:)``), so each weight matrix is
    /// prepared once for several texts' rows.
    public func embed(_ texts: [String], threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> [[Float]] {
        let ids = texts.map { tokenizer.ids($0, maximumLength: Self.maximumTokens) }
        var batches: [Range<Int>] = []
        var start = 0, rows = 0
        for (i, sequence) in ids.enumerated() {
            if i > start, rows + sequence.count > Self.batchRows || i - start == Self.batchTexts {
                batches.append(start..<i)
                start = i
                rows = 0
            }
            rows += sequence.count
        }
        if start < ids.count { batches.append(start..<ids.count) }
        let parts = batches
        let slots = ResultSlots<[[Float]]>(count: parts.count)
        inParallelChunks(of: parts.count, chunk: 1, concurrency: max(1, threads)) { range in
            for b in range { slots[b] = embed(batch: Array(ids[parts[b]])) }
            return true
        }
        return batches.indices.flatMap { b in slots.take(b) ?? embed(batch: Array(ids[batches[b]])) }
    }

    /// At most this many texts, and tokens in all (past one text), go through the encoder together.
    static let batchTexts = 8, batchRows = 1_024

    /// The unit-length embedding of a token sequence (`[CLS] … [SEP]`, at most 512 tokens).
    public func embed(ids: [Int32]) -> [Float] { embed(batch: [ids]).first ?? [] }

    /// The unit-length embeddings of token sequences, computed together: their rows stacked for
    /// the layers that treat rows one by one (projections, feed-forward, layer norms), attention
    /// within each sequence. The same vectors as one at a time, to rounding.
    func embed(batch: [[Int32]]) -> [[Float]] {
        let d = Self.dimension
        let lengths = batch.map { min($0.count, Self.positions) }
        var firsts: [Int] = []
        var n = 0
        for length in lengths { firsts.append(n); n += length }
        guard n > 0 else { return batch.map { _ in [Float](repeating: 0, count: d) } }
        var x = [Float](repeating: 0, count: n * d)
        for (s, ids) in batch.enumerated() {
            for (i, id) in ids.prefix(lengths[s]).enumerated() {
                let w = Int(id) * d, p = i * d, row = (firsts[s] + i) * d
                for j in 0..<d { x[row + j] = wordEmbeddings[w + j] + positionEmbeddings[p + j] + typeEmbeddings[j] }
            }
        }
        Self.layerNorm(&x, rows: n, embeddingNorm)
        let longest = lengths.max() ?? 0
        var qkv = [Float](repeating: 0, count: n * 3 * d)
        var context = [Float](repeating: 0, count: n * d)
        var scores = [Float](repeating: 0, count: longest * longest)
        var projected = [Float](repeating: 0, count: n * d)
        var hidden = [Float](repeating: 0, count: n * Self.inner)
        var scratch = Int8Linear.Scratch(rows: precision == .int8 ? n : 0, inputs: Self.inner)
        for block in blocks {
            let q = block.quantized
            Self.linear(x, rows: n, inputs: d, block.qkv, block.qkvBias, outputs: 3 * d, quantized: q?.qkv, scratch: &scratch, into: &qkv)
            for (s, length) in lengths.enumerated() where length > 0 {
                Self.attention(qkv, first: firsts[s], rows: length, scores: &scores, into: &context)
            }
            Self.linear(context, rows: n, inputs: d, block.output, block.outputBias, outputs: d, quantized: q?.output, scratch: &scratch, into: &projected)
            Self.add(projected, into: &x)
            Self.layerNorm(&x, rows: n, block.attentionNorm)
            Self.linear(x, rows: n, inputs: d, block.up, block.upBias, outputs: Self.inner, quantized: q?.up, scratch: &scratch, into: &hidden)
            hidden.withUnsafeMutableBufferPointer { h in
                if let base = h.baseAddress { VectorMath.gelu(base, count: h.count) }
            }
            Self.linear(hidden, rows: n, inputs: Self.inner, block.down, block.downBias, outputs: d, quantized: q?.down, scratch: &scratch, into: &projected)
            Self.add(projected, into: &x)
            Self.layerNorm(&x, rows: n, block.outputNorm)
        }
        return lengths.indices.map { s in
            var mean = [Float](repeating: 0, count: d)
            let length = lengths[s]
            guard length > 0 else { return mean }
            for r in firsts[s]..<(firsts[s] + length) { for j in 0..<d { mean[j] += x[r * d + j] } }
            var norm: Float = 0
            for j in 0..<d { mean[j] /= Float(length); norm += mean[j] * mean[j] }
            let inv = 1 / max(norm.squareRoot(), 1e-12)
            for j in 0..<d { mean[j] *= inv }
            return mean
        }
    }

    /// Self-attention of one sequence, its `rows` rows from row `first` of `qkv` (queries, keys
    /// and values side by side): for each head, scores = Q·Kᵀ/√32, softmax by row, then the
    /// context = scores · V, written to the same rows of `context`.
    static func attention(_ qkv: [Float], first: Int, rows n: Int, scores: inout [Float], into context: inout [Float]) {
        let d = dimension, headSize = d / heads
        let scale = 1 / Float(headSize).squareRoot()
        qkv.withUnsafeBufferPointer { qkvp in
            guard let all = qkvp.baseAddress else { return }
            let base = all + first * 3 * d
            scores.withUnsafeMutableBufferPointer { sp in
                context.withUnsafeMutableBufferPointer { cp in
                    guard let sbase = sp.baseAddress, let cbase = cp.baseAddress else { return }
                    for h in 0..<heads {
                        BLAS.sgemm(BLAS.noTrans, BLAS.trans, Int32(n), Int32(n), Int32(headSize), scale,
                                   base + h * headSize, Int32(3 * d), base + d + h * headSize, Int32(3 * d), 0, sbase, Int32(n))
                        VectorMath.softmax(sbase, rows: n, width: n)
                        BLAS.sgemm(BLAS.noTrans, BLAS.noTrans, Int32(n), Int32(headSize), Int32(n), 1,
                                   sbase, Int32(n), base + 2 * d + h * headSize, Int32(3 * d), 0,
                                   cbase + first * d + h * headSize, Int32(d))
                    }
                }
            }
        }
    }

    /// out = input · weight^T + bias (weight stored [outputs, inputs], as PyTorch's Linear keeps it),
    /// through `quantized` when there is one.
    static func linear(_ input: [Float], rows: Int, inputs: Int, _ weight: [Float], _ bias: [Float], outputs: Int,
                       quantized: Int8Linear? = nil, scratch: inout Int8Linear.Scratch, into out: inout [Float]) {
        out.withUnsafeMutableBufferPointer { op in
            guard let o = op.baseAddress else { return }
            if let quantized {
                input.withUnsafeBufferPointer { ip in
                    if let i = ip.baseAddress { quantized.apply(i, rows: rows, bias: bias, into: o, scratch: &scratch) }
                }
                return
            }
            bias.withUnsafeBufferPointer { b in
                guard let bb = b.baseAddress else { return }
                for r in 0..<rows { (o + r * outputs).update(from: bb, count: outputs) }
            }
            input.withUnsafeBufferPointer { ip in
                weight.withUnsafeBufferPointer { wp in
                    BLAS.sgemm(BLAS.noTrans, BLAS.trans, Int32(rows), Int32(outputs), Int32(inputs), 1,
                                ip.baseAddress, Int32(inputs), wp.baseAddress, Int32(inputs), 1, o, Int32(outputs))
                }
            }
        }
    }

    /// `x += add`, element by element (the residual connections).
    static func add(_ add: [Float], into x: inout [Float]) {
        add.withUnsafeBufferPointer { a in
            x.withUnsafeMutableBufferPointer { t in
                guard let ab = a.baseAddress, let tb = t.baseAddress else { return }
                VectorMath.add(ab, into: tb, count: min(a.count, t.count))
            }
        }
    }

    /// Layer normalisation of each row (ε = 1e-12, BERT's).
    static func layerNorm(_ x: inout [Float], rows: Int, _ norm: (weight: [Float], bias: [Float])) {
        x.withUnsafeMutableBufferPointer { p in
            if let base = p.baseAddress { VectorMath.layerNorm(base, rows: min(rows, p.count / max(norm.weight.count, 1)), weight: norm.weight, bias: norm.bias) }
        }
    }
}
