@testable import QuireIndex
import Testing
import QuireModel
@testable import QuireTestSupport

/// Notes, scheduling states and diagnostics through the cache's encoding.
@Suite struct NoteCodingTests {
    /// The kind numbers in caches already written are the places in `CardKind.allCases`.
    @Test func kindCodesAreTheOrderOfAllCases() throws {
        for (n, kind) in CardKind.allCases.enumerated() {
            #expect(NoteCoding.kindCode(kind) == UInt8(n))
            #expect(try NoteCoding.kindFromCode(UInt8(n)) == kind)
        }
        #expect(throws: IndexCacheError.self) { try NoteCoding.kindFromCode(UInt8(CardKind.allCases.count)) }
    }

    private static let text = """
        ---
        title: "Every kind"
        deck: Biology/Cells
        tags: [bio, Exam/Final]
        created: 2026-01-02
        cycle: weekly
        archived: true
        category: concept
        source: a book
        source_type: book
        reviewed: 2026-11-01
        ---
        # Cells
        ## Parts

        Q: What is the powerhouse of the cell?
        A: The mitochondrion.

        Ribosome :: the site of protein synthesis.

        Left ::: right

        The {{c1::nucleus}} holds the {{c2::DNA::molecule}}. ==Highlighted== text. #inline-tag

        """

    private func roundTrip(_ note: Note) throws -> Note {
        var tables = NameTables()
        _ = tables.number(of: note.deck)
        for t in note.tags { _ = tables.number(of: t) }
        var w = BinaryWriter()
        NoteCoding.encode(note, tables: tables, into: &w)
        let (decoded, atEnd) = try reading(w.bytes) { r throws(IndexCacheError) in
            (try NoteCoding.decodeNote(path: note.path, tables: tables, &r), r.isAtEnd)
        }
        #expect(atEnd)
        return decoded
    }

    @Test func aNoteReadsBackFieldForField() throws {
        let note = try #require(parse(Self.text, path: "Biology/cells.md").note)
        #expect(note.cards.contains { $0.kind == .cloze })
        #expect(try dump(roundTrip(note)) == dump(note))
    }

    @Test func everySchedulingFieldReadsBack() throws {
        var s = SchedulingState()
        s.fingerprint = Fingerprint(bits: 0x0123_4567_89AB_CDEF)
        s.state = .relearning
        s.step = 2
        s.due = Timestamp(milliseconds: 1_795_000_000_123)
        s.lastReview = Timestamp(milliseconds: -5)
        s.stability = 12.3456
        s.difficulty = .pi
        s.ease = 2.5
        s.interval = 40
        s.reps = 9
        s.lapses = 3
        s.flow = .mastered
        s.streak = 4
        s.attempts = 11
        s.suspended = true
        s.buriedUntil = Timestamp(milliseconds: 42)
        s.unknownFields = [(key: "x-sync", value: "\"abc\""), (key: "note", value: "[1, 2]")]
        for state in [s, SchedulingState()] {
            var w = BinaryWriter()
            NoteCoding.encode(state, into: &w)
            let back = try reading(w.bytes) { r throws(IndexCacheError) in try NoteCoding.decodeSchedule(&r) }
            #expect(back == state)
        }
    }

    @Test func diagnosticsReadBack() throws {
        for d in [Diagnostic(.error, path: "a/b.md", line: 3, column: 7, message: "bad"),
                  Diagnostic(.warning, path: "x.md", message: "whole file"), Diagnostic(.note, path: "", line: 1, message: "")] {
            var w = BinaryWriter()
            NoteCoding.encode(d, into: &w)
            let back = try reading(w.bytes) { r throws(IndexCacheError) in try NoteCoding.decodeDiagnostic(&r) }
            #expect(back == d)
        }
    }

    @Test func aCutOrDamagedNoteNeverCrashes() throws {
        let note = try #require(parse(Self.text, path: "Biology/cells.md").note)
        var tables = NameTables()
        _ = tables.number(of: note.deck)
        for t in note.tags { _ = tables.number(of: t) }
        var w = BinaryWriter()
        NoteCoding.encode(note, tables: tables, into: &w)
        for cut in 0..<w.bytes.count {
            #expect(throws: IndexCacheError.self) {
                try reading(Array(w.bytes.prefix(cut))) { r throws(IndexCacheError) in
                    _ = try NoteCoding.decodeNote(path: "x.md", tables: tables, &r)
                }
            }
        }
        // Every single byte set to 0xFF: an error or some note, never a crash.
        for i in w.bytes.indices {
            var bad = w.bytes
            bad[i] = 0xFF
            _ = try? reading(bad) { r throws(IndexCacheError) in try NoteCoding.decodeNote(path: "x.md", tables: tables, &r) }
        }
    }
}
