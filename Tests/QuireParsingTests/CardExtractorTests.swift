@testable import QuireParsing
import Testing
import QuireModel
@testable import QuireTestSupport

/// Card syntaxes of FORMAT.md §3, through `NoteParser.parse`.
@Suite struct CardExtractorTests {
    private func only(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Card {
        let found = cards(text)
        #expect(found.count == 1, "expected one card, found \(found.count)", sourceLocation: sourceLocation)
        return try #require(found.first, sourceLocation: sourceLocation)
    }

    // MARK: - §3.1 Q/A

    @Test func questionAndAnswer() throws {
        let c = try only("Q: What does the mitochondrion produce?\nA: ATP, by oxidative phosphorylation.\n")
        #expect(c.kind == .basic)
        #expect(c.variant == .single)
        #expect(c.front == "What does the mitochondrion produce?")
        #expect(c.back == "ATP, by oxidative phosphorylation.")
        #expect(c.lines == 1...2)
        #expect(c.column == 1)
        #expect(c.headingPath == [])
        #expect(c.identityText == "What does the mitochondrion produce?\u{1F}ATP, by oxidative phosphorylation.")
        #expect(!c.hasExplicitID)
        #expect(c.schedule == nil)
    }

    @Test func multiLineQuestionAndAnswerUnderHeadings() throws {
        let text = """
            # Cells

            ## Mitochondria

            Q: What does the
            mitochondrion produce?
            A: ATP,
            by oxidative phosphorylation.
            """
        let c = try only(text)
        #expect(c.front == "What does the\nmitochondrion produce?")
        #expect(c.back == "ATP,\nby oxidative phosphorylation.")
        #expect(c.lines == 5...8)
        #expect(c.headingPath == ["Cells", "Mitochondria"])
        #expect(c.identityText == "What does the mitochondrion produce?\u{1F}ATP, by oxidative phosphorylation.")
    }

    @Test func markersAreCaseInsensitiveAndTakeAnySpace() throws {
        let c = try only("q:What?\na:     Yes.")
        #expect(c.front == "What?")
        #expect(c.back == "Yes.")
    }

    @Test func consecutiveCardsWithoutBlankLines() {
        let found = cards("Q: one?\nA: 1\nQ: two?\nA: 2\nmore of two\n")
        #expect(found.map(\.front) == ["one?", "two?"])
        #expect(found.map(\.back) == ["1", "2\nmore of two"])
        #expect(found.map(\.lines) == [1...2, 3...5])
    }

    @Test func questionAndAnswerInSeparateParagraphs() throws {
        let c = try only("Intro.\n\nQ: What is it?\n\nA: An answer.\n")
        #expect(c.front == "What is it?")
        #expect(c.back == "An answer.")
        #expect(c.lines == 3...5)
        #expect(c.column == 1)
    }

    @Test func headingHeadingLevelsPop() {
        let text = "# A\n\n## B\n\nx :: 1\n\n# C\n\ny :: 2\n\n### D\n\nz :: 3\n"
        #expect(cards(text).map(\.headingPath) == [["A", "B"], ["C"], ["C", "D"]])
    }

    /// A generated card under `## Cards` shows the section of the line it was generated from;
    /// a card without the comment, or one naming another note, keeps its own section.
    @Test func generatedCardsShowTheirSourcesSection() {
        let text = "# Cells\n\n## Mitochondria\n\nThe mitochondrion makes ATP.\n\n## Ribosomes\n\nRibosomes make proteins.\n\n## Cards\n\n"
            + "<!-- generated from line 5 (definition, is-a) -->\nWhat makes ATP? :: the mitochondrion\n\n"
            + "<!-- generated from line 9 (qa, x) -->\nWhat makes proteins? :: ribosomes\n\n"
            + "<!-- generated from other.md line 3 (qa, x) -->\nOther? :: yes\n\nHand written? :: yes\n"
        #expect(cards(text).map(\.headingPath) == [["Cells", "Mitochondria"], ["Cells", "Ribosomes"], ["Cells", "Cards"], ["Cells", "Cards"]])
    }

    @Test func answerAbsorbsFollowingList() throws {
        let text = """
            Q: Name the phases of mitosis.
            A: In order:

            1. prophase
            2. metaphase

            Unrelated paragraph.
            """
        let c = try only(text)
        #expect(c.back == "In order:\n\n1. prophase\n2. metaphase")
        #expect(c.lines == 1...5)
        #expect(c.identityText == "Name the phases of mitosis.\u{1F}In order: 1. prophase 2. metaphase")
    }

    @Test func answerAbsorbsAdjacentCodeBlockTableAndQuoteButStopsAtABlankLine() throws {
        let text = """
            Q: Show it.
            A: Like this:

            ```c
            int main(void) {}
            ```
            | a | b |
            |---|---|
            | 1 | 2 |
            > quoted

            - not part: a blank line, and the answer does not end with ':'

            Not part of it.
            """
        let c = try only(text)
        #expect(c.back == "Like this:\n\n```c\nint main(void) {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted")
        #expect(c.lines == 1...10)
    }

    /// The case a user met: a code block after a blank line after a one-line answer, with more
    /// prose after it, is not the answer's (FORMAT.md §3.1).
    @Test func blockAfterABlankLineBelongsOnlyWhenTheAnswerAnnouncesIt() throws {
        let unrelated = try only("Q: Capital of France?\nA: Paris\n\n```\nunrelated()\n```\n\nMore prose.\n")
        #expect(unrelated.back == "Paris")
        #expect(unrelated.lines == 1...2)
        let adjacent = try only("Q: Code?\nA: This\n```\nit()\n```\n\nMore prose.\n")
        #expect(adjacent.back == "This\n\n```\nit()\n```")
        #expect(adjacent.lines == 1...5)
        let announced = try only("Q: Steps?\nA: These:\n\n1. one\n2. two\n\n```\nnot()\n```\n")
        #expect(announced.back == "These:\n\n1. one\n2. two")
    }

    @Test func headingEndsAnAnswer() throws {
        let c = try only("Q: q?\nA: a\n\n# Next\n\n- item\n")
        #expect(c.back == "a")
        #expect(c.lines == 1...2)
    }

    @Test func questionWithoutAnswerIsAWarning() {
        let (note, diagnostics) = parse("---\ntitle: T\n---\nText.\n\nQ: Lonely question?\n\nJust text.\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:6:1: warning: question has no answer (expected a line starting with 'A:'); no card made"])
    }

