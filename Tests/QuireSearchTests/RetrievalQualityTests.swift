import Foundation
import Testing
import QuireEmbedding
import QuireModel
@testable import QuireSearch
@testable import QuireTestSupport

/// Retrieval measured on text nobody here wrote: the Rust book (Fixtures/RetrievalSet, MIT or
/// Apache-2.0) and 92 questions written by reading the page that answers each. Recall@3 (an
/// answering page among the first three pages found) and MRR (the mean of 1/rank of the first
/// answering page, 0 past ten) for lexical, semantic and hybrid ranking; a change that lowers
/// any below the floor in Fixtures/RetrievalSet/floors.tsv fails the test.
@Suite(.serialized, .requires(.searchModel), .tags(.slow)) struct RetrievalQualityTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RetrievalSet")

    struct Question { var text: String; var answers: Set<String> }

    static func questions() throws -> [Question] {
        let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent("questions.tsv")), as: UTF8.self)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return Question(text: String(parts[0]), answers: Set(parts[1].split(separator: "|").map(String.init)))
        }
    }

    /// The corpus indexed and embedded once by the single-precision encoder (the reference's
    /// arithmetic), and once by the encoder users get (8-bit products where the processor has them).
    nonisolated(unsafe) static let floatIndex = makeIndex(TestModel.loadedFloat)
    nonisolated(unsafe) static let fastIndex = makeIndex(TestModel.loaded)

    static func makeIndex(_ encoder: Result<SentenceEncoder, TestFailure>) -> Result<SearchIndex, TestFailure> {
        do {
            let index = try SearchIndex(path: ":memory:")
            let corpus = folder.appendingPathComponent("corpus")
            for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() where name.hasSuffix(".md") {
                let bytes = Array(try Data(contentsOf: corpus.appendingPathComponent(name)))
                guard let note = parse(String(decoding: bytes, as: UTF8.self), path: name).note else { throw TestFailure("\(name) did not parse") }
                try index.update(path: name, digest: note.contentDigest, chunks: NoteChunker.chunks(of: note, bytes: bytes))
            }
            try index.embedMissing(with: try encoder.get())
            return .success(index)
        } catch let error as TestFailure { return .failure(error) } catch { return .failure(TestFailure("\(error)")) }
    }

    /// Recall@3 and MRR@10 of `mode` over the question set.
    static func measure(_ mode: SearchMode, matchAll: Bool = false, precision: SentenceEncoder.Precision = .float32) throws -> (recall: Double, mrr: Double) {
        let index = try (precision == .float32 ? floatIndex : fastIndex).get()
        let encoder = try precision == .float32 ? TestModel.floatEncoder() : TestModel.encoder()
        let questions = try questions()
        var found = 0, reciprocal = 0.0
        for q in questions {
            var pages: [String] = []
            for hit in try index.find(q.text, mode: mode, encoder: encoder, limit: 60, matchAll: matchAll) where !pages.contains(hit.path) {
                pages.append(hit.path)
            }
            if let rank = pages.prefix(10).firstIndex(where: { q.answers.contains($0) }) {
                if rank < 3 { found += 1 }
                reciprocal += 1 / Double(rank + 1)
            }
        }
        return (Double(found) / Double(questions.count), reciprocal / Double(questions.count))
    }

    static func floors() throws -> [String: (recall: Double, mrr: Double)] {
        let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent("floors.tsv")), as: UTF8.self)
        var out: [String: (Double, Double)] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("mode") {
            let p = line.split(separator: "\t")
            if p.count == 3, let r = Double(p[1]), let m = Double(p[2]) { out[String(p[0])] = (r, m) }
        }
        return out
    }

    @Test func recallAndMRRStayAboveTheirFloors() throws {
        let floors = try Self.floors()
        var recalls: [SearchMode: Double] = [:]
        var report = "mode\trecall@3\tMRR@10\n"
        for mode in SearchMode.allCases {
            let (recall, mrr) = try Self.measure(mode)
            recalls[mode] = recall
            report += "\(mode.rawValue)\t\(String(format: "%.3f", recall))\t\(String(format: "%.3f", mrr))\n"
            let floor = try #require(floors[mode.rawValue], "no floor for \(mode)")
            #expect(recall >= floor.recall - 1e-9, "\(mode): recall@3 \(recall) < \(floor.recall)")
            #expect(mrr >= floor.mrr - 1e-9, "\(mode): MRR \(mrr) < \(floor.mrr)")
        }
        // The encoder users get where it is not the float one: its own floors (docs/BENCHMARKS.md).
        if SentenceEncoder.Precision.fastest == .int8 {
            for mode in [SearchMode.semantic, .hybrid] {
                let name = "\(mode.rawValue) int8"
                let (recall, mrr) = try Self.measure(mode, precision: .int8)
                report += "\(name)\t\(String(format: "%.3f", recall))\t\(String(format: "%.3f", mrr))\n"
                let floor = try #require(floors[name], "no floor for \(name)")
                #expect(recall >= floor.recall - 1e-9, "\(name): recall@3 \(recall) < \(floor.recall)")
                #expect(mrr >= floor.mrr - 1e-9, "\(name): MRR \(mrr) < \(floor.mrr)")
            }
        }
        let (andRecall, andMRR) = try Self.measure(.lexical, matchAll: true)
        report += "lexical, all words\t\(String(format: "%.3f", andRecall))\t\(String(format: "%.3f", andMRR))\n"
        print(report)
        // The point of hybrid: better than either alone.
        #expect(recalls[.hybrid, default: 0] >= max(recalls[.lexical, default: 1], recalls[.semantic, default: 1]))
    }
}
