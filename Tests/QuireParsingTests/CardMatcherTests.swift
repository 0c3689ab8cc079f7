@testable import QuireParsing
import Testing
import QuireModel
@testable import QuireTestSupport

/// Card identity (FORMAT.md §3.5): derived IDs, explicit IDs, and stored IDs that follow edits and moves.
@Suite struct CardMatcherTests {
    let body = """
        # Cells

        Mitochondrion :: the organelle that produces most of the cell's ATP

        Ribosome :: the organelle that assembles proteins from amino acids

        The {{c1::nucleus}} holds the {{c2::DNA}}.
        """

    @Test func sameIDsOnTwoMachines() {
        // Two independent parses stand for two machines: derived IDs depend only on the file.
        let first = cards(body, path: "Biology/cells.md").map(\.id)
        let second = cards(String(body), path: "Biology/cells.md").map(\.id)
        #expect(first.count == 4)
        #expect(first == second)
        #expect(Set(first).count == 4)
    }

    @Test func derivedIDFollowsTheRecipe() throws {
        let c = try #require(cards("Mitochondrion :: the powerhouse of the cell", path: "Biology/Cells/mitochondria.md").first)
        #expect(c.id.rawValue == "qb2mk8ct6gg9")
        let repeated = cards("Mitochondrion :: the powerhouse of the cell\n\nMitochondrion  ::  the  powerhouse of the cell",
                             path: "Biology/Cells/mitochondria.md")
        #expect(repeated.map(\.id.rawValue) == ["qb2mk8ct6gg9", "vyc9s1d2b8qk"])
    }

    @Test func identicalTextInTwoFilesGivesTwoIDs() {
        let a = cards(body, path: "a.md").map(\.id)
        let b = cards(body, path: "b.md").map(\.id)
        #expect(Set(a).isDisjoint(with: Set(b)))
    }

    @Test func fixingATypoKeepsHistory() throws {
        let old = try #require(cards(body, path: "cells.md").first)
        let edited = body.replacingOccurrences(of: "most of the cell's ATP", with: "most of the cells' ATP.")
        let text = noteWithState([storedLine(old, reps: 7)], body: edited)
        let (note, diagnostics) = parse(text, path: "cells.md")
        let card = try #require(note?.cards.first)
        #expect(card.front == "Mitochondrion")
        #expect(card.back == "the organelle that produces most of the cells' ATP.")
        #expect(card.id == old.id)
        #expect(card.schedule?.reps == 7)
        #expect(card.schedule?.state == .review)
        // The re-match is reported as a note at the card, naming the stored ID.
        let d = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(d.severity == .note)
        #expect(d.line == 7)
        #expect(d.column == 1)
        #expect(d.message.hasPrefix("card re-matched to its history '\(old.id)' (text edited; "))
        #expect(d.message.hasSuffix(" of 56 fingerprint bits differ; 'quire replay' records the edit)"))
        // The other cards keep their derived IDs and stay new.
        #expect(note?.cards.dropFirst().allSatisfy { $0.schedule == nil } == true)
    }

    @Test func unchangedCardMatchesByIDWithoutANote() throws {
        let old = try #require(cards(body, path: "cells.md").first)
        let (note, diagnostics) = parse(noteWithState([storedLine(old)], body: body), path: "cells.md")
        #expect(diagnostics.isEmpty)
        #expect(note?.cards.first?.schedule?.reps == 4)
    }