    @Test func questionWithoutAnswerAtEndOfFile() {
        let (note, diagnostics) = parse("- Q: Lonely question?\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:1:3: warning: question has no answer (expected a line starting with 'A:'); no card made"])
    }

    @Test func questionFollowedByQuestion() {
        let (note, diagnostics) = parse("Q: first?\nQ: second?\nA: answer\n")
        #expect(note?.cards.map(\.front) == ["second?"])
        #expect(printed(diagnostics) == ["notes.md:1:1: warning: question has no answer (expected a line starting with 'A:'); no card made"])
    }

    @Test func emptyAnswerIsAWarning() {
        let (note, diagnostics) = parse("Q: q?\nA:\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:1:1: warning: card has an empty answer; no card made"])
    }

    // MARK: - §3.2 One-line cards

    @Test func definitionCard() throws {
        let c = try only("Mitochondrion :: the organelle that produces most of the cell's ATP")
        #expect(c.kind == .definition)
        #expect(c.variant == .single)
        #expect(c.front == "Mitochondrion")
        #expect(c.back == "the organelle that produces most of the cell's ATP")
        #expect(c.lines == 1...1)
        #expect(c.column == 1)
        #expect(c.identityText == "Mitochondrion\u{1F}the organelle that produces most of the cell's ATP")
    }

    @Test func questionMarkMakesABasicCard() throws {
        let c = try only("What is the powerhouse of the cell? :: the mitochondrion")
        #expect(c.kind == .basic)
        #expect(c.front == "What is the powerhouse of the cell?")
        #expect(c.back == "the mitochondrion")
    }

    @Test func reversedPair() {
        let found = cards("Intro\n\nHund's rule ::: electrons fill degenerate orbitals singly\n")
        #expect(found.map(\.kind) == [.reversed, .reversed])
        #expect(found.map(\.variant) == [.forward, .backward])
        #expect(found.map(\.front) == ["Hund's rule", "electrons fill degenerate orbitals singly"])
        #expect(found.map(\.back) == ["electrons fill degenerate orbitals singly", "Hund's rule"])
        #expect(found.map(\.lines) == [3...3, 3...3])
        #expect(found[0].identityText == found[1].identityText)
        #expect(found[0].id != found[1].id)
    }

    @Test func everyLineOfAParagraphAndOfAList() {
        let para = cards("A :: 1\nB? :: 2\nC ::: 3\n")
        #expect(para.map(\.front) == ["A", "B?", "C", "3"])
        #expect(para.map(\.kind) == [.definition, .basic, .reversed, .reversed])
        #expect(para.map(\.lines) == [1...1, 2...2, 3...3, 3...3])
        let list = cards("Terms:\n\n- A :: 1\n- B :: 2\n  - nested C :: 3\n")
        #expect(list.map(\.front) == ["A", "B", "nested C"])
        #expect(list.map(\.lines) == [3...3, 4...4, 5...5])
        #expect(list.map(\.column) == [3, 3, 5])
    }

    @Test func inBlockQuoteAndFootnote() {
        let quoted = cards("> Term :: definition\n> Other :: one\n")
        #expect(quoted.map(\.front) == ["Term", "Other"])
        #expect(quoted.map(\.column) == [3, 3])
        let footnote = cards("Text[^1].\n\n[^1]: Term :: in a footnote\n")
        #expect(footnote.map(\.back) == ["in a footnote"])
    }

    @Test(arguments: [
        "Use std::vector for arrays.",
        "key:: value",
        "status:: done",
        "term::definition",
        "term ::definition",
        "a :::: b",
        "Call `a :: b` in Haskell.",
        "``x :: y`` is code",
        "Text <!-- a :: b --> more",
        "Text <!--\na :: b\n--> more",
        "Text <b title=\"a :: b\">bold</b> more",
        "<span>x</span> <!-- {{c1::hidden}} -->",
    ])
    func notOneLineCards(_ text: String) {
        let (note, diagnostics) = parse(text)
        #expect(note?.cards.isEmpty == true)
        #expect(diagnostics.isEmpty)
    }

    @Test func firstSeparatorWins() throws {
        let c = try only("a :: b :: c")
        #expect(c.front == "a")
        #expect(c.back == "b :: c")
        let code = try only("`x :: y` :: z")
        #expect(code.front == "`x :: y`")
        #expect(code.back == "z")
    }

    @Test func tabsCountAsWhiteSpace() throws {
        let c = try only("term\t::\tdefinition")
        #expect(c.front == "term")
        #expect(c.back == "definition")
    }

    // MARK: - §3.3 `?` and `??`

    @Test func multiLineBasic() throws {
        let text = "What are the two stages\nof photosynthesis?\n?\nThe light-dependent reactions\nand the Calvin cycle.\n"
        let c = try only(text)
        #expect(c.kind == .basic)
        #expect(c.front == "What are the two stages\nof photosynthesis?")
        #expect(c.back == "The light-dependent reactions\nand the Calvin cycle.")
        #expect(c.lines == 1...5)
    }

    @Test func multiLineReversed() {
        let found = cards("# H\n\nLeft side\n??\nRight side\n")
        #expect(found.map(\.kind) == [.reversed, .reversed])
        #expect(found.map(\.front) == ["Left side", "Right side"])
        #expect(found.map(\.back) == ["Right side", "Left side"])
        #expect(found.map(\.lines) == [3...5, 3...5])
        #expect(found.map(\.headingPath) == [["H"], ["H"]])
    }

    @Test func questionMarkLineNeedsTextOnBothSides() {
        #expect(printed(parse("?\nanswer").1) == ["notes.md:1:1: warning: '?' line has no question above it; no card made"])
        #expect(printed(parse("question\n?").1) == ["notes.md:1:1: warning: card has an empty answer; no card made"])
        #expect(printed(parse("question\n??\n\n# Heading").1) == ["notes.md:1:1: warning: card has an empty answer; no card made"])
        #expect(cards("a\n???\nb").isEmpty)
    }

    // MARK: - §3.4 Cloze

    @Test func ankiClozeGroup() {
        let text = "Intro.\n\nThe {{c1::mitochondrion}} produces {{c2::ATP::energy currency}} from {{c1::glucose}}.\n"
        let found = cards(text)
        #expect(found.map(\.kind) == [.cloze, .cloze])
        #expect(found.map(\.variant) == [.cloze(1), .cloze(2)])
        #expect(found.map(\.front) == ["The [...] produces ATP from [...].",
                                       "The mitochondrion produces [energy currency] from glucose."])
        #expect(found.map(\.back) == ["The mitochondrion produces ATP from glucose.",
                                      "The mitochondrion produces ATP from glucose."])
        #expect(found.map(\.lines) == [3...3, 3...3])
        #expect(found[0].identityText
            == "The {{c1::mitochondrion}} produces {{c2::ATP::energy currency}} from {{c1::glucose}}.")
        #expect(found[0].id != found[1].id)
    }

    @Test func clozeNumbersNeedNotStartAtOne() {
        let found = cards("{{c3::A}} and {{c10::B}}")
        #expect(found.map(\.variant) == [.cloze(3), .cloze(10)])
        #expect(found.map(\.front) == ["[...] and B", "A and [...]"])
    }

    @Test func clozeParagraphIsNotReadForDoubleColons() throws {
        let c = try only("Term :: the {{c1::answer}}")
        #expect(c.kind == .cloze)
        #expect(c.front == "Term :: the [...]")
    }

    @Test func unclosedClozeIsAnErrorAtItsLocation() {
        let (note, diagnostics) = parse("---\ntitle: T\n---\n\n- The {{c1::mitochondrion produces ATP.\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:5:7: error: cloze deletion '{{c1::' is not closed with '}}'"])
    }

    @Test func emptyClozeIsAnErrorAndMakesNoCard() {
        let (note, diagnostics) = parse("Line one\nA {{c1::}} and {{c2::fine}}\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:2:3: error: cloze deletion c1 is empty"])
    }

    @Test func clozeNumberZeroIsAnError() {
        let (note, diagnostics) = parse("x {{c0::y}}")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:1:3: error: cloze number must be 1 or more, not c0"])
    }

    @Test func highlightCloze() {
        let found = cards("The ==Krebs cycle== takes place in the ==mitochondrial matrix==.")
        #expect(found.map(\.variant) == [.cloze(1), .cloze(2)])
        #expect(found.map(\.front) == ["The [...] takes place in the mitochondrial matrix.",
                                       "The Krebs cycle takes place in the [...]."])
        #expect(found.map(\.back) == ["The Krebs cycle takes place in the mitochondrial matrix.",
                                      "The Krebs cycle takes place in the mitochondrial matrix."])
    }

    @Test func highlightsAreIgnoredWhenAnkiDeletionsArePresent() {
        let found = cards("==bright== and {{c1::hidden}}")
        #expect(found.map(\.front) == ["==bright== and [...]"])
    }

    @Test func notHighlights() {
        #expect(cards("a == b and c == d").isEmpty)
        #expect(cards("=== x ===").isEmpty)
        #expect(cards("`==code==` here").isEmpty)
    }

    @Test func clozeInsideInlineCodeIsNotACard() {
        #expect(cards("Write `{{c1::x}}` for a deletion.").isEmpty)
    }

    // MARK: - §3.5 Explicit IDs

    @Test func explicitIDOnDefinition() throws {
        let c = try only("Mitochondrion :: the powerhouse of the cell ^mito-def")
        #expect(c.id.rawValue == "mito-def")
        #expect(c.hasExplicitID)
        #expect(c.back == "the powerhouse of the cell")
        #expect(c.identityText == "Mitochondrion\u{1F}the powerhouse of the cell")
    }

    @Test func explicitIDSuffixesForSiblings() {
        #expect(cards("Left ::: Right ^pair").map(\.id.rawValue) == ["pair", "pair-r"])
        #expect(cards("Left\n??\nRight ^pair2").map(\.id.rawValue) == ["pair2", "pair2-r"])
        let cloze = cards("The {{c1::a}} and {{c2::b}} ^grp")
        #expect(cloze.map(\.id.rawValue) == ["grp-c1", "grp-c2"])
        #expect(cloze.map(\.back) == ["The a and b", "The a and b"])
        #expect(cards("==x== and ==y== ^hl").map(\.id.rawValue) == ["hl-c1", "hl-c2"])
    }

    @Test func explicitIDOnQuestionAnswerAndMultiLine() {
        #expect(cards("Q: q?\nA: a\nmore ^qa-1").map(\.id.rawValue) == ["qa-1"])
        #expect(cards("Q: q?\nA: a\nmore ^qa-1").map(\.back) == ["a\nmore"])
        #expect(cards("Q: q?\n\nA: a ^qa-2").map(\.id.rawValue) == ["qa-2"])
        #expect(cards("q\n?\na ^ml").map(\.id.rawValue) == ["ml"])
    }

    @Test func caretWithoutSpaceIsText() throws {
        let c = try only("x :: 2^10")
        #expect(!c.hasExplicitID)
        #expect(c.back == "2^10")
    }

    // MARK: - Never cards

    @Test func nothingInsideCodeOrHTMLBlocks() {
        let text = """
            ```
            a :: b
            Q: x
            A: y
            {{c1::z}}
            ```

            Paragraph.

                indented :: code
                Q: x
                A: y

            <div>
            html :: block
            </div>

            <!--
            comment :: block
            -->
            """
        let (note, diagnostics) = parse(text)
        #expect(note?.cards.isEmpty == true)
        #expect(diagnostics.isEmpty)
    }

    @Test func cardSyntaxInHeadingsAndTableCellsIsAWarning() {
        let text = """
            # Heading :: not a card

            Setext :: heading
            ===

            ## **Q:** in a heading

            | Q: a | A: b |
            |------|------|
            | x :: y | ==z== |
            | `a :: b` | {{c1::x}} |
            """
        let (note, diagnostics) = parse(text)
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == [
            "notes.md:1:1: warning: a heading is never a card (it holds ' :: '); write the card in a paragraph",
            "notes.md:3:1: warning: a heading is never a card (it holds ' :: '); write the card in a paragraph",
            "notes.md:6:1: warning: a heading is never a card (it holds 'Q:'); write the card in a paragraph",
            "notes.md:8:2: warning: a table cell is never a card (it holds 'Q:'); write the card in a paragraph",
            "notes.md:8:9: warning: a table cell is never a card (it holds 'A:'); write the card in a paragraph",
            "notes.md:11:13: warning: a table cell is never a card (it holds a cloze deletion); write the card in a paragraph",
        ])
    }

    @Test func oneLineCardWithAnEmptySideIsAWarning() {
        let (note, diagnostics) = parse(":: no left side\nno right side ::\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == [
            "notes.md:1:1: warning: '::' card has an empty left side; no card made",
            "notes.md:2:1: warning: '::' card has an empty right side; no card made",
        ])
    }

    // MARK: - Line endings, BOM and front matter

    @Test func crlfFile() {
        let text = "---\r\ntitle: T\r\n---\r\n# Head\r\n\r\nQ: q?\r\nA: a\r\nmore\r\n\r\nx :: y\r\n"
        let found = cards(text)
        #expect(found.map(\.front) == ["q?", "x"])
        #expect(found.map(\.back) == ["a\nmore", "y"])
        #expect(found.map(\.lines) == [6...8, 10...10])
        #expect(found.map(\.headingPath) == [["Head"], ["Head"]])
    }

    @Test func bomFileColumnsStartAfterTheMark() {
        let found = cards("\u{FEFF}x :: y\n\n- a :: b\n")
        #expect(found.map(\.front) == ["x", "a"])
        #expect(found.map(\.column) == [1, 3])
        let (note, _) = parse("\u{FEFF}---\ntitle: With BOM\n---\nx :: y\n")
        #expect(note?.title == "With BOM")
        #expect(note?.cards.map(\.lines) == [4...4])
    }

    @Test func lineNumbersCountTheFrontMatter() {
        let text = "---\ntitle: T\ntags: [a]\n---\n\nfirst :: 1\n\n> quoted :: 2\n"
        let found = cards(text)
        #expect(found.map(\.lines) == [6...6, 8...8])
        #expect(found.map(\.column) == [1, 3])
    }

    @Test func clozeErrorColumnInCRLFAndBOMFile() {
        let (_, diagnostics) = parse("\u{FEFF}---\r\ntitle: T\r\n---\r\nab {{c2::x\r\n")
        #expect(printed(diagnostics) == ["notes.md:4:4: error: cloze deletion '{{c2::' is not closed with '}}'"])
    }
}

