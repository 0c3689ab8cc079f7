@testable import QuireIndex
import Testing
import QuireModel
@testable import QuireTestSupport

/// Matching queries against cards and notes, at a pinned `now`.
@Suite struct QueryMatchingTests {
    /// One note per situation; each card's front names its state.
    let index: VaultIndex

    init() throws {
        func note(_ path: String, _ frontMatter: String, _ lines: [String: String], body: String) throws -> Note {
            let bare = try #require(parse(body, path: path).note)
            var stored: [String] = []
            for card in bare.cards {
                if let fields = lines[card.front] { stored.append("  \(card.id): {fp: \(card.fingerprint), \(fields)}") }
            }
            let text = "---\n" + frontMatter + (stored.isEmpty ? "" : "quire:\n" + stored.joined(separator: "\n") + "\n") + "---\n" + body
            let (n, diagnostics) = parse(text, path: path)
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            return try #require(n)
        }
        let body = """
            # Mitochondria

            fresh :: a new card
            due :: reviewed and due
            later :: reviewed, due tomorrow
            learning :: in a step
            relearning :: in a relearning step
            suspended :: suspended card
            buried :: buried until tomorrow
            unburied :: burial over
            inactive :: StudyFlow inactive
            What is ATP? :: the energy currency

            The {{c1::Krebs cycle}} runs in the {{c2::matrix}}.
            """
        let states = [
            "due": "state: review, due: 2026-11-22T11:00:00Z, reps: 3, lapses: 0",
            "later": "state: review, due: 2026-11-23T00:00:00Z, reps: 3, lapses: 0",
            "learning": "state: learning, step: 0, due: 2026-11-22T11:59:00Z, reps: 1, lapses: 0",
            "relearning": "state: relearning, step: 1, due: 2026-11-22T13:00:00Z, reps: 5, lapses: 1",
            "suspended": "state: review, due: 2026-11-01, reps: 2, lapses: 0, suspended: true",
            "buried": "state: review, due: 2026-11-01, reps: 2, lapses: 0, buried: 2026-11-23",
            "unburied": "state: review, due: 2026-11-01, reps: 2, lapses: 0, buried: 2026-11-22T12:00:00Z",
            "inactive": "state: review, due: 2026-11-01, reps: 2, lapses: 0, flow: inactive",
        ]
        let notes = [
            try note("Biology/Cells/mitochondria.md", "title: Powerhouse\ntags: [exam/week-3]\ncycle: weekly\ncategory: Concept\n",
                     states, body: body),
            try note("Archive/old.md", "archived: true\n",
                     ["due": "state: review, due: 2026-11-01, reps: 1, lapses: 0"], body: "due :: archived but due\n"),
            try note("Chemistry/acids.md", "deck: Chemistry/Acids\ntags: quiz\n", [:], body: "Acid ::: Base\n"),
        ]
        index = VaultIndex(root: "/vault", notes: notes)
    }

    private func fronts(_ text: String) throws -> [String] {
        let query = try Query(parsing: text)
        return index.cards(matching: query, now: fixedNow, dayEnd: fixedNow).map { index.card(at: $0).front }
    }

    private func notePaths(_ text: String) throws -> [String] {
        let query = try Query(parsing: text)
        return index.notes(matching: query, now: fixedNow, dayEnd: fixedNow).map { index.notes[$0].path }
    }

