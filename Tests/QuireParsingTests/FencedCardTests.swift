import Testing
import QuireModel
@testable import QuireParsing
@testable import QuireTestSupport

/// Fenced cards (FORMAT.md §3.10): the card form that holds any Markdown on either side, read by
/// the extractor and written by `CardWriter` whenever no inline syntax reads back.
@Suite struct FencedCardTests {
    // MARK: - Reading

    @Test func questionAndAnswerBlocksMakeABasicCard() {
        let text = """
            # Sets

            ```question
            What is this set?

            $\\{x \\mid x > 0\\}$
            ```
            ```answer
            The positive numbers.

            - open at 0
            - unbounded

            A: not a marker here
            ```

            After.
            """
        let (note, diagnostics) = parse(text)
        #expect(diagnostics.isEmpty, "\(printed(diagnostics))")
        let cards = note?.cards ?? []
        #expect(cards.count == 1)
        #expect(cards.first?.kind == .basic)
        #expect(cards.first?.front == "What is this set?\n\n$\\{x \\mid x > 0\\}$")
        #expect(cards.first?.back == "The positive numbers.\n\n- open at 0\n- unbounded\n\nA: not a marker here")
        #expect(cards.first?.lines == 3...15)
        #expect(cards.first?.headingPath == ["Sets"])
    }

    @Test func everyKindAndAnExplicitID() {
        let text = """
            ```term ^t1
            Set
            ```

            ```definition
            A collection.
            ```

            ````front
            ```swift
            let x = 1
            ```
            ````
            ```back
            A constant.
            ```

            ```cloze ^cz
            First {{c1::one}}.

            Then {{c2::two}} and {{c1::again}}.
            ```
            """
        let (note, diagnostics) = parse(text)
        #expect(diagnostics.isEmpty, "\(printed(diagnostics))")
        let cards = note?.cards ?? []
        #expect(cards.map(\.kind) == [.definition, .reversed, .reversed, .cloze, .cloze])
        #expect(cards.first?.id.rawValue == "t1")
        #expect(cards[1].front == "```swift\nlet x = 1\n```")
        #expect(cards[2].front == "A constant.")
        #expect(cards.suffix(2).map(\.id.rawValue) == ["cz-c1", "cz-c2"])
        #expect(cards[3].front == "First [...].\n\nThen two and [...].")
        #expect(cards[3].lines == 18...22)
    }

    @Test func emptySidesMakeCards() {
        let (note, diagnostics) = parse("```question\nWhat is shown?\n```\n```answer\n```\n")
        #expect(diagnostics.isEmpty)
        #expect(note?.cards.first?.back == "")
        #expect(note?.cards.count == 1)
    }