/// The cases of issue 15: cards that were lost without a word.
@Suite struct CardsAsPeopleWriteThemTests {
    @Test func paragraphDirectlyBeforeATableMakesItsCards() {
        let qa = parse("Q: What is X?\nA: Y\n| a | b |\n|---|---|\n")
        #expect(qa.0?.cards.map(\.front) == ["What is X?"])
        #expect(qa.0?.cards.map(\.back) == ["Y\n\n| a | b |\n|---|---|"])
        #expect(qa.0?.cards.map(\.lines) == [1...4])
        let term = parse("Intro.\n\nterm :: definition\n| a | b |\n|---|---|\n")
        #expect(term.0?.cards.map(\.front) == ["term"])
        #expect(term.0?.cards.map(\.lines) == [3...3])
        #expect(term.1.isEmpty)
    }

    @Test func everyCardLineOfAParagraphMakesItsCards() {
        let found = cards("你好 ::: hello\n谢谢 :: thank you\nWhat is it? :: that\n{{c1::猫::animal}} is a cat\n")
        #expect(found.map(\.kind) == [.reversed, .reversed, .definition, .basic, .cloze])
        #expect(found.map(\.front) == ["你好", "hello", "谢谢", "What is it?", "[animal] is a cat"])
        #expect(found.map(\.back) == ["hello", "你好", "thank you", "that", "猫 is a cat"])
        #expect(found.map(\.lines) == [1...1, 1...1, 2...2, 3...3, 4...4])
    }