    @Test func statuses() throws {
        #expect(try fronts("is:due") == ["due", "learning", "unburied"])
        #expect(try fronts("is:new path:Biology") == ["fresh", "What is ATP?", "The [...] runs in the matrix.",
                                                        "The Krebs cycle runs in the [...]."])
        #expect(try fronts("is:learning") == ["learning", "relearning"])
        #expect(try fronts("is:review path:Biology") == ["due", "later", "suspended", "buried", "unburied", "inactive"])
        #expect(try fronts("is:suspended") == ["suspended"])
        #expect(try fronts("is:buried") == ["buried"])
        #expect(try fronts("is:archived") == ["due"])
        #expect(try notePaths("is:archived") == ["Archive/old.md"])
    }

    @Test func dueDependsOnNow() throws {
        let query = try Query(parsing: "is:due")
        let tomorrow = Timestamp(year: 2026, month: 11, day: 23, hour: 1)
        let fronts = index.cards(matching: query, now: tomorrow, dayEnd: tomorrow).map { index.card(at: $0).front }
        #expect(fronts == ["due", "later", "learning", "relearning", "buried", "unburied"])
    }

    @Test func kindsAndIDs() throws {
        #expect(try fronts("type:basic") == ["What is ATP?"])
        #expect(try fronts("type:reversed") == ["Acid", "Base"])
        #expect(try fronts("kind:cloze").count == 2)
        let id = index.notes[2].cards[1].id
        #expect(try fronts("id:\(id)") == ["Base"])
    }

    @Test func noteFields() throws {
        #expect(try notePaths("deck:biology") == ["Biology/Cells/mitochondria.md"])
        #expect(try notePaths("deck:Chemistry") == ["Chemistry/acids.md"])
        #expect(try notePaths("deck:Chem") == [])
        #expect(try notePaths("tag:exam") == ["Biology/Cells/mitochondria.md"])
        #expect(try notePaths("tag:EXAM/week-3") == ["Biology/Cells/mitochondria.md"])
        #expect(try notePaths("tag:week-3") == [])
        #expect(try notePaths("cycle:weekly") == ["Biology/Cells/mitochondria.md"])
        #expect(try notePaths("category:concept") == ["Biology/Cells/mitochondria.md"])
        #expect(try notePaths("path:*.md").count == 3)
        #expect(try notePaths("path:Biology/Cells") == ["Biology/Cells/mitochondria.md"])
    }

    @Test func cardTermsOnNotes() throws {
        #expect(try notePaths("is:suspended") == ["Biology/Cells/mitochondria.md"])
        #expect(try notePaths("type:reversed") == ["Chemistry/acids.md"])
        #expect(try notePaths("-type:reversed") == ["Archive/old.md", "Biology/Cells/mitochondria.md"])
        #expect(try notePaths("is:new") == ["Biology/Cells/mitochondria.md", "Chemistry/acids.md"])
    }

    @Test func wordsMatchTextTitleAndPath() throws {
        #expect(try fronts("ENERGY") == ["What is ATP?"])
        #expect(try fronts("\"the energy currency\"") == ["What is ATP?"])
        #expect(try fronts("powerhouse").count == 12)
        #expect(try fronts("acids") == ["Acid", "Base"])
        #expect(try notePaths("krebs") == ["Biology/Cells/mitochondria.md"])
        #expect(try notePaths("powerhouse") == ["Biology/Cells/mitochondria.md"])
        #expect(try fronts("caf\u{E9}") == [])
    }

    @Test func combinations() throws {
        #expect(try fronts("tag:exam (is:suspended or is:buried)") == ["suspended", "buried"])
        #expect(try fronts("is:review -is:due path:Biology") == ["later", "suspended", "buried", "inactive"])
        #expect(try fronts("type:reversed or is:learning") == ["learning", "relearning", "Acid", "Base"])
    }

    @Test func noteLevelQueriesAreAskedOncePerNoteWithTheSameAnswer() throws {
        let cases: [(String, Bool)] = [
            ("", false), ("deck:biology", false), ("tag:exam -path:Archive", false), ("is:archived", false),
            ("cycle:weekly or category:concept", false), ("-(deck:Chemistry or tag:exam)", false),
            ("is:due", true), ("deck:biology type:basic", true), ("-id:xxxx", true), ("tag:exam or energy", true),
        ]
        for (text, perCard) in cases {
            let query = try Query(parsing: text)
            #expect(query.dependsOnCard == perCard, "\(text)")
            // Every card asked on its own gives the same cards, in the same order.
            var expected: [CardLocation] = []
            for (n, note) in index.notes.enumerated() {
                for (c, card) in note.cards.enumerated() where query.matches(card: card, in: note, now: fixedNow, dayEnd: fixedNow) {
                    expected.append(CardLocation(note: n, card: c))
                }
            }
            #expect(index.cards(matching: query, now: fixedNow, dayEnd: fixedNow) == expected, "\(text)")
            #expect(index.cardCount(matching: query, now: fixedNow, dayEnd: fixedNow) == expected.count, "\(text)")
        }
    }

    @Test func caseInsensitiveContains() {
        #expect(containsFolded("Mitochondrion", "CHOND"))
        #expect(!containsFolded("Mito", "mitos"))
        #expect(containsFolded("anything", ""))
        #expect(containsFolded("Ærø Island", "ærø"))
        // Accents aside, both ways, and text written decomposed.
        #expect(containsFolded("el niño", "nino") && containsFolded("el nino", "niño") && containsFolded("EL NIÑO", "Niño"))
        #expect(containsFolded("el nin\u{0303}o", "niño") && containsFolded("Straße", "strasse") && containsFolded("Łódź", "lodz"))
        #expect(!containsFolded("niña", "nino"))
    }
}