    @Test func aLoneOrMismatchedBlockIsReported() {
        let (note, diagnostics) = parse("""
            ```question
            Q?
            ```

            Some prose.

            ```answer
            A.
            ```

            ```cloze
            no deletion
            ```

            ```front ^not_an id
            x
            ```
            ```definition
            y
            ```

            ```python
            x = 1  # an ordinary code block is no card
            ```
            """)
        #expect(note?.cards.isEmpty == true)
        let messages = diagnostics.map { "\($0.line ?? 0): \($0.message)" }
        #expect(messages.contains("1: a ```question block needs a ```answer block right after it; no card made"), "\(messages)")
        #expect(messages.contains("7: a ```answer block with no ```question block right before it; no card made"))
        #expect(messages.contains { $0.hasPrefix("11: a ```cloze block with no deletion") })
        #expect(messages.contains("15: '^not_an id' after 'front' is not a card ID ('^id'); ignored"))
        #expect(messages.contains("15: a ```front block needs a ```back block right after it; no card made"))
        #expect(messages.contains("18: a ```definition block with no ```term block right before it; no card made"))
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test func aFencedCardIsNeverTakenIntoTheAnswerBefore() {
        let (note, diagnostics) = parse("Q: First?\nA: In order:\n\n```question\nSecond?\n```\n```answer\nyes\n```\n")
        #expect(diagnostics.isEmpty)
        #expect(note?.cards.map(\.front) == ["First?", "Second?"])
        #expect(note?.cards.first?.back == "In order:")
    }

    @Test func fencedCardsInListsAndQuotes() {
        let (note, diagnostics) = parse("- ```question\n  In a list?\n  ```\n  ```answer\n  yes\n  ```\n\n> ```term\n> quoted\n> ```\n> ```definition\n> a quote\n> ```\n")
        #expect(diagnostics.isEmpty, "\(printed(diagnostics))")
        #expect(note?.cards.map(\.front) == ["In a list?", "quoted"])
        #expect(note?.cards.map(\.back) == ["yes", "a quote"])
    }

    @Test func crlfNotesReadTheSameSides() {
        let (note, _) = parse("```question\r\nOne\r\n\r\nTwo\r\n```\r\n```answer\r\nThree\r\n```\r\n")
        #expect(note?.cards.first?.front == "One\n\nTwo")
        #expect(note?.cards.first?.back == "Three")
    }

    // MARK: - Writing

    private func written(_ draft: CardDraft, sourceLocation: SourceLocation = #_sourceLocation) throws -> WrittenCard {
        let card = try CardWriter.write(draft)
        #expect(card.draft == draft.normalized, sourceLocation: sourceLocation)
        let (note, diagnostics) = parse("# H\n\nbefore :: it\n\n" + (try CardWriter.body([card])) + "\nafter :: it\n")
        #expect(diagnostics.isEmpty, "\(printed(diagnostics))\n\(card.markdown)", sourceLocation: sourceLocation)
        let cards = Array((note?.cards ?? []).dropFirst().dropLast())
        let d = draft.normalized
        switch d.content {
        case let .basic(q, a), let .definition(q, a):
            #expect(cards.map(\.front) == [q] && cards.map(\.back) == [a], "\(card.markdown)", sourceLocation: sourceLocation)
        case let .reversed(f, b):
            #expect(cards.map(\.front) == [f, b] && cards.map(\.back) == [b, f], "\(card.markdown)", sourceLocation: sourceLocation)
        case .cloze:
            #expect(cards.map(\.variant) == card.variants, sourceLocation: sourceLocation)
        }
        #expect(cards.allSatisfy { $0.kind == d.kind }, sourceLocation: sourceLocation)
        return card
    }

    @Test func whatNoInlineSyntaxHoldsIsWrittenFenced() throws {
        // The shapes real Anki answers have: a paragraph and a list, two lists, a table after text.
        let shapes = [
            "The phases:\n- prophase\n- metaphase",
            "- one\n- two\n\n1. first\n2. second",
            "Compare:\n| a | b |\n|---|---|\n| 1 | 2 |",
            "Paris.\n\nIt is the capital.",
            "Line one\nA: looks like an answer\nQ: and a question",
            "## A heading\n\ntext",
            "<div>html</div>\n\nafter",
        ]
        for answer in shapes {
            let card = try written(CardDraft(.basic(question: "Tell me?", answer: answer)))
            #expect(card.syntax == .fenced || card.syntax == .questionAnswer, "\(card.markdown)")
        }
        #expect(try written(CardDraft(.basic(question: "q", answer: "Paris.\n\nIt is the capital."))).markdown
                == "```question\nq\n```\n```answer\nParis.\n\nIt is the capital.\n```")
        // A term ending with '?' and a definition with line breaks.
        #expect(try written(CardDraft(.definition(term: "Why?", definition: "Because."))).syntax == .fenced)
        #expect(try written(CardDraft(.reversed(front: "a\n\nb", back: "c"))).syntax == .fenced)
    }