    @Test func clozeLinesNextToEachOtherAreOneGroupAndCardLinesSplitThem() {
        let found = cards("The {{c1::cell}} is the\nunit of {{c2::life}}.\nterm :: def\nThe ==sun== is a star.\n")
        #expect(found.map(\.kind) == [.cloze, .cloze, .definition, .cloze])
        #expect(found.map(\.lines) == [1...2, 1...2, 3...3, 4...4])
        #expect(found[3].front == "The [...] is a star.")
    }

    @Test func oneLineCardAfterAnAnswerIsItsOwnCard() {
        let found = cards("Q: Sum of 1..n?\nA: $\\frac{n(n+1)}{2}$\nDerivative of sin :: cos\n")
        #expect(found.map(\.front) == ["Sum of 1..n?", "Derivative of sin"])
        #expect(found.map(\.back) == ["$\\frac{n(n+1)}{2}$", "cos"])
        #expect(found.map(\.lines) == [1...2, 3...3])
    }

    @Test func highlightInADefinitionIsShownNotAClozeDeletion() throws {
        let found = cards("Mitochondrion :: the ==powerhouse== of the cell\n")
        #expect(found.map(\.kind) == [.definition])
        #expect(found.first?.back == "the ==powerhouse== of the cell")
    }

    @Test func ankiClozeWinsOverDoubleColonAndQuestionMarkersWinOverAll() {
        #expect(cards("Capital :: {{c1::Paris}}").map(\.kind) == [.cloze])
        #expect(cards("Q: Is ==this== a :: card?\nA: yes").map(\.kind) == [.basic])
        #expect(cards("Q: Is ==this== a :: card?\nA: yes").first?.front == "Is ==this== a :: card?")
    }

