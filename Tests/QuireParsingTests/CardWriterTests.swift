import Testing
import QuireModel
@testable import QuireParsing
@testable import QuireTestSupport

/// `CardWriter`: every written card read back with `NoteParser` is the draft's card (FORMAT.md §3.9).
@Suite struct CardWriterTests {
    // MARK: - Helpers

    /// Writes a draft, reads the Markdown back as a note at `path`, and checks that the cards are
    /// the draft's: kind, variant, sides, lines, and IDs (explicit, or derived as FORMAT.md §3.5 says).
    @discardableResult
    private func roundTrip(_ draft: CardDraft, as syntax: CardWriter.Syntax = .any, path: String = "Deck/notes.md",
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> WrittenCard {
        let written = try CardWriter.write(draft, as: syntax)
        #expect(written.draft == draft.normalized, sourceLocation: sourceLocation)
        try expectReadBack([written], path: path, sourceLocation: sourceLocation)
        return written
    }

    /// Reads written cards back from one note and checks them against their drafts, in order.
    private func expectReadBack(_ written: [WrittenCard], path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let body = try CardWriter.body(written)
        let (note, diagnostics) = parse("---\ntitle: Written\n---\n# Heading\n\n" + body + "\nAfter the cards.\n", path: path)
        #expect(diagnostics.isEmpty, "\(printed(diagnostics))\n\(body)", sourceLocation: sourceLocation)
        let cards = note?.cards ?? []
        let expected = written.map { Self.expectedCards($0.draft) }
        #expect(cards.count == expected.map(\.count).reduce(0, +), "\(body)", sourceLocation: sourceLocation)
        var next = 0
        for (w, want) in zip(written, expected) {
            let got = Array(cards.dropFirst(next).prefix(want.count))
            next += want.count
            guard got.count == want.count else { break }
            for (card, w2) in zip(got, want) {
                #expect(card.kind == w2.kind && card.variant == w2.variant, "\(card.kind) \(card.variant) in:\n\(body)",
                        sourceLocation: sourceLocation)
                if let front = w2.front { #expect(card.front == front, "front in:\n\(body)", sourceLocation: sourceLocation) }
                if let back = w2.back { #expect(card.back == back, "back in:\n\(body)", sourceLocation: sourceLocation) }
                #expect(card.identityText == w2.identity, "identity in:\n\(body)", sourceLocation: sourceLocation)
                #expect(card.hasExplicitID == (w.draft.id != nil), sourceLocation: sourceLocation)
            }
            // A cloze group makes one card per number; the writer's own read-back agrees.
            #expect(got.map(\.variant) == w.variants, sourceLocation: sourceLocation)
            #expect(got.map(\.front) == w.cards.map(\.front), sourceLocation: sourceLocation)
            #expect(got.map(\.back) == w.cards.map(\.back), sourceLocation: sourceLocation)
        }
        // IDs: explicit ones as written, the others derived from path, kind, variant, text and
        // occurrence — computed here from FORMAT.md §3.5, and by the writer.
        var occurrences: [String: Int] = [:]
        var derived: [CardID] = []
        for (card, draft) in zip(cards, written.flatMap { w in w.cards.map { _ in w.draft } }) {
            if let id = draft.id {
                let suffix = switch card.variant {
                case .backward: "-r"
                case .cloze(let n): "-c\(n)"
                default: ""
                }
                derived.append(CardID(id.rawValue + suffix) ?? id)
                continue
            }
            let key = "\(card.kind)\u{0}\(card.variant.identityText)\u{0}\(card.identityText)"
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            derived.append(CardID.derive(path: path, kind: card.kind, variant: card.variant.identityText,
                                         identityText: card.identityText, occurrence: occurrence))
        }
        #expect(cards.map(\.id) == derived, sourceLocation: sourceLocation)
        #expect(CardWriter.cardIDs(of: written, path: path).flatMap { $0 } == cards.map(\.id), sourceLocation: sourceLocation)
    }

    private struct Expected {
        var kind: CardKind
        var variant: CardVariant
        var front: String?
        var back: String?
        var identity: String
    }

    /// The cards a draft must read back as; a cloze's numbers come from the writer's read-back
    /// (checked against known numbers in the tests that write clozes by hand).
    private static func expectedCards(_ draft: CardDraft) -> [Expected] {
        func identity(_ a: String, _ b: String) -> String {
            CardID.normalizeIdentityText(a) + "\u{1F}" + CardID.normalizeIdentityText(b)
        }
        switch draft.content {
        case let .basic(q, a): return [Expected(kind: .basic, variant: .single, front: q, back: a, identity: identity(q, a))]
        case let .definition(t, d): return [Expected(kind: .definition, variant: .single, front: t, back: d, identity: identity(t, d))]
        case let .reversed(f, b):
            return [Expected(kind: .reversed, variant: .forward, front: f, back: b, identity: identity(f, b)),
                    Expected(kind: .reversed, variant: .backward, front: b, back: f, identity: identity(f, b))]
        case let .cloze(text):
            let numbers = (try? CardWriter.write(draft).variants) ?? []
            return numbers.map { Expected(kind: .cloze, variant: $0, front: nil, back: nil, identity: CardID.normalizeIdentityText(text)) }
        }
    }

    private func refusal(_ draft: CardDraft, as syntax: CardWriter.Syntax = .any) -> CardWriterError? {
        do {
            let written = try CardWriter.write(draft, as: syntax)
            Issue.record("written, expected a refusal:\n\(written.markdown)")
            return nil
        } catch {
            return error
        }
    }

    private func basic(_ q: String, _ a: String, id: String? = nil) -> CardDraft {
        CardDraft(.basic(question: q, answer: a), id: id.flatMap { CardID($0) })
    }

    // MARK: - Each syntax

    @Test func basicCardsTakeTheSimplestSyntax() throws {
        let line = try roundTrip(basic("What is the powerhouse of the cell?", "the mitochondrion"))
        #expect(line.syntax == .oneLine)
        #expect(line.markdown == "What is the powerhouse of the cell? :: the mitochondrion")
        // Without a question mark `::` would make a definition: `Q:`/`A:`.
        let qa = try roundTrip(basic("Name the powerhouse of the cell", "the mitochondrion"))
        #expect(qa.syntax == .questionAnswer)
        #expect(qa.markdown == "Q: Name the powerhouse of the cell\nA: the mitochondrion")
        let multi = try roundTrip(basic("What does the\nmitochondrion produce?", "ATP,\nby oxidative phosphorylation."))
        #expect(multi.markdown == "Q: What does the\nmitochondrion produce?\nA: ATP,\nby oxidative phosphorylation.")
    }

    @Test func everySyntaxOnRequest() throws {
        let q = "What are the two stages of photosynthesis?", a = "The light-dependent reactions\nand the Calvin cycle."
        #expect(try roundTrip(basic(q, a), as: .multiLine).markdown == q + "\n?\n" + a)
        #expect(try roundTrip(basic(q, a), as: .questionAnswer).markdown == "Q: " + q + "\nA: " + a)
        #expect(try roundTrip(basic(q, "one line"), as: .oneLine).markdown == q + " :: one line")
        let pair = CardDraft(.reversed(front: "Hund's rule", back: "electrons fill degenerate orbitals singly"))
        #expect(try roundTrip(pair).markdown == "Hund's rule ::: electrons fill degenerate orbitals singly")
        #expect(try roundTrip(pair, as: .multiLine).markdown == "Hund's rule\n??\nelectrons fill degenerate orbitals singly")
        let longPair = CardDraft(.reversed(front: "le chat", back: "the cat\n(a small feline)"))
        #expect(try roundTrip(longPair).markdown == "le chat\n??\nthe cat\n(a small feline)")
        let definition = CardDraft(.definition(term: "Mitochondrion", definition: "the organelle that produces ATP"))
        #expect(try roundTrip(definition).markdown == "Mitochondrion :: the organelle that produces ATP")
        let cloze = CardDraft(.cloze("The {{c1::mitochondrion}} produces {{c2::ATP::energy currency}}\nfrom {{c1::glucose}}."))
        let written = try roundTrip(cloze)
        #expect(written.markdown == "The {{c1::mitochondrion}} produces {{c2::ATP::energy currency}}\nfrom {{c1::glucose}}.")
        #expect(written.variants == [.cloze(1), .cloze(2)])
        #expect(written.cards.map(\.front) == ["The [...] produces ATP\nfrom [...].", "The mitochondrion produces [energy currency]\nfrom glucose."])
        let highlights = try roundTrip(CardDraft(.cloze("The ==Krebs cycle== takes place in the ==matrix==.")))
        #expect(highlights.variants == [.cloze(1), .cloze(2)])
    }

    @Test func syntaxMustFitTheKind() {
        let definition = CardDraft(.definition(term: "a", definition: "b"))
        #expect(refusal(definition, as: .questionAnswer) == .syntaxDoesNotFit(.questionAnswer, .definition))
        #expect(refusal(definition, as: .multiLine) == .syntaxDoesNotFit(.multiLine, .definition))
        #expect(refusal(CardDraft(.cloze("{{c1::a}}")), as: .oneLine) == .syntaxDoesNotFit(.oneLine, .cloze))
        #expect(refusal(CardDraft(.cloze("{{c1::a}}")), as: .questionAnswer) == .syntaxDoesNotFit(.questionAnswer, .cloze))
        #expect(refusal(CardDraft(.cloze("{{c1::a}}")), as: .multiLine) == .syntaxDoesNotFit(.multiLine, .cloze))
        #expect(refusal(CardDraft(.reversed(front: "a", back: "b")), as: .questionAnswer) == .syntaxDoesNotFit(.questionAnswer, .reversed))
        #expect(refusal(basic("a?", "b"), as: .cloze) == .syntaxDoesNotFit(.cloze, .basic))
        #expect(CardWriter.syntaxes(for: .basic) == [.oneLine, .questionAnswer, .multiLine, .fenced])
    }

    // MARK: - Answers with blocks (FORMAT.md §3.1)

    @Test func answerWithBlocks() throws {
        // Announced by ':': the empty line stays.
        let announced = try roundTrip(basic("Name the phases of mitosis.", "In order:\n\n1. prophase\n2. metaphase"))
        #expect(announced.markdown == "Q: Name the phases of mitosis.\nA: In order:\n\n1. prophase\n2. metaphase")
        // Not announced: the block goes right under the text, where it stays the answer's.
        let code = try roundTrip(basic("What does it print?", "One line.\n\n```python\nprint(1)\n\nprint(2)\n```"))
        #expect(code.markdown == "Q: What does it print?\nA: One line.\n```python\nprint(1)\n\nprint(2)\n```")
        #expect(code.syntax == .questionAnswer)
        // Several blocks, a table among them.
        try roundTrip(basic("Show it.", "Like this:\n\n```c\nint main(void) {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted"))
        // An answer that is only a block: under a lone marker.
        let onlyCode = try roundTrip(basic("How do you read a file line by line in Python?",
                                           "```python\nwith open(path) as f:\n\n    for line in f: ...\n```"))
        #expect(onlyCode.markdown == "Q: How do you read a file line by line in Python?\nA:\n```python\nwith open(path) as f:\n\n    for line in f: ...\n```")
        let onlyList = try roundTrip(CardDraft(.reversed(front: "primary colours", back: "- red\n- green\n- blue")))
        #expect(onlyList.markdown == "primary colours\n??\n- red\n- green\n- blue")
        try roundTrip(basic("Indented?", "    code()\n    more()"))
        try roundTrip(basic("List after list?", "Lists:\n\n- a\n- b\n\n1. one\n2. two"))
    }

    @Test func answersThatCannotBeWritten() throws {
        #expect(refusal(basic("q", "Paris.\n\nIt is the capital."), as: .questionAnswer) == .answerBlockNotAllowed(.answer, line: 3, block: "a second paragraph"))
        #expect(refusal(basic("q", "Paris.\n\n# Heading"), as: .questionAnswer) == .answerBlockNotAllowed(.answer, line: 3, block: "a heading"))
        #expect(refusal(basic("q", "<div>\nx\n</div>"), as: .questionAnswer) == .answerBlockNotAllowed(.answer, line: 1, block: "an HTML block"))
        #expect(refusal(basic("q", "x\n\n---\n\ny"), as: .questionAnswer) == .answerBlockNotAllowed(.answer, line: 3, block: "a thematic break"))
        #expect(refusal(basic("q", "x\n\n[a]: /url"), as: .questionAnswer) == .answerBlockNotAllowed(.answer, line: 3, block: "a link reference definition"))
        // The reader gives blocks back after exactly one empty line.
        #expect(refusal(basic("q", "Steps:\n- a\n- b"), as: .questionAnswer) == .answerBlockSpacing(.answer, line: 2))
        #expect(refusal(basic("q", "Steps:\n\n\n- a"), as: .questionAnswer) == .answerBlockSpacing(.answer, line: 4))
        // An unclosed fence would take in the rest of the note.
        #expect(refusal(basic("q", "```\nnever closed"), as: .multiLine) == .unclosedBlock(.answer))
        // (After `A: ` the fence is text, and reads back as such.)
        #expect(try CardWriter.write(basic("q", "```\nnever closed")).markdown == "Q: q\nA: ```\nnever closed")
        // An ordered list from 2 cannot interrupt the text above it, and without ':' an empty
        // line would end the answer.
        #expect(refusal(basic("q", "Then\n\n2. second"), as: .questionAnswer) == .answerBlockNotAttachable(.answer, line: 3))
    }

    // MARK: - Text that would be misread

    @Test func oneLineCardsRefuseWhatALineCannotHold() {
        let term = { (t: String, d: String) in CardDraft(.definition(term: t, definition: d)) }
        #expect(refusal(term("term", "two\nlines"), as: .oneLine) == .lineBreakInOneLineCard(.definition))
        #expect(refusal(term("Is it?", "yes"), as: .oneLine) == .termEndsWithQuestionMark)
        #expect(refusal(basic("no question mark", "x"), as: .oneLine) == .oneLineQuestionWithoutQuestionMark)
        #expect(refusal(term("a :: b", "c"), as: .oneLine) == .holdsCardSyntax(.term, line: 1, .oneLineSeparator))
        #expect(refusal(term("a ::: b", "c"), as: .oneLine) == .holdsCardSyntax(.term, line: 1, .oneLineSeparator))
        #expect(refusal(term("Q: x", "c"), as: .oneLine) == .holdsCardSyntax(.term, line: 1, .questionMarker))
        #expect(refusal(term("A: x", "c"), as: .oneLine) == .holdsCardSyntax(.term, line: 1, .answerMarker))
        #expect(refusal(term("Capital", "{{c1::Paris}}"), as: .oneLine) == .holdsCardSyntax(.definition, line: 1, .clozeDeletion))
        #expect(refusal(term("# Title", "c"), as: .oneLine) == .lineStartsBlock(.term, line: 1))
        #expect(refusal(term("> quoted", "c"), as: .oneLine) == .lineStartsBlock(.term, line: 1))
        #expect(refusal(term("- item", "c"), as: .oneLine) == .lineStartsBlock(.term, line: 1))
        #expect(refusal(term("<div>", "c"), as: .oneLine) == .lineStartsBlock(.term, line: 1))
        #expect(refusal(term("`a", "b` c"), as: .oneLine) == .markerHidden(after: .term))
        #expect(refusal(term("term", "ends like an ID ^abc"), as: .oneLine) == .endsLikeCardID(.definition))
    }

    @Test func misreadableTextFindsASyntaxThatReadsBack() throws {
        // `::` in the question, `A:` at its start, a leading `#`, `>`, `-`, `|`: Q:/A: holds them.
        #expect(try roundTrip(basic("What does x :: Int mean?", "x has type Int")).syntax == .questionAnswer)
        #expect(try roundTrip(basic("A: is this an answer?", "no")).markdown == "Q: A: is this an answer?\nA: no")
        #expect(try roundTrip(basic("# not a heading?", "right")).markdown == "Q: # not a heading?\nA: right")
        try roundTrip(basic("> not a quote?", "- not a list"))
        try roundTrip(basic("| not | a table |?", "| a | b |"))
        // Markers inside inline code are text.
        #expect(try roundTrip(CardDraft(.definition(term: "`a :: b`", definition: "code"))).syntax == .oneLine)
        #expect(try roundTrip(basic("Haskell?", "Use `x :: Int`")).markdown == "Haskell? :: Use `x :: Int`")
        // A cloze deletion, a highlight, `{{`, backticks, HTML, a lone `?` in a question or answer.
        try roundTrip(basic("What is {{c1::this}}?", "a ==highlight== and {{ braces }}"))
        try roundTrip(basic("Which?", "`code` and <b>HTML</b> and <!-- a comment -->"))
        try roundTrip(basic("Line one\n?\nline three", "x\n?\n??\ny"))
        try roundTrip(basic("q", "A: not a marker here\nQ not a question"))
        try roundTrip(basic("Emphasis *across\nlines*?", "**bold** _it_"))
        try roundTrip(CardDraft(.definition(term: "Mitochondrion", definition: "the ==powerhouse== of the cell")))
        // Unicode: NFC and others are kept byte for byte.
        try roundTrip(CardDraft(.definition(term: "e\u{301}te\u{301}", definition: "日本語 — 🙂")))
    }

    @Test func questionLinesThatWouldSplitTheCard() {
        #expect(refusal(basic("one\nQ: two", "x"), as: .questionAnswer) == .holdsCardSyntax(.question, line: 2, .questionMarker))
        #expect(refusal(basic("one\nA: two", "x"), as: .questionAnswer) == .holdsCardSyntax(.question, line: 2, .answerMarker))
        #expect(refusal(basic("one\n?\nthree", "x"), as: .multiLine) == .holdsCardSyntax(.question, line: 2, .separator))
        #expect(refusal(basic("one\nx :: y", "z"), as: .multiLine) == .holdsCardSyntax(.question, line: 2, .oneLineSeparator))
        #expect(refusal(basic("q", "one\nQ: two"), as: .questionAnswer) == .holdsCardSyntax(.answer, line: 2, .questionMarker))
        #expect(refusal(basic("q", "one\nx :: y"), as: .questionAnswer) == .holdsCardSyntax(.answer, line: 2, .oneLineSeparator))
        #expect(refusal(basic("one\n\ntwo", "x"), as: .questionAnswer) == .blankLine(.question, line: 2))
        #expect(refusal(basic("one\n# two", "x"), as: .questionAnswer) == .lineStartsBlock(.question, line: 2))
        #expect(refusal(basic("one\n---", "x"), as: .questionAnswer) == .lineStartsBlock(.question, line: 2))
        #expect(refusal(basic("x\n| a |\n|---|", "y"), as: .questionAnswer) == .lineStartsBlock(.question, line: 2))
        #expect(refusal(basic("one\n```", "x"), as: .questionAnswer) == .lineStartsBlock(.question, line: 2))
        #expect(refusal(basic("- one?", "x"), as: .multiLine) == .lineStartsBlock(.question, line: 1))
        #expect(refusal(basic("a `b", "c` d"), as: .questionAnswer) == .markerHidden(after: .question))
        #expect(refusal(basic("a <span title=\"", "\"> d"), as: .questionAnswer) == .markerHidden(after: .question))
        #expect(refusal(CardDraft(.reversed(front: "a `b\nc", back: "d` e")), as: .multiLine) == .markerHidden(after: .front))
    }

    @Test func clozeText() throws {
        #expect(refusal(CardDraft(.cloze("no deletion here"))) == .noClozeDeletion)
        #expect(refusal(CardDraft(.cloze("a {{c1::b"))) == .brokenCloze("cloze deletion '{{c1::' is not closed with '}}'"))
        #expect(refusal(CardDraft(.cloze("a {{c1::}} b"))) == .brokenCloze("cloze deletion c1 is empty"))
        #expect(refusal(CardDraft(.cloze("a {{c1::b}}\nx :: y")), as: .cloze) == .holdsCardSyntax(.text, line: 2, .oneLineSeparator))
        #expect(refusal(CardDraft(.cloze("a {{c1::b}}\nQ: c")), as: .cloze) == .holdsCardSyntax(.text, line: 2, .questionMarker))
        #expect(refusal(CardDraft(.cloze("a {{c1::b}}\n??")), as: .cloze) == .holdsCardSyntax(.text, line: 2, .separator))
        #expect(refusal(CardDraft(.cloze("a {{c1::b}}\n\nc")), as: .cloze) == .blankLine(.text, line: 2))
        #expect(refusal(CardDraft(.cloze("- a {{c1::b}}")), as: .cloze) == .lineStartsBlock(.text, line: 1))
        // What a cloze paragraph cannot hold, fenced blocks do.
        for text in ["a {{c1::b}}\nx :: y", "a {{c1::b}}\nQ: c", "a {{c1::b}}\n??", "a {{c1::b}}\n\nc", "- a {{c1::b}}"] {
            #expect(try roundTrip(CardDraft(.cloze(text))).syntax == .fenced)
        }
        // ` :: ` beside a deletion is text; highlights beside Anki deletions are text.
        let mixed = try roundTrip(CardDraft(.cloze("Capital :: {{c1::Paris}} and ==not a deletion==")))
        #expect(mixed.variants == [.cloze(1)])
        // A deletion in inline code is text: the card's numbers are the others'.
        #expect(try roundTrip(CardDraft(.cloze("`{{c1::code}}` and {{c2::real}}"))).variants == [.cloze(2)])
    }

    // MARK: - Values

    @Test func sidesAreNormalizedAsTheReaderReadsThem() throws {
        let written = try roundTrip(basic("  Question?\r\n", "\tline one\r\nline two\rline three \n"))
        #expect(written.draft == basic("Question?", "line one\nline two\nline three"))
        #expect(written.markdown == "Q: Question?\nA: line one\nline two\nline three")
        #expect(refusal(basic(" \n ", "x"), as: .questionAnswer) == .emptySide(.question))
        #expect(try roundTrip(basic(" \n ", "x")).syntax == .fenced)
        #expect(refusal(CardDraft(.cloze(""))) == .noClozeDeletion)
        #expect(refusal(basic("q", "a\u{0}b")) == .controlCharacter(.answer, "\u{0}"))
        #expect(refusal(basic("q", "a\u{1F}b")) == .controlCharacter(.answer, "\u{1F}"))
        #expect(refusal(basic("q\u{1B}[31m", "a")) == .controlCharacter(.question, "\u{1B}"))
    }

    @Test func explicitIDsAreKept() throws {
        let one = try roundTrip(CardDraft(.definition(term: "Mitochondrion", definition: "the powerhouse of the cell"),
                                          id: CardID("mito-def")))
        #expect(one.markdown == "Mitochondrion :: the powerhouse of the cell ^mito-def")
        #expect(CardWriter.cardIDs(of: [one], path: "x.md") == [[CardID("mito-def")].compactMap { $0 }])
        let pair = try roundTrip(CardDraft(.reversed(front: "a", back: "b\nc"), id: CardID("pair")))
        #expect(CardWriter.cardIDs(of: [pair], path: "x.md").flatMap { $0 }.map(\.rawValue) == ["pair", "pair-r"])
        let cloze = try roundTrip(CardDraft(.cloze("{{c2::a}} {{c1::b}}"), id: CardID("cl")))
        #expect(CardWriter.cardIDs(of: [cloze], path: "x.md").flatMap { $0 }.map(\.rawValue) == ["cl-c1", "cl-c2"])
        // The ID follows the answer's text, before its blocks.
        let blocks = try roundTrip(CardDraft(.basic(question: "q", answer: "Steps:\n\n- a\n- b"), id: CardID("steps")))
        #expect(blocks.markdown == "Q: q\nA: Steps: ^steps\n\n- a\n- b")
        // Text that ends like a block ID stays text once the card has an ID.
        try roundTrip(CardDraft(.definition(term: "t", definition: "ends like ^abc"), id: CardID("real")))
        #expect(refusal(CardDraft(.definition(term: "t", definition: "d"), id: CardID("under_score"))) == .idNotWritable(CardID("under_score")!))
        let long = String(repeating: "x", count: 63)
        #expect(refusal(CardDraft(.reversed(front: "a", back: "b"), id: CardID(long))) == .idTooLong(CardID(long)!))
        #expect(refusal(CardDraft(.cloze("{{c1::a}}"), id: CardID(long))) == .idTooLong(CardID(long)!))
        #expect(refusal(CardDraft(.basic(question: "q", answer: "```\ncode\n```"), id: CardID("x")), as: .questionAnswer) == .idNeedsTextAnswer)
        #expect(try roundTrip(CardDraft(.basic(question: "q", answer: "```\ncode\n```"), id: CardID("x"))).syntax == .fenced)
        // Two cards of one note with one ID: the reader would report the second.
        let same = try CardWriter.write(CardDraft(.definition(term: "other", definition: "card"), id: CardID("mito-def")))
        #expect(throws: CardWriterError.duplicateID(CardID("mito-def")!)) { try CardWriter.body([one, same]) }
    }

    @Test func severalCardsInOneNoteReadBackInOrder() throws {
        let drafts = [
            basic("What is 2 + 2?", "4"),
            CardDraft(.definition(term: "ATP", definition: "adenosine triphosphate")),
            basic("Name the phases.", "In order:\n\n1. prophase\n2. metaphase"),
            CardDraft(.cloze("The {{c1::Krebs cycle}} runs in the {{c2::matrix}}.")),
            basic("What is 2 + 2?", "4"),  // identical: the occurrence counts up
            CardDraft(.reversed(front: "chat", back: "cat")),
            basic("Code?", "```\nx()\n```"),
            CardDraft(.definition(term: "last", definition: "one"), id: CardID("last-one")),
        ]
        let written = try drafts.map { try CardWriter.write($0) }
        try expectReadBack(written, path: "Biology/cells.md")
        let ids = CardWriter.cardIDs(of: written, path: "Biology/cells.md")
        #expect(ids.map(\.count) == [1, 1, 1, 2, 1, 2, 1, 1])
        #expect(ids[0] != ids[4])
        #expect(Set(ids.flatMap { $0 }).count == 10)
    }

    // MARK: - Generated cards

    /// Pieces of text that card syntax, Markdown and HTML may misread.
    private static let pieces = [
        "word", "Paris", "x", "the cell", "?", "??", "Q:", "A:", "q:", "**Q:**", "__A__:", " :: ", " ::: ", "::",
        "{{c1::", "}}", "{{c1::x}}", "{{c2::ans::hint}}", "{{C3::y}}", "{{c0::z}}", "==", "==hl==", "#", "# ", "#tag",
        "> ", "- ", "* ", "+ ", "1. ", "2) ", "|", "| a | b |", "|---|---|", "---", "***", "===", "```", "~~~", "`",
        "`code`", "<div>", "<b>", "</b>", "<!--", "-->", "<br>", "^id", " ^abc", "\\", "[x]: /u", "[^1]", "[^1]: n",
        "    ", "\t", " ", " ", " ", " ", "\n", "\n", "\n", "\n\n", ":", ".", "é", "日本", "e\u{301}", "\r\n", "*", "_",
    ]

    private static func text(_ rng: inout SeededGenerator) -> String {
        var s = ""
        for _ in 0..<Int.random(in: 1...7, using: &rng) {
            s += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
            if Int.random(in: 0...2, using: &rng) == 0 { s += " " }
        }
        return s
    }

    private static func draft(_ rng: inout SeededGenerator) -> CardDraft {
        let content: CardDraft.Content
        switch Int.random(in: 0...3, using: &rng) {
        case 0: content = .basic(question: text(&rng), answer: text(&rng))
        case 1: content = .definition(term: text(&rng), definition: text(&rng))
        case 2: content = .reversed(front: text(&rng), back: text(&rng))
        default: content = .cloze(text(&rng) + (Bool.random(using: &rng) ? " {{c1::deleted}} " : "") + text(&rng))
        }
        let id: CardID? = switch Int.random(in: 0...9, using: &rng) {
        case 0: CardID("id-\(Int.random(in: 0...99999, using: &rng))")
        case 1: CardID("bad_id")
        default: nil
        }
        return CardDraft(content, id: id)
    }

    /// Thousands of random cards from a seeded generator: each is written and read back exactly,
    /// or refused — never read back as another card, never lost. Written cards are then put
    /// together in notes and read back in order.
    @Test func generatedCardsRoundTripOrAreRefused() throws {
        var rng = SeededGenerator(seed: 20_261_124)
        var written: [WrittenCard] = []
        var refusals: [String: Int] = [:]
        var unexplained = 0
        for _ in 0..<3000 {
            let draft = Self.draft(&rng)
            let syntaxes = [.any] + CardWriter.syntaxes(for: draft.kind)
            let syntax = syntaxes[Int.random(in: 0..<syntaxes.count, using: &rng)]
            do {
                let card = try CardWriter.write(draft, as: syntax)
                #expect(card.draft == draft.normalized)
                #expect(syntax == .any || card.syntax == syntax)
                written.append(card)
            } catch {
                refusals[String("\(error)".prefix(40)), default: 0] += 1
                if case .notReadBack = error { unexplained += 1 }
            }
        }
        // Most random text fits some syntax, and refusals name their reason: the read-back's
        // catch-all is rare.
        #expect(written.count > 600, "written \(written.count), refused \(refusals)")
        #expect(unexplained <= 30, "\(unexplained) refusals without a named reason")
        var batch: [WrittenCard] = []
        var ids = Set<CardID>()
        for card in written {
            if card.draft.id.map({ !ids.insert($0).inserted }) ?? false { continue }
            batch.append(card)
            if batch.count == 7 {
                try expectReadBack(batch, path: "gen/\(written.count).md")
                batch = []
                ids = []
            }
        }
        if !batch.isEmpty { try expectReadBack(batch, path: "gen/last.md") }
    }

    /// Plain prose in any side is never refused, in any syntax its shape allows.
    @Test func plainTextIsAlwaysWritten() throws {
        var rng = SeededGenerator(seed: 7)
        let words = ["the", "cell", "Paris", "ATP", "é", "日本", "(a)", "x,", "y;", "z!", "a-b", "it's", "\"q\"", "1.5", "#tag"]
        func prose(lines: ClosedRange<Int>) -> String {
            (0..<Int.random(in: lines, using: &rng)).map { _ in
                (0..<Int.random(in: 1...6, using: &rng)).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }
                    .joined(separator: " ")
            }.joined(separator: "\n")
        }
        for _ in 0..<500 {
            try roundTrip(basic(prose(lines: 1...3) + "?", prose(lines: 1...3)))
            try roundTrip(basic(prose(lines: 1...3), prose(lines: 1...3)), as: .multiLine)
            try roundTrip(CardDraft(.definition(term: prose(lines: 1...1), definition: prose(lines: 1...1))))
            try roundTrip(CardDraft(.reversed(front: prose(lines: 1...2), back: prose(lines: 1...2))))
            try roundTrip(CardDraft(.cloze(prose(lines: 1...2) + " {{c1::" + prose(lines: 1...1) + "}} " + prose(lines: 1...2))))
        }
    }
}