    @Test func aRewrittenCardIsNotMatched() throws {
        let old = try #require(cards(body, path: "cells.md").first)
        let rewritten = body.replacingOccurrences(of: "Mitochondrion :: the organelle that produces most of the cell's ATP",
                                                  with: "Golgi apparatus :: packages and ships proteins in vesicles")
        let (note, diagnostics) = parse(noteWithState([storedLine(old)], body: rewritten), path: "cells.md")
        #expect(note?.cards.allSatisfy { $0.schedule == nil } == true)
        #expect(printed(diagnostics) == [
            "cells.md:3:3: warning: scheduling state for card '\(old.id)' matches no card in this note; kept",
        ])
    }

    @Test func reorderingCardsKeepsHistory() throws {
        let originals = cards(body, path: "cells.md")
        let lines = [storedLine(originals[0], reps: 1), storedLine(originals[1], reps: 2),
                     storedLine(originals[2], reps: 3), storedLine(originals[3], reps: 4)]
        let reordered = """
            # Cells

            The {{c1::nucleus}} holds the {{c2::DNA}}.

            Ribosome :: the organelle that assembles proteins from amino acids

            Mitochondrion :: the organelle that produces most of the cell's ATP
            """
        let (note, diagnostics) = parse(noteWithState(lines, body: reordered), path: "cells.md")
        #expect(diagnostics.isEmpty)
        let byFront = Dictionary(uniqueKeysWithValues: (note?.cards ?? []).map { ($0.front + "|\($0.variant)", $0) })
        #expect(byFront["Mitochondrion|single"]?.id == originals[0].id)
        #expect(byFront["Mitochondrion|single"]?.schedule?.reps == 1)
        #expect(byFront["Ribosome|single"]?.schedule?.reps == 2)
        #expect(byFront["The [...] holds the DNA.|cloze(1)"]?.schedule?.reps == 3)
        #expect(byFront["The nucleus holds the [...].|cloze(2)"]?.schedule?.reps == 4)
    }

    @Test func movingOrRenamingTheFileKeepsHistory() throws {
        let originals = cards(body, path: "Biology/cells.md")
        let lines = zip(originals, 1...).map { storedLine($0, reps: $1) }
        let text = noteWithState(lines, body: body)
        let (note, diagnostics) = parse(text, path: "Archive/2026/cell-biology.md")
        let moved = try #require(note?.cards)
        #expect(moved.map(\.id) == originals.map(\.id))
        #expect(moved.map { $0.schedule?.reps } == [1, 2, 3, 4])
        // Unchanged texts re-matched after a move are the normal state of cards that keep their
        // IDs: nothing is said (a note on every later read would never go away).
        #expect(printed(diagnostics).isEmpty)
    }

    @Test func clozeSiblingsNeverSwapHistoriesAfterAMove() throws {
        let group = "Sentence with {{c1::alpha}}, {{c2::beta}} and {{c3::gamma}} deletions."
        let originals = cards(group, path: "old.md")
        #expect(originals.count == 3)
        // Stored lines in reverse order, so position alone would pair them wrongly.
        let lines = [storedLine(originals[2], reps: 30), storedLine(originals[1], reps: 20),
                     storedLine(originals[0], reps: 10)]
        let moved = cards(noteWithState(lines, body: group), path: "new/place.md")
        #expect(moved.map(\.variant) == [.cloze(1), .cloze(2), .cloze(3)])
        #expect(moved.map(\.id) == originals.map(\.id))
        #expect(moved.map { $0.schedule?.reps } == [10, 20, 30])
    }

    @Test func reversedSiblingsNeverSwapAfterAMoveAndEdit() throws {
        let pair = "Hund's rule ::: electrons fill degenerate orbitals singly before pairing"
        let originals = cards(pair, path: "old.md")
        let lines = [storedLine(originals[1], reps: 2), storedLine(originals[0], reps: 1)]
        let edited = "Hund's rule ::: electrons fill degenerate orbitals singly, before pairing"
        let moved = cards(noteWithState(lines, body: edited), path: "new.md")
        #expect(moved.map(\.variant) == [.forward, .backward])
        #expect(moved.map(\.id) == originals.map(\.id))
        #expect(moved.map { $0.schedule?.reps } == [1, 2])
    }

    @Test func explicitIDWins() throws {
        let text = "Mitochondrion :: the powerhouse of the cell ^mito-def"
        let derived = try #require(cards("Mitochondrion :: the powerhouse of the cell").first)
        let (note, diagnostics) = parse(noteWithState([
            "  mito-def: {state: review, reps: 5, lapses: 0}",
            storedLine(derived, reps: 9),
        ], body: text))
        let c = try #require(note?.cards.first)
        #expect(c.id.rawValue == "mito-def")
        #expect(c.schedule?.reps == 5)
        // The line under the derived ID is not given to the explicit-ID card; it is kept and reported.
        #expect(printed(diagnostics) == [
            "notes.md:4:3: warning: scheduling state for card '\(derived.id)' matches no card in this note; kept",
        ])
    }

    @Test func explicitIDCardIsNotReMatchedFromAnotherLine() throws {
        let plain = try #require(cards("Term :: definition text here").first)
        let (note, _) = parse(noteWithState([storedLine(plain)], body: "Term :: definition text here ^mine"))
        #expect(note?.cards.first?.schedule == nil)
        #expect(note?.cards.first?.id.rawValue == "mine")
    }

    @Test func storedLineMatchingNoCardIsKeptAsAWarning() {
        let (note, diagnostics) = parse(noteWithState([
            "  zzzzzzzzzzzz: {fp: 0123456789abcd00, state: review, reps: 1, lapses: 0}",
            "  nofp: {state: review, reps: 1, lapses: 0}",
        ], body: "x :: y\n"))
        #expect(note?.cards.first?.schedule == nil)
        #expect(printed(diagnostics) == [
            "notes.md:3:3: warning: scheduling state for card 'zzzzzzzzzzzz' matches no card in this note; kept",
            "notes.md:4:3: warning: scheduling state for card 'nofp' matches no card in this note; kept",
        ])
    }

    @Test func duplicateExplicitIDInOneNoteIsAnError() {
        let (_, diagnostics) = parse("a :: b ^same\n\nc :: d ^same\n")
        #expect(printed(diagnostics) == ["notes.md:3:1: error: card ID 'same' is already used at line 1 of this note"])
    }

    @Test func occurrenceSeparatesIdenticalCards() throws {
        let found = cards("x :: y\n\nx :: y\n\nx ::: y\n")
        #expect(found.count == 4)
        #expect(Set(found.map(\.id)).count == 4)
        // Removing the first copy shifts the second into its ID: the occurrence counts earlier twins.
        let after = cards("x :: y\n\nx ::: y\n")
        #expect(after[0].id == found[0].id)
        #expect(after[1].id == found[2].id)
    }

    /// Thousands of identical cards (found by the long fuzz trial: a note of repeated empty
    /// clozes took 11 s) cost their count, not its square; each still has the ID FORMAT.md §3.5
    /// gives, its occurrence among its twins.
    @Test func manyIdenticalCardsTakeTheirOccurrencesInOnePass() throws {
        let n = 5_000
        let found = cards(String(repeating: "x :: y\n\n", count: n) + "z :: w\n\n" + String(repeating: "x :: y\n\n", count: 3))
        #expect(found.count == n + 4)
        #expect(Set(found.map(\.id)).count == n + 4)
        let twin = try #require(found.first)
        for (k, card) in found.enumerated() where card.front == "x" {
            let occurrence = k < n ? k : k - 1
            #expect(card.id == CardID.derive(path: "notes.md", kind: twin.kind, variant: twin.variant.identityText,
                                             identityText: twin.identityText, occurrence: occurrence))
        }
    }

    @Test func closestStoredLineWinsWhenTwoQualify() throws {
        let a = "Photosynthesis :: converts light energy into chemical energy stored in glucose"
        let b = "Photosynthesis :: converts light energy into chemical energy stored in sugars"
        let ca = try #require(cards(a).first), cb = try #require(cards(b).first)
        // The note now holds a third variant closer to `a`; only one card exists, so `a`'s line wins.
        let now = "Photosynthesis :: converts light energy into chemical energy stored in glucose."
        let (note, diagnostics) = parse(noteWithState([storedLine(cb, reps: 2), storedLine(ca, reps: 1)], body: now))
        #expect(note?.cards.first?.id == ca.id)
        #expect(note?.cards.first?.schedule?.reps == 1)
        #expect(diagnostics.filter { $0.severity == .warning }.count == 1)
    }
}