    @Test(arguments: ["**Q:** What?\n**A:** That.", "**Q**: What?\n**A**: That.", "__Q:__ What?\n__A:__ That.",
                      "**q:** What?\n\n**a:** That."])
    func boldMarkers(_ text: String) {
        let found = cards(text)
        #expect(found.map(\.front) == ["What?"])
        #expect(found.map(\.back) == ["That."])
    }

    @Test func answerLineWithoutQuestionIsAWarning() {
        let (note, diagnostics) = parse("Intro\nA: stray answer\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == [
            "notes.md:2:1: warning: 'A:' line has no question before it (start the question with 'Q:'); no card made"])
    }

    // MARK: - `?` and `??` take the blocks that follow

    @Test func questionMarkCardTakesAFencedCodeBlockWithBlankLinesAndNestedFences() throws {
        let text = """
            How do you print in Python?
            ?
            ````python
            print("hi")

            ```
            nested
            ```
            ````

            Unrelated prose.
            """
        let (note, diagnostics) = parse(text)
        #expect(diagnostics.isEmpty)
        let c = try #require(note?.cards.first)
        #expect(note?.cards.count == 1)
        #expect(c.front == "How do you print in Python?")
        #expect(c.back == "````python\nprint(\"hi\")\n\n```\nnested\n```\n````")
        #expect(c.lines == 1...9)
    }

    @Test func questionMarkCardAnswerInTheNextParagraphOrList() {
        #expect(cards("What?\n?\n\nThe answer.\n").map(\.back) == ["The answer."])
        #expect(cards("Steps?\n?\n- one\n- two\n").map(\.back) == ["- one\n- two"])
        let pair = cards("Left\n??\n```\nright()\n```\n")
        #expect(pair.map(\.front) == ["Left", "```\nright()\n```"])
        #expect(pair.map(\.back) == ["```\nright()\n```", "Left"])
    }

    @Test func nextParagraphWithCardsOfItsOwnIsNotTakenAsTheAnswer() {
        let (note, diagnostics) = parse("What?\n?\n\nterm :: def\n")
        #expect(note?.cards.map(\.front) == ["term"])
        #expect(printed(diagnostics) == ["notes.md:1:1: warning: card has an empty answer; no card made"])
    }

    @Test func questionMarkCardAfterOneLineCards() {
        let found = cards("a :: b\nWhat is c?\n?\nc\n")
        #expect(found.map(\.front) == ["a", "What is c?"])
        #expect(found.map(\.lines) == [1...1, 2...4])
    }

    // MARK: - The plugin's scheduling comments

    @Test(arguments: [
        "Question :: Answer <!--SR:!2021-08-11,4,270-->\n",
        "Question :: Answer\n<!--SR:!2021-08-11,4,270-->\n",
    ])
    func schedulingCommentIsNotPartOfAOneLineCard(_ text: String) {
        let found = cards(text)
        #expect(found.map(\.back) == ["Answer"])
    }

    @Test func theMetadataCalloutIsNotPartOfAnAnswer() {
        let found = cards("Q: What?\nA: That.\n> [!sr|card-metadata]\n> <!--SR:!2021-08-11,4,270-->\n")
        #expect(found.map(\.back) == ["That."])
        #expect(found.map(\.lines) == [1...2])
        let oneLine = cards("Term :: definition\n> [!sr|card-metadata]\n> <!--SR:!2021-08-11,4,270-->\n")
        #expect(oneLine.map(\.back) == ["definition"])
    }

    @Test func schedulingCommentAfterAMultiLineCard() {
        let same = cards("What?\n?\nThat. <!--SR:!2021-08-11,4,270-->\n")
        #expect(same.map(\.back) == ["That."])
        let next = cards("What?\n?\nThat.\n<!--SR:!2021-08-11,4,270-->\n\n```\nnot the answer\n```\n")
        #expect(next.map(\.back) == ["That."])
        let reversed = cards("Left\n??\nRight\n<!--SR:!2021-08-11,4,270!2021-08-12,5,250-->\n")
        #expect(reversed.map(\.front) == ["Left", "Right"])
    }
}
