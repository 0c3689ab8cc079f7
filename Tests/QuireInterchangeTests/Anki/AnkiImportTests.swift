import Foundation
@testable import QuireInterchange
import Testing
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling
@testable import QuireTestSupport

/// Planning what an Anki package (made by Anki's own library) becomes.
@Suite struct AnkiImportTests {
    /// The import's time: now, as the packages are made now (Anki's library takes note IDs from
    /// the clock, and an ID after the import's time is said to be no creation time).
    static let now = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
    static let tomorrow = Timestamp(year: 2026, month: 11, day: 27, hour: 4)

    static func plan(_ file: String, in dir: TempDir) throws -> (AnkiPackage, AnkiImport, [String: Any]) {
        let expected = try AnkiPackageTests.makePackages(dir)
        let package = try AnkiPackage.read(path: dir.full(file), name: file)
        let plan = AnkiImport.plan(package, options: .init(source: file, now: now, buriedUntil: tomorrow),
                                   taken: { _ in false })
        return (package, plan, expected)
    }

    @Test(arguments: ["current.apkg", "legacy.apkg"])
    func notesCardsAndStates(_ file: String) throws {
        try withTempDir { dir in
            let (package, plan, _) = try Self.plan(file, in: dir)
            #expect(plan.isWritable, "\(plan.diagnostics)")
            #expect(plan.diagnostics.map(\.description) == [
                "\(file): warning: note type 'Hanzi' (1 note) is not one Quire knows: each card's fields as its template shows them",
            ])
            // Every Anki card is a Quire card.
            #expect(plan.cardCount == package.cards.count)
            let notes = Dictionary(uniqueKeysWithValues: plan.notes.map { ($0.path, $0) })
            #expect(notes.keys.sorted() == [
                "Biology/Cells/Capital of France.md", "Biology/Cells/Parts of a cell.md", "Biology/Cells/The mitochondria makes ATP.md", "Biology/Cells/What is ATP.md",
                "Languages/Spanish/correr.md", "Languages/Spanish/el gato.md", "Languages/Spanish/el perro.md", "Languages/Spanish/la casa.md",
                "Languages/Spanish/人.md",
            ])
            func parsed(_ path: String) throws -> Note {
                let note = try #require(notes[path])
                return try #require(NoteParser.parse(note.bytes, path: path).note)
            }
            let atp = try parsed("Biology/Cells/What is ATP.md")
            #expect(atp.cards.map(\.kind) == [.basic])
            #expect(atp.cards.first?.front == "What is **ATP**?")
            #expect(atp.cards.first?.back == "The cell's energy currency\n![](assets/cell.png)")
            #expect(atp.tags.map(\.name) == ["bio", "exam"])
            #expect(try parsed("Languages/Spanish/el perro.md").cards.map(\.variant) == [.forward, .backward])
            #expect(try parsed("Languages/Spanish/la casa.md").cards.map(\.kind) == [.basic])
            #expect(try parsed("Languages/Spanish/el gato.md").cards.map(\.kind) == [.reversed, .reversed])
            #expect(try parsed("Biology/Cells/The mitochondria makes ATP.md").cards.map(\.variant) == [.cloze(1), .cloze(2)])
            // A field no template shows stays in the note, labelled.
            let correr = try parsed("Languages/Spanish/correr.md")
            #expect(correr.cards.first?.back == "to run")
            #expect(String(decoding: try #require(notes["Languages/Spanish/correr.md"]).bytes, as: UTF8.self).contains("\n**Example:** Me gusta *correr*.\n"))
            // Anki's image occlusion: a cloze of shapes, its header and image in the card's text.
            let occlusion = try parsed("Biology/Cells/Parts of a cell.md")
            #expect(occlusion.cards.map(\.variant) == [.cloze(1), .cloze(2)])
            #expect(occlusion.cards.first?.front.hasPrefix("Parts of a cell\n\n[...]image-occlusion:ellipse:") == true, "\(occlusion.cards.first?.front ?? "")")
            #expect(occlusion.cards.first?.front.hasSuffix("\n\n![](assets/cell.png)") == true)
            // Templates decide each card's sides: no front gives its answer away.
            let ren = try parsed("Languages/Spanish/人.md")
            #expect(ren.cards.map(\.front) == ["人", "person"])
            #expect(ren.cards.map(\.back) == ["**Pinyin:** rén\n\n**Meaning:** person", "**Hanzi:** 人\n\n**Pinyin:** rén"])
            let renText = String(decoding: try #require(notes["Languages/Spanish/人.md"]).bytes, as: UTF8.self)
            #expect(renText.contains("**Notes:**\n\n```markdown\nA radical: 亻\nQ: not a card\n```"), "\(renText)")
            let typed = try #require(notes["Biology/Cells/Capital of France.md"])
            #expect(String(decoding: typed.bytes, as: UTF8.self).contains("\ntype: true\n"))
            // States: Anki's due dates, FSRS memory, suspension and burial.
            let ankiATP = try #require(package.cards.first { $0.note == package.notes.first { $0.fields[0].contains("ATP</b>") }?.id })
            let state = try #require(atp.cards.first?.schedule)
            #expect(state.state == .review || state.state == .relearning)
            if ankiATP.type == 2 { #expect(state.due == Timestamp(seconds: package.created + ankiATP.due * 86_400)) }
            #expect(state.reps == Int(ankiATP.reps) && state.lapses == Int(ankiATP.lapses))
            #expect(state.stability != nil && state.fingerprint == atp.cards.first?.fingerprint)
            #expect(try parsed("Languages/Spanish/el gato.md").cards.first?.schedule?.suspended == true)
            #expect(try parsed("Languages/Spanish/correr.md").cards.first?.schedule?.buriedUntil == Self.tomorrow)
            #expect(try parsed("Languages/Spanish/la casa.md").cards.first?.schedule == nil)
            // Media: what the notes use.
            #expect(plan.media.map(\.path).sorted() == ["assets/cell.png", "assets/hola.mp3"])
        }
    }

    /// Replaying the planned log gives exactly the states written into the notes.
    @Test(arguments: ["current.apkg", "legacy.apkg"])
    func theLogReplaysToTheNotesStates(_ file: String) throws {
        try withTempDir { dir in
            let (package, plan, _) = try Self.plan(file, in: dir)
            let parsed = ReviewLog.parse(plan.logLines.joined(separator: "\n") + "\n")
            #expect(parsed.errors.isEmpty)
            #expect(plan.reviewCount == package.reviews.filter { (1...4).contains($0.ease) }.count)
            let history = ReviewHistory(parsed.events)
            var compared = 0
            for planned in plan.notes {
                let note = try #require(NoteParser.parse(planned.bytes, path: planned.path).note)
                for card in note.cards {
                    let replayed = history.state(of: card.id) { _ in SchedulerSettings() }
                    switch (card.schedule, replayed) {
                    case (nil, nil): break
                    case let (written?, replayed?):
                        #expect(written.sameSchedule(as: replayed), "\(card.id): \(written.fields) vs \(replayed.fields)")
                        compared += 1
                    default: Issue.record("\(card.id): \(String(describing: card.schedule)) vs \(String(describing: replayed))")
                    }
                }
            }
            #expect(compared >= 5)
            // Every line names its note.
            #expect(parsed.events.allSatisfy { $0.field("path").map { path in plan.notes.contains { $0.path == path } } ?? false })
        }
    }

    /// Titles and file names are a field's plain text: no markup, no LaTeX commands.
    @Test func titlesArePlainText() {
        #expect(AnkiImport.plainTitle("Wie ist der Betrag in $\\mathbb{C}$ definiert?") == "Wie ist der Betrag in ℂ definiert?")
        #expect(AnkiImport.plainTitle("$\\text{Associativity Law of } \\textbf{C}$") == "Associativity Law of C")
        #expect(AnkiImport.plainTitle("Die \\textit{Dreiecksungleichung} für **Integrale**") == "Die Dreiecksungleichung für Integrale")
        // A picture or a sound in the question's field: the first field with words names the
        // note, else the file's name; "Note" only when there is nothing at all.
        #expect(AnkiImport.title(of: ["![](<assets/slide_04.png>)", "The Krebs cycle", "x"]) == "The Krebs cycle")
        #expect(AnkiImport.title(of: ["![](<assets/slide_04.png>)", ""]) == "slide 04")
        #expect(AnkiImport.title(of: ["", "[sound](<assets/bonjour.mp3>)"]) == "bonjour")
        #expect(AnkiImport.title(of: ["", ""]) == "Note")
        #expect(AnkiImport.plainTitle("![](assets/x.png)\nThe [cell](https://x.org) {{c1::wall::hint}}") == "The cell wall")
        #expect(AnkiImport.plainTitle("$$\n$$") == "Note")
    }

    /// A field a `[latex]` template typesets keeps its LaTeX as it is.
    @Test func latexFieldsKeepTheirSource() {
        let html = "Definition Betrag&nbsp;$|a|$, wobei $a \\in \\mathbb{R}$<br>Zeile &amp; mehr"
        let text = AnkiImport.latexSource(HTMLToMarkdown.convert("[latex]" + html + "[/latex]") { $0 }.markdown)
        #expect(text.contains("$a \\in \\mathbb{R}$"), "\(text)")
        #expect(text.contains("Zeile & mehr"), "\(text)")
        #expect(!text.contains("\\$"))
    }
}
