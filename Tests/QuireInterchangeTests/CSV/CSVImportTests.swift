@testable import QuireInterchange
import Testing
import QuireModel
import QuireParsing

/// Planning the notes a CSV file becomes.
@Suite struct CSVImportTests {
    static let created = Timestamp(year: 2026, month: 11, day: 26, hour: 9, minute: 0)

    static func plan(_ text: String, name: String = "vocab", deck: String? = nil,
                     existing: @escaping (String, String) -> String? = { _, _ in nil },
                     taken: @escaping (String) -> Bool = { _ in false }) -> CSVImport {
        let (table, problems) = CSVReader.read(Array(text.utf8), path: "vocab.csv")
        guard let table else { return CSVImport(notes: [], diagnostics: problems, duplicates: 0) }
        return CSVImport.plan(table, path: "vocab.csv", options: .init(name: name, source: "vocab.csv", deck: deck, created: created),
                              existing: existing, taken: taken)
    }

    static func cards(_ note: PlannedNote) -> [Card] {
        NoteParser.parse(note.bytes, path: note.path).note?.cards ?? []
    }

    @Test func questionsAndAnswersBecomeOneNote() throws {
        let plan = Self.plan("Question,Answer\nWhat is 2+2?,4\n\"Capital of France?\",Paris\nA term,\"two\nlines\"\n")
        #expect(plan.diagnostics.isEmpty)
        let note = try #require(plan.notes.first)
        #expect(plan.notes.count == 1 && note.path == "vocab/vocab.md" && note.cards == 3)
        #expect(String(decoding: note.bytes, as: UTF8.self) == """
            ---
            title: vocab
            created: 2026-11-26T09:00:00Z
            source: vocab.csv
            ---

            What is 2+2? :: 4

            Capital of France? :: Paris

            Q: A term
            A: two
            lines

            """)
        let cards = Self.cards(note)
        #expect(cards.map(\.kind) == [.basic, .basic, .basic])
        #expect(cards.map(\.front) == ["What is 2+2?", "Capital of France?", "A term"])
        #expect(cards.map(\.back) == ["4", "Paris", "two\nlines"])
    }

    @Test func termsTagsAndDecks() throws {
        let plan = Self.plan("Term,Definition,Tags,Deck\nperro,dog,noun animal,Spanish::Animals\ncorrer,to run,verb,Spanish::Verbs\n"
                             + "gato,cat,noun animal,Spanish::Animals\nsaltar,to jump,verb motion,Spanish::Verbs\n")
        #expect(plan.diagnostics.isEmpty)
        #expect(plan.notes.map(\.path) == ["Spanish/Animals/vocab.md", "Spanish/Verbs/vocab verb.md", "Spanish/Verbs/vocab motion verb.md"])
        #expect(plan.notes.map(\.cards) == [2, 1, 1])
        let animals = try #require(plan.notes.first)
        #expect(String(decoding: animals.bytes, as: UTF8.self).contains("tags: [animal, noun]\n"))
        #expect(Self.cards(animals).map(\.kind) == [.definition, .definition])
        #expect(NoteParser.parse(animals.bytes, path: animals.path).note?.tags.map(\.description) == ["animal", "noun"])
    }

    @Test func deckOptionWins() {
        let plan = Self.plan("Question,Answer,Deck\nq?,a,Elsewhere\n", deck: "Biology::Cells")
        #expect(plan.notes.map(\.path) == ["Biology/Cells/vocab.md"])
    }

    @Test func reversedAndClozeFromAnkiExport() throws {
        let text = "#separator:tab\n#html:false\n#notetype column:3\ncasa\thouse\tBasic (and reversed card)\n"
        let plan = Self.plan(text)
        #expect(plan.diagnostics.isEmpty)
        let cards = try Self.cards(#require(plan.notes.first))
        #expect(cards.map(\.kind) == [.reversed, .reversed])
        let cloze = Self.plan("#separator:tab\n#notetype:Cloze\nThe {{c1::mitochondria}} makes {{c2::ATP}}\tBiology\n")
        #expect(cloze.diagnostics.isEmpty)
        let clozeCards = try Self.cards(#require(cloze.notes.first))
        #expect(clozeCards.map(\.kind) == [.cloze, .cloze])
    }

    @Test func notesFromRows() throws {
        let plan = Self.plan("Note,Context\n\"Habits compound\nSmall steps add up.\",Atomic Habits p. 12\n")
        #expect(plan.diagnostics.isEmpty)
        let note = try #require(plan.notes.first)
        #expect(note.path == "vocab/Habits compound.md")
        #expect(String(decoding: note.bytes, as: UTF8.self) == """
            ---
            title: Habits compound
            created: 2026-11-26T09:00:00Z
            source: vocab.csv
            context: Atomic Habits p. 12
            ---

            Small steps add up.

            """)
    }

    /// A note row whose deck already holds the note the same file made (title and source), or
    /// one this file repeats word for word, is a duplicate; the same title with other text is not.
    @Test func noteRowsImportedAgainAreDuplicates() {
        let text = "Note,Context\n\"Habits\nSmall steps.\",p. 12\n\"Habits\nSmall steps.\",p. 12\n\"Habits\nOther text.\",p. 13\n"
        let first = Self.plan(text)
        #expect(first.notes.map(\.path) == ["vocab/Habits.md", "vocab/Habits 2.md"] && first.duplicates == 1)
        #expect(first.diagnostics.map(\.message) == ["same note as line 2 (title 'Habits', from vocab.csv); skipped"])
        let again = Self.plan(text, existing: { deck, key in
            deck == "vocab" && key == CSVImport.noteKey(title: "Habits", source: "vocab.csv") ? "vocab/Habits.md:1" : nil
        }, taken: { $0 == "vocab/Habits.md" || $0 == "vocab/Habits 2.md" })
        #expect(again.notes.isEmpty && again.duplicates == 3)
    }

    @Test func duplicatesAreReportedAndSkipped() {
        let plan = Self.plan("Question,Answer\nq one?,a\nq   one?,b\nold?,c\n", existing: { deck, front in
            deck == "vocab" && front == "old?" ? "vocab/old.md:3" : nil
        })
        #expect(plan.isWritable)
        #expect(plan.duplicates == 2 && plan.cardCount == 1)
        #expect(plan.diagnostics.map(\.description) == [
            "vocab.csv:3: warning: same front as line 2 in deck vocab; skipped",
            "vocab.csv:4: warning: same front as the card at vocab/old.md:3 in deck vocab; skipped",
        ])
    }

    @Test func takenNamesAreSkipped() {
        let plan = Self.plan("Question,Answer\nq?,a\n", taken: { $0 == "vocab/vocab.md" })
        #expect(plan.notes.map(\.path) == ["vocab/vocab 2.md"])
    }

    /// A bad row is an error with its line and makes no card; the good rows are still planned
    /// (the command writes them, or with --strict nothing). An empty side is a warning.
    @Test func badRowsAreErrorsTheOthersArePlanned() throws {
        let plan = Self.plan("Question,Answer\nq?,a\nonly one field\nq2?,\n")
        #expect(!plan.isWritable)
        #expect(plan.diagnostics.map(\.description) == [
            "vocab.csv:3:1: error: this row has 1 field; the columns are 2",
            "vocab.csv:4: warning: the answer is empty; imported as it is",
        ])
        let cards = plan.notes.flatMap(Self.cards)
        #expect(cards.map(\.front) == ["q?", "q2?"])
        #expect(cards.map(\.back) == ["a", ""])
    }

    @Test func unknownColumnsAndHostileDecks() {
        #expect(Self.plan("Front,Notes\nq,a\n").diagnostics.map(\.description) == [
            "vocab.csv:1: error: unknown column 'Notes' (column 2): the columns are Question and Answer, Front and Back, Term and Definition, "
                + "Text and Back Extra, or Note and Context, with Tags, Deck, Notetype or GUID",
        ])
        for deck in ["../../etc", "a::..", ".quire", "a//b", "x\u{1B}[31m"] {
            let plan = Self.plan("Question,Answer,Deck\nq?,a,\"\(deck)\"\n")
            #expect(!plan.isWritable, "\(deck)")
            #expect(plan.notes.isEmpty)
        }
    }

    /// A file with no header row — a word list as most flashcard apps and scripts write it: the
    /// first row is a card too, the first two columns its sides, any further column added to the
    /// back line by line (never dropped), said once. One column is no card: an error.
    @Test func aFileWithoutColumnNamesIsReadByPosition() {
        let two = Self.plan("Hello,Hallo\nPlease,Bitte\n")
        #expect(two.isWritable)
        #expect(two.notes.flatMap(Self.cards).map { [$0.front, $0.back] } == [["Hello", "Hallo"], ["Please", "Bitte"]])
        #expect(two.diagnostics.map(\.description) == ["vocab.csv:1: warning: the first row names no column, so it is a record: the first two "
            + "columns are the front and the back; a first row naming the columns (Front,Back,…) chooses otherwise"])
        let three = Self.plan("Hello,你好,Nǐ hǎo\nYes,是,\n")
        #expect(three.notes.flatMap(Self.cards).map { [$0.front, $0.back] } == [["Hello", "你好\nNǐ hǎo"], ["Yes", "是"]])
        #expect(three.diagnostics.first?.message.contains("column 3 added to the back line by line") == true)
        // Rows of other lengths are no error without names.
        #expect(Self.plan("x,y\nc,d,e\nf\n").notes.flatMap(Self.cards).map { [$0.front, $0.back] } == [["x", "y"], ["c", "d\ne"], ["f", ""]])
        // One column, or one known name among unknown ones: an error, nothing planned.
        #expect(Self.plan("hello\nbye\n").diagnostics.map(\.description).first?.hasPrefix("vocab.csv:1: error: unknown column 'hello'") == true)
        #expect(!Self.plan("Front,Notes\nq,a\n").isWritable)
        // Anki's text export: a field past the note type's two is kept on the back too.
        let anki = Self.plan("#separator:tab\n#html:true\nq\ta\t<b>more</b>\n")
        #expect(anki.notes.flatMap(Self.cards).map(\.back) == ["a\n**more**"])
    }

    /// A card the writer cannot write (a control character) is an error with its line, never a
    /// card lost; text no inline syntax holds is written fenced (FORMAT.md §3.10).
    @Test func aCardThatCannotBeWrittenIsLocated() {
        let plan = Self.plan("Term,Definition\n\"a\u{1}b\",c\n")
        #expect(!plan.isWritable)
        #expect(plan.diagnostics.first?.line == 2)
        let fenced = Self.plan("Term,Definition\n\"a\n\nb\",c\n")
        #expect(fenced.isWritable)
        #expect(fenced.notes.flatMap(Self.cards).map { [$0.front, $0.back] } == [["a\n\nb", "c"]])
    }

    /// Anki's text export names each row's note type in a column: a cloze row is a cloze (this
    /// made basic cards with empty answers of every cloze deck's export).
    @Test func ankiTextExportWithANotetypeColumn() {
        let text = "#separator:tab\n#html:true\n#guid column:1\n#notetype column:2\n#deck column:3\n#tags column:6\n"
            + "g1\tCloze+\tPhysik\tDas {{c1::Ohm}}sche {{c2::Gesetz}}<br>U = R I\tExtra\tt1\n"
            + "g2\tBasic\tPhysik\tWas ist <b>U</b>?\tSpannung\t\n"
        let plan = Self.plan(text)
        #expect(plan.isWritable, "\(plan.diagnostics)")
        let cards = plan.notes.flatMap(Self.cards)
        #expect(cards.map(\.kind) == [.cloze, .cloze, .basic])
        #expect(cards.first?.back.hasPrefix("Das Ohmsche Gesetz") == true)
    }
}