    @Test func emptySidesAreWrittenFenced() throws {
        let card = try written(CardDraft(.basic(question: "What is in the picture?", answer: "")))
        #expect(card.markdown == "```question\nWhat is in the picture?\n```\n```answer\n```")
        #expect(try written(CardDraft(.reversed(front: "", back: "x"))).syntax == .fenced)
        // Asked for an inline syntax, an empty side is still refused.
        #expect(throws: CardWriterError.emptySide(.answer)) {
            try CardWriter.write(CardDraft(.basic(question: "q?", answer: "  ")), as: .questionAnswer)
        }
    }

    @Test func fencesAreLongerThanAnyInside() throws {
        let answer = "```swift\nlet a = 1\n```\n\n  ````\nnot closing\n  ````\n\ntext"
        let card = try written(CardDraft(.basic(question: "Code?", answer: answer), id: CardID("code-1")))
        #expect(card.markdown.hasPrefix("```question ^code-1\n"))
        #expect(card.markdown.contains("\n`````answer\n"))
    }

    @Test func explicitIDsOnFencedCards() throws {
        let card = try written(CardDraft(.cloze("{{c1::One}}.\n\n{{c2::Two}}."), id: CardID("two-paras")))
        #expect(card.syntax == .fenced)
        #expect(card.cards.map(\.id.rawValue) == ["two-paras-c1", "two-paras-c2"])
        let pair = try written(CardDraft(.reversed(front: "x\n\ny", back: "z"), id: CardID("p")))
        #expect(pair.cards.map(\.id.rawValue) == ["p", "p-r"])
    }

    // MARK: - Any Markdown round-trips

    /// Markdown blocks of every kind, card syntax, code, math, HTML, odd spacing.
    private static let blocks: [String] = [
        "A paragraph of prose.", "Two lines\nof prose.", "- a list\n- of items", "1. ordered\n2. list",
        "> a quote\n> more", "```\ncode :: inside\n```", "````md\n```\nnested\n```\n````", "~~~\ntilde\n~~~",
        "    indented code", "| a | b |\n|---|---|\n| 1 | 2 |", "# Heading", "Setext\n---", "***",
        "<div>\nhtml\n</div>", "<!-- comment -->", "Q: looks like a question", "A: looks like an answer", "?", "??",
        "term :: def", "a ::: b", "{{c1::cloze}} text", "==highlight==", "$$\n\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}\n$$",
        "$\\{x \\mid x > 0\\}$ and $a\\,b$", "![image](assets/x.png)", "[^1]: a footnote", "[ref]: /url", "Ends with ^abc",
        "```question\ninner\n```", "```answer\ninner\n```", "```cloze\n{{c1::x}}\n```", "\\", "日本語の文", "e\u{301}",
        "  leading spaces", "trailing spaces  ", "\ttab", "",
    ]

    private static func markdown(_ rng: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...5, using: &rng)).map { _ in
            blocks[Int.random(in: 0..<blocks.count, using: &rng)]
        }.joined(separator: Bool.random(using: &rng) ? "\n\n" : "\n")
    }

    /// Random Markdown on both sides, any kind: the writer never refuses it, and it reads back as
    /// exactly those sides (FORMAT.md §3.9: a card is refused only for control characters or a
    /// cloze without a valid deletion).
    @Test func anyMarkdownIsWrittenAndReadsBack() throws {
        var rng = SeededGenerator(seed: 29)
        var fenced = 0
        var batch: [WrittenCard] = []
        for round in 0..<3000 {
            let content: CardDraft.Content = switch round % 4 {
            case 0: .basic(question: Self.markdown(&rng), answer: Self.markdown(&rng))
            case 1: .definition(term: Self.markdown(&rng), definition: Self.markdown(&rng))
            case 2: .reversed(front: Self.markdown(&rng), back: Self.markdown(&rng))
            default: .cloze(Self.markdown(&rng) + "\n\nA {{c\(Int.random(in: 1...3, using: &rng))::deletion}} here.\n\n" + Self.markdown(&rng))
            }
            let draft = CardDraft(content, id: Int.random(in: 0...4, using: &rng) == 0 ? CardID("id-\(round)") : nil)
            let card: WrittenCard
            do {
                card = try CardWriter.write(draft)
            } catch {
                Issue.record("round \(round): refused (\(error)):\n\(draft)")
                continue
            }
            if card.syntax == .fenced { fenced += 1 }
            batch.append(card)
            if batch.count == 5 {
                try expectBatch(batch, round: round)
                batch = []
            }
        }
        #expect(fenced > 1000)
    }

    /// Cards written one after another into one note read back in order with their sides.
    private func expectBatch(_ batch: [WrittenCard], round: Int) throws {
        let body = try CardWriter.body(batch)
        let (note, diagnostics) = parse("---\ntitle: t\n---\n\n" + body)
        #expect(diagnostics.filter { $0.severity != .note }.isEmpty, "round \(round): \(printed(diagnostics))\n\(body)")
        let cards = note?.cards ?? []
        let expected = batch.flatMap(\.cards)
        #expect(cards.count == expected.count, "round \(round):\n\(body)")
        for (got, want) in zip(cards, expected) {
            #expect(got.kind == want.kind && got.variant == want.variant && got.front == want.front && got.back == want.back,
                    "round \(round):\n\(body)")
        }
        for written in batch {
            switch written.draft.content {
            case let .basic(q, a), let .definition(q, a), let .reversed(q, a):
                #expect(written.cards.first?.front == q && written.cards.first?.back == a)
            case .cloze: break
            }
        }
    }
}
