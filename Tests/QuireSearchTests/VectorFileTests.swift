import Foundation
import Testing
import QuireEmbedding
import QuireModel
@testable import QuireSearch
@testable import QuireTestSupport

/// The vectors laid out for searching in place: the same nearest chunks as the tables give, used
/// only while the index is in the state it was stamped with, and checked whole when it comes with
/// a vault (a file of someone else's making is never trusted for a size or an order).
@Suite struct VectorFileTests {
    /// A unit vector of 384 values made from `seed` (deterministic).
    static func vector(_ seed: Int64) -> [Float] {
        var state = UInt64(bitPattern: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        let raw = (0..<SentenceEncoder.dimension).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2001 - 1000) / 1000
        }
        let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return raw.map { $0 / norm }
    }

    /// An index at `dir/s.sqlite` holding `notes` notes of two chunks, every chunk with a vector.
    static func index(_ dir: TempDir, notes: Int = 12) throws -> SearchIndex {
        let index = try SearchIndex(path: dir.full("s.sqlite"))
        for n in 0..<notes { try add(index, n) }
        try index.fillVectors(vector)
        return index
    }

    static func add(_ index: SearchIndex, _ n: Int, words: String = "") throws {
        let text = "# Note \(n)\n\nParagraph one of note \(n) \(words).\n\n## More\n\nParagraph two of note \(n).\n"
        let note = try #require(parse(text, path: "n\(n).md").note)
        try index.update(path: "n\(n).md", digest: note.contentDigest, chunks: NoteChunker.chunks(of: note, bytes: Array(text.utf8)))
    }

    static func file(_ dir: TempDir) -> String { dir.full("s.sqlite" + SearchIndex.vectorFileSuffix) }

    @Test func aSecondIndexMapsTheFileAndFindsTheSameChunks() throws {
        try withTempDir { dir in
            let first = try Self.index(dir)
            let query = Self.vector(42)
            let hits = try first.nearest(query, limit: 5)
            #expect(hits.count == 5)
            let written = try #require(VectorFile.mapped(Self.file(dir)))
            #expect(written.count == 24 && written.embeddedChunks == 24 && written.chunkCount == 24)
            // Another command: the file stands for the index as it is, so it is used as it is.
            let second = try SearchIndex(path: dir.full("s.sqlite"))
            #expect(try second.vectors().file.stamp == written.stamp)
            #expect(try second.nearest(query, limit: 5).map(\.chunk) == hits.map(\.chunk))
            #expect(try second.counts() == (chunks: 24, embedded: 24))
            // The same order as the vectors kept in memory give.
            var set = VectorSet()
            var hashes: [Int64] = []
            try second.db.query("SELECT hash FROM vectors ORDER BY hash") { hashes.append($0.int(0)) }
            for h in hashes { set.append(Self.vector(h)) }
            let expected = set.nearest(query, limit: 3).map { hashes[$0.index] }
            let found = try second.vectors().nearest(query, limit: 3).map { v in hashes[v.index] }
            #expect(found == expected)
            // Scanned a few vectors at a time, each window's pages given back: the same.
            let windowed = try second.vectors().file.nearest(query, limit: 3, window: 5).map { v in hashes[v.index] }
            #expect(windowed == expected)
            let chunk = try #require(hits.first?.chunk)
            let stored = try #require(try second.vector(ofChunk: chunk))
            var hash: Int64 = 0
            try second.db.query("SELECT hash FROM info WHERE id = ?", [.int(chunk)]) { hash = $0.int(0) }
            #expect(SentenceEncoder.cosine(stored, Self.vector(hash)) > 0.99)
        }
    }

    /// Another command adds a note and its vectors: the file on disk is not made again but used
    /// with the rows written since; a note taken out is no longer found through the file.
    @Test func theFileIsUsedWithTheRowsWrittenSince() throws {
        try withTempDir { dir in
            let index = try Self.index(dir)
            _ = try index.nearest(Self.vector(1), limit: 3)
            let before = try #require(VectorFile.mapped(Self.file(dir))).stamp
            let query = Self.vector(4242)
            let other = try SearchIndex(path: dir.full("s.sqlite"))
            try Self.add(other, 99, words: "volcano")
            // The new note's chunks get the query's own vector: the nearest there are.
            try other.fillVectors { _ in query }
            let reopened = try SearchIndex(path: dir.full("s.sqlite"))
            let now = try reopened.vectors()
            #expect(now.behind && now.count == 26 && now.missing.isEmpty)
            #expect(try #require(VectorFile.mapped(Self.file(dir))).stamp == before, "not made again")
            let nearest = try reopened.nearest(query, limit: 2)
            #expect(nearest.map(\.path) == ["n99.md", "n99.md"])
            #expect(try reopened.counts() == (chunks: 26, embedded: 26) && reopened.missingVectors() == 0)
            // A chunk written since without a vector is missing, and computed from the rows since.
            try Self.add(reopened, 100, words: "lava")
            #expect(try SearchIndex(path: dir.full("s.sqlite")).missingVectors() == 2)
            // Taken out: the file still lists note 3's chunks, which are skipped.
            var hash: Int64 = 0
            try reopened.db.query("SELECT hash FROM info WHERE path = 'n3.md' LIMIT 1") { hash = $0.int(0) }
            try reopened.remove(path: "n3.md")
            let after = try SearchIndex(path: dir.full("s.sqlite"))
            #expect(try after.nearest(Self.vector(hash), limit: 5).allSatisfy { $0.path != "n3.md" })
            #expect(try after.counts() == (chunks: 26, embedded: 24))
            var kept = 0
            try after.db.query("SELECT count(*) FROM vectors WHERE hash = ?", [.int(hash)]) { kept = Int($0.int(0)) }
            #expect(kept == 0, "the vector of a text no chunk has is taken out with the note")
        }
    }

    /// An index of version 7 (chunks cut the same way, rows numbered with reuse): made anew but
    /// for its vectors, which the same texts find again by their hash.
    @Test func anIndexOfTheVersionBeforeKeepsItsVectors() throws {
        try withTempDir { dir in
            let index = try Self.index(dir)
            try index.db.execute("UPDATE meta SET value = '7' WHERE key = 'version'")
            let reopened = try SearchIndex(path: dir.full("s.sqlite"))
            #expect(try reopened.digests().isEmpty)
            for n in 0..<12 { try Self.add(reopened, n) }
            #expect(try reopened.missingVectors() == 0)
            try reopened.db.execute("UPDATE meta SET value = '6' WHERE key = 'version'")
            #expect(try SearchIndex(path: dir.full("s.sqlite")).counts() == (chunks: 0, embedded: 0))
            var vectors = -1
            try SearchIndex(path: dir.full("s.sqlite")).db.query("SELECT count(*) FROM vectors") { vectors = Int($0.int(0)) }
            #expect(vectors == 0, "an older chunker's vectors are dropped")
        }
    }

    /// A connection that keeps its vectors (a watcher's) sees what another wrote since: the
    /// chunks it added and their vectors.
    @Test func anotherConnectionsWritesAreSeen() throws {
        try withTempDir { dir in
            let kept = try Self.index(dir)
            _ = try kept.nearest(Self.vector(1), limit: 3)
            #expect(try kept.missingVectors() == 0)
            let other = try SearchIndex(path: dir.full("s.sqlite"))
            try Self.add(other, 77, words: "geyser")
            #expect(try kept.missingVectors() == 2)
            let query = Self.vector(777)
            try other.fillVectors { _ in query }
            #expect(try kept.missingVectors() == 0)
            #expect(try kept.nearest(query, limit: 1).map(\.path) == ["n77.md"])
        }
    }

    /// Too many rows written since (or taken out): the file is made again for the index as it is.
    @Test func aFileFarBehindIsMadeAgain() throws {
        try withTempDir { dir in
            let index = try Self.index(dir)
            _ = try index.nearest(Self.vector(1), limit: 3)
            let before = try #require(VectorFile.mapped(Self.file(dir))).stamp
            for n in 20..<22 { try Self.add(index, n, words: "more") }
            try index.fillVectors(Self.vector)
            let reopened = try SearchIndex(path: dir.full("s.sqlite"))
            reopened.minimumRowsBehind = 3
            #expect(try reopened.counts() == (chunks: 28, embedded: 28))
            let now = try reopened.vectors()
            #expect(!now.behind && now.count == 28)
            let made = try #require(VectorFile.mapped(Self.file(dir)))
            #expect(made.stamp != before && made.count == 28 && made.chunkCount == 28)
            // A file made while chunks lacked a vector is not used once the index changed.
            reopened.minimumRowsBehind = 0
            try Self.add(reopened, 30)
            _ = try reopened.nearest(Self.vector(1), limit: 3)
            #expect(try #require(VectorFile.mapped(Self.file(dir))).embeddedChunks == 28)
            try reopened.fillVectors(Self.vector)
            let filled = try SearchIndex(path: dir.full("s.sqlite"))
            #expect(try !filled.vectors().behind && filled.counts() == (chunks: 30, embedded: 30))
        }
    }

    /// A file stamped for the index but with bytes of its own making: every way it could point
    /// outside itself or mislead a size is refused, and the index makes the file again.
    @Test func aDamagedOrForgedFileIsNotUsed() throws {
        try withTempDir { dir in
            _ = try Self.index(dir).nearest(Self.vector(1), limit: 3)
            let good = try Data(contentsOf: URL(fileURLWithPath: Self.file(dir)))
            func patched(_ edit: (inout Data) -> Void) -> Data {
                var bytes = good
                edit(&bytes)
                return bytes
            }
            func put<T>(_ value: T, at offset: Int, in bytes: inout Data) {
                withUnsafeBytes(of: value) { bytes.replaceSubrange(offset..<(offset + $0.count), with: $0) }
            }
            let count = 24, embedded = 24, header = VectorFile.headerSize
            let offsetsAt = header + 8 * count + 8 * embedded, scalesAt = offsetsAt + 4 * (count + 1) + count * SentenceEncoder.dimension
            let forged: [(String, Data)] = [
                ("cut short", good.prefix(good.count - 1)),
                ("longer", good + Data([0])),
                ("another magic", patched { $0[0] = UInt8(ascii: "X") }),
                ("another dimension", patched { put(UInt32(512), at: 12, in: &$0) }),
                ("a count past the file", patched { put(UInt64.max, at: 16, in: &$0) }),
                ("chunks past the file", patched { put(UInt64(1) << 40, at: 24, in: &$0) }),
                ("offsets that go back", patched { put(UInt32(30), at: offsetsAt + 4, in: &$0) }),
                ("a scale not a number", patched { put(Float.nan, at: scalesAt, in: &$0) }),
                ("hashes out of order", patched { put(Int64.max, at: header, in: &$0) }),
            ]
            for (what, bytes) in forged {
                #expect(bytes.withUnsafeBytes { VectorFile($0, owner: dir as AnyObject) } == nil, "\(what)")
                try bytes.write(to: URL(fileURLWithPath: Self.file(dir)))
                let index = try SearchIndex(path: dir.full("s.sqlite"))
                #expect(try index.nearest(Self.vector(1), limit: 3).count == 3, "\(what)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: Self.file(dir))) == good, "\(what): made again")
            }
            // A link or a folder in the file's place is not followed or read: the vectors come
            // from the tables and the file is made again in its place.
            try FileManager.default.removeItem(atPath: Self.file(dir))
            try dir.write("elsewhere", "")
            try FileManager.default.createSymbolicLink(atPath: Self.file(dir), withDestinationPath: dir.full("elsewhere"))
            #expect(try SearchIndex(path: dir.full("s.sqlite")).nearest(Self.vector(1), limit: 3).count == 3)
            #expect(try dir.text("elsewhere").isEmpty)
        }
    }
}
