import Testing
import QuireModel
@testable import QuireVault

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

    @Test func answerAbsorbsCodeBlockTableAndQuoteButStopsAtParagraph() throws {
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

            Not part of it.

            - not part either
            """
        let c = try only(text)
        #expect(c.back == "Like this:\n\n```c\nint main(void) {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted")
        #expect(c.lines == 1...12)
    }

    @Test func headingEndsAnAnswer() throws {
        let c = try only("Q: q?\nA: a\n\n# Next\n\n- item\n")
        #expect(c.back == "a")
        #expect(c.lines == 1...2)
    }

    @Test func questionWithoutAnswerIsAWarning() {
        let (note, diagnostics) = parse("---\ntitle: T\n---\nText.\n\nQ: Lonely question?\n\nJust text.\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:6:1: warning: question has no answer (expected a line starting with 'A:')"])
    }

    @Test func questionWithoutAnswerAtEndOfFile() {
        let (note, diagnostics) = parse("- Q: Lonely question?\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:1:3: warning: question has no answer (expected a line starting with 'A:')"])
    }

    @Test func questionFollowedByQuestion() {
        let (note, diagnostics) = parse("Q: first?\nQ: second?\nA: answer\n")
        #expect(note?.cards.map(\.front) == ["second?"])
        #expect(printed(diagnostics) == ["notes.md:1:1: warning: question has no answer (expected a line starting with 'A:')"])
    }

    @Test func emptyAnswerIsAWarning() {
        let (note, diagnostics) = parse("Q: q?\nA:\n")
        #expect(note?.cards.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:1:1: warning: card has an empty answer"])
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
        ":: no left side",
        "no right side ::",
        "Call `a :: b` in Haskell.",
        "``x :: y`` is code",
        "Text <!-- a :: b --> more",
        "Text <!--\na :: b\n--> more",
        "Text <b title=\"a :: b\">bold</b> more",
        "<span>x</span> <!-- {{c1::hidden}} -->",
        "# Heading :: not a card",
        "Setext :: heading\n===",
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
        #expect(cards("?\nanswer").isEmpty)
        #expect(cards("question\n?").isEmpty)
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

            | Q: a | A: b |
            |------|------|
            | x :: y | ==z== |
            """
        let (note, diagnostics) = parse(text)
        #expect(note?.cards.isEmpty == true)
        #expect(diagnostics.isEmpty)
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
