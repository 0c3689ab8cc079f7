import Testing
@testable import QuireMarkdown

/// Wikilinks, embeds and math made readable for the terminal, and a cloze's revealed text marked.
@Suite struct TerminalMarkupTests {
    @Test(arguments: [
        ("x^2 + y_1 = \\alpha", "x² + y₁ = α"),
        ("\\frac{a}{b} \\leq \\sqrt{c}", "a/b ≤ √c"),
        ("\\frac{a+b}{2}", "(a+b)/2"),
        ("e^{i\\pi} + 1 = 0", "e^(iπ) + 1 = 0"),
        ("x^{10}", "x¹⁰"),
        ("a_{ij}", "aᵢⱼ"),
        ("x_{\\max}", "xₘₐₓ"),
        ("\\sum_{i=1}^{n} i", "∑ᵢ₌₁ⁿ i"),
        ("\\text{if } x \\in \\mathbb{R}", "if x ∈ ℝ"),
        ("f(x) \\to \\infty", "f(x) → ∞"),
        ("\\left( a \\right)", "( a )"),
        ("\\Delta G < 0", "Δ G < 0"),
        ("a - b", "a − b"),
    ])
    func mathBecomesUnicode(_ tex: String, _ expected: String) {
        #expect(TeXUnicode.render(tex) == expected)
    }

    @Test func mathItCannotRenderIsNil() {
        #expect(TeXUnicode.render("\\begin{matrix} a \\end{matrix}") == nil)
        #expect(TeXUnicode.render("\\frac{a}") == nil)
        #expect(TeXUnicode.render("{a") == nil)
        #expect(TeXUnicode.render("a}") == nil)
        #expect(TeXUnicode.render(String(repeating: "{", count: 100) + String(repeating: "}", count: 100)) == nil)
    }

    @Test func wikilinksEmbedsAndMathInTheRenderedText() {
        let text = MarkdownRenderer.plain("See [[Other note|the alias]], [[Plain]], [[Note#Part]] and ![[diagram.png]]: $x^2$.", width: 200)
        #expect(text == "See the alias, Plain, Note#Part and [embed: diagram.png]: x².\n")
        // Math the renderer cannot read is kept as written, Markdown untouched (no emphasis).
        #expect(MarkdownRenderer.plain("$\\begin{x}_a_$ and $$y$$", width: 80) == "$\\begin{x}_a_$ and y\n")
        // Money is not math; code is left alone.
        #expect(MarkdownRenderer.plain("$5 and $10, `$x^2$` and `[[a]]`", width: 80) == "$5 and $10, $x^2$ and [[a]]\n")
        #expect(MarkdownRenderer.plain("```\n$x^2$ [[a]]\n```\n", width: 80) == "    $x^2$ [[a]]\n")
        // A wikilink is underlined like a link, without a URL after it.
        #expect(MarkdownRenderer.ansi("[[Note|alias]]", color: true).contains("\u{1B}[4malias"))
    }

    /// Display math over several lines is a line of its own, rendered; what TeXUnicode cannot
    /// render keeps its backslashes (Markdown would take `\{` and `\\` for escapes).
    @Test func displayMathOverSeveralLines() {
        #expect(MarkdownRenderer.plain("The set\n$$\n\\{x \\mid x > 0\\}\n$$\nis open.", width: 80) == "The set\n\n{x ∣ x > 0}\n\nis open.\n")
        let matrix = MarkdownRenderer.plain("$$\\begin{pmatrix} a & b \\\\\nc & d \\end{pmatrix}$$", width: 80)
        #expect(matrix == "\\begin{pmatrix} a & b \\\\\nc & d \\end{pmatrix}\n", "\(matrix)")
        // Not closed before a blank line: text as before.
        #expect(MarkdownRenderer.plain("$$\nx\n\ny", width: 80) == "$$ x\n\ny\n")
    }

    @Test func embedsListsLocalFilesOnly() {
        let card = "![[diagram.png|200]] and ![a cat](img/cat%20one.png) and ![web](https://example.org/x.png) `![[no.png]]`"
        #expect(MarkdownRenderer.embeds(in: card) == ["diagram.png", "img/cat%20one.png"])
    }

    @Test func aClozesRevealedTextIsMarked() {
        let back = "The mitochondrion is the [cell's] powerhouse since 1890."
        let front = "The [...] is the [cell's] powerhouse since [year]."
        #expect(MarkdownRenderer.ansi(revealing: back, hiddenIn: front, color: false)
            == "The [mitochondrion] is the [cell's] powerhouse since [1890].\n")
        let colored = MarkdownRenderer.ansi(revealing: back, hiddenIn: front, color: true)
        #expect(colored.contains("\u{1B}[1;33mmitochondrion\u{1B}[0m"), "\(colored.debugDescription)")
        // Texts that do not line up are shown without marks; a note's own mark characters mark nothing.
        #expect(MarkdownRenderer.ansi(revealing: "Something else", hiddenIn: "The [...]", color: false) == "Something else\n")
        #expect(MarkdownRenderer.plain("a \u{E000}b\u{E001} c") == "a b c\n")
    }

    @Test func longLinesAreLeftAsTheyAre() {
        let long = String(repeating: "$a ", count: 5000)
        #expect(TerminalMarkup.prepare(long) == long)
    }
}
