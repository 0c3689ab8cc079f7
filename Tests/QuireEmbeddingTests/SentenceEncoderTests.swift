import Foundation
import Testing
import QuireSupport
@testable import QuireEmbedding
@testable import QuireTestSupport

/// The Swift encoder against the reference: sentence-transformers' vectors and token ids for a
/// fixed set of texts (English, accented, Turkish, Greek, Cyrillic, CJK, Korean, Arabic,
/// Devanagari, emoji, control characters, empty, longer than 256 tokens), saved in
/// Fixtures/reference.json by Fixtures/make-reference.py.
@Suite struct SentenceEncoderTests {
    struct Reference { var text: String; var ids: [Int32]; var vector: [Float] }

    static func references() throws -> [Reference] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/reference.json")
        guard case .object(let top) = try JSONValue(parsing: Array(try Data(contentsOf: url))),
              case .array(let texts)? = top.first(where: { $0.0 == "texts" })?.1 else { throw TestFailure("reference.json: no texts") }
        return try texts.map { item in
            guard case .object(let fields) = item, case .string(let text)? = fields.first(where: { $0.0 == "text" })?.1,
                  case .array(let ids)? = fields.first(where: { $0.0 == "ids" })?.1,
                  case .array(let vector)? = fields.first(where: { $0.0 == "vector" })?.1 else { throw TestFailure("reference.json: bad entry") }
            return Reference(text: text, ids: ids.compactMap { if case .int(let i) = $0 { Int32(i) } else { nil } },
                             vector: vector.compactMap { v in
                                 switch v { case .double(let d): Float(d); case .int(let i): Float(i); default: nil }
                             })
        }
    }

    @Test func tokenIdsEqualTheReferenceTokenizers() throws {
        let encoder = try TestModel.encoder()
        let refs = try Self.references()
        #expect(refs.count >= 20)
        for ref in refs {
            #expect(encoder.tokenizer.ids(ref.text, maximumLength: 256) == ref.ids, "\(ref.text.prefix(60))")
        }
        // One text is longer than the encoder takes: cut to 256 with [SEP] kept.
        #expect(refs.contains { $0.ids.count == 256 })
    }

    @Test func vectorsWithinCosine099999OfSentenceTransformers() throws {
        let encoder = try TestModel.floatEncoder()
        #expect(encoder.precision == .float32)
        var worst: Float = 1
        for ref in try Self.references() {
            #expect(ref.vector.count == SentenceEncoder.dimension)
            let mine = encoder.embed(ref.text)
            var dot: Float = 0, a: Float = 0, b: Float = 0
            for i in 0..<ref.vector.count { dot += mine[i] * ref.vector[i]; a += mine[i] * mine[i]; b += ref.vector[i] * ref.vector[i] }
            let cosine = dot / (a.squareRoot() * b.squareRoot())
            worst = min(worst, cosine)
            #expect(cosine >= 0.99999, "\(ref.text.prefix(60)): cosine \(cosine)")
            #expect(abs(a.squareRoot() - 1) < 1e-4)
        }
        #expect(worst > 0.99999)
    }

    @Test func similarMeaningsAreCloserThanUnrelatedOnes() throws {
        let encoder = try TestModel.encoder()
        let cat = encoder.embed("A cat sits on the mat."), kitten = encoder.embed("A kitten is resting on a rug.")
        let tax = encoder.embed("Quarterly tax filings are due in April.")
        func dot(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
        #expect(dot(cat, kitten) > dot(cat, tax) + 0.3)
        // Deterministic.
        #expect(encoder.embed("A cat sits on the mat.") == cat)
    }

    /// Texts embedded together (their rows stacked, several batches on every core) give each its
    /// own vector: the reference's, in order, whatever their lengths (the 600-token text and the
    /// empty one among them).
    @Test func textsEmbeddedTogetherKeepTheirOwnVectors() throws {
        let encoder = try TestModel.floatEncoder()
        let refs = try Self.references()
        let texts = refs.map(\.text) + refs.map(\.text).reversed()
        let together = encoder.embed(texts, threads: 2)
        #expect(together.count == texts.count)
        for (text, vector) in zip(texts, together) {
            let ref = try #require(refs.first { $0.text == text })
            let cosine = zip(vector, ref.vector).reduce(0) { $0 + $1.0 * $1.1 }
                / (ref.vector.reduce(0) { $0 + $1 * $1 }.squareRoot())
            #expect(cosine >= 0.99999, "\(text.prefix(60)): cosine \(cosine)")
        }
    }

    /// The 8-bit products keep every reference text within cosine 0.99 of sentence-transformers'
    /// vector, alone and together (batches mixing the 600-token text with short ones), and rank
    /// as the float encoder does on a pair of near and far meanings.
    @Test(.enabled(if: SentenceEncoder.Precision.int8Available)) func int8VectorsStayWithinCosine099() throws {
        let encoder = try TestModel.encoder()
        #expect(encoder.precision == .int8)
        let refs = try Self.references()
        let texts = refs.map(\.text) + refs.map(\.text).reversed()
        let together = encoder.embed(texts, threads: 2)
        var worst: Float = 1
        for (text, vector) in zip(texts, together) {
            let ref = try #require(refs.first { $0.text == text })
            let alone = encoder.embed(text)
            #expect(SentenceEncoder.cosine(alone, vector) >= 0.9999, "\(text.prefix(60)): alone and together differ")
            let cosine = SentenceEncoder.cosine(vector, ref.vector) / (ref.vector.reduce(0) { $0 + $1 * $1 }.squareRoot())
            worst = min(worst, cosine)
            #expect(cosine >= 0.99, "\(text.prefix(60)): cosine \(cosine)")
            #expect(abs(SentenceEncoder.cosine(vector, vector).squareRoot() - 1) < 1e-4)
        }
        #expect(worst < 0.99999, "the 8-bit products are in use (not the float ones)")
    }

    /// Asked for 8-bit products where the processor has none, or for float ones, the encoder says
    /// which it uses.
    @Test func precisionIsTheOneAskedWhereItRuns() throws {
        #expect(try TestModel.floatEncoder().precision == .float32)
        #expect(try TestModel.encoder().precision == SentenceEncoder.Precision.fastest)
        #expect(EmbeddingModel.precision(environment: [EmbeddingModel.precisionVariable: "float32"]) == .float32)
        #expect(EmbeddingModel.precision(environment: [EmbeddingModel.precisionVariable: "int8"]) == .int8)
        #expect(EmbeddingModel.precision(environment: [EmbeddingModel.precisionVariable: "fp64"]) == .fastest)
        #expect(EmbeddingModel.precision(environment: [:]) == .fastest)
    }
}
