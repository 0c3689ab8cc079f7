@testable import QuireParsing
import Testing
import QuireModel
@testable import QuireTestSupport

/// Notes, front matter and inline tags (FORMAT.md §2).
@Suite struct NoteParserTests {
    // MARK: - Title and deck

    /// Conflict markers a note quotes in a fenced code block are text; markers git wrote outside
    /// one, or across a fence, are a conflict; `quire resolve` counts them anywhere.
    @Test func conflictMarkersInsideAFenceAreText() {
        let quoted = "# Git\n\nWhat a conflict looks like:\n\n```text\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> main\n```\n\nQ: Which marker ends it?\nA: `>>>>>>>`\n"
        let (note, diagnostics) = NoteParser.parse(Array(quoted.utf8), path: "git.md")
        #expect(diagnostics.isEmpty)
        #expect(note?.cards.count == 1)
        #expect(NoteParser.mergeConflict(in: Array(quoted.utf8)) == nil)
        #expect(NoteParser.mergeConflict(in: Array(quoted.utf8), countingFenced: true) == 6...10)
        // A tilde fence, indented, long backtick fences, and one left open to the end.
        for (open, close) in [("~~~", "~~~"), ("   ````", "`````"), ("```md", "")] {
            let text = "---\ntitle: x\n---\n" + open + "\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n" + close + "\n"
            #expect(NoteParser.mergeConflict(in: Array(text.utf8)) == nil, "\(open)")
        }
        // Outside a fence, after a quoted one, or across a fence's end: a conflict.
        let real = quoted + "\n<<<<<<< HEAD\nQ: one\n=======\nQ: two\n>>>>>>> origin/main\n"
        #expect(NoteParser.mergeConflict(in: Array(real.utf8)) == 16...20)
        #expect(NoteParser.parse(Array(real.utf8), path: "git.md").note == nil)
        let across = "```\n<<<<<<< HEAD\ncode\n```\n=======\nother\n>>>>>>> b\n"
        #expect(NoteParser.mergeConflict(in: Array(across.utf8)) == 2...7)
        // Markers in front matter are git's: a fence line inside YAML opens nothing.
        let yaml = "---\nnote: |\n  ```\n<<<<<<< HEAD\na: 1\n=======\na: 2\n>>>>>>> b\n---\nbody\n"
        #expect(NoteParser.mergeConflict(in: Array(yaml.utf8)) == 4...8)
    }

    @Test func titleFromFrontMatterWins() {
        #expect(parse("---\ntitle: Cell biology\n---\n# Heading\n", path: "a/b.md").note?.title == "Cell biology")
    }

    @Test func titleFromFirstLevelOneHeading() {
        #expect(parse("Intro\n\n## Sub\n\n# The Title *here*\n\n# Second\n", path: "x.md").note?.title
            == "The Title here")
        #expect(parse("Setext Title\n============\n", path: "x.md").note?.title == "Setext Title")
    }

    @Test func strikethroughInHeadingsIsReadLikeGitHub() throws {
        // The indexing parse leaves strikethrough out; a heading holding `~` is read with it.
        #expect(parse("# Plan ~~old~~ new\n", path: "x.md").note?.title == "Plan old new")
        #expect(parse("Setext ~one~\n===\n", path: "x.md").note?.title == "Setext one")
        #expect(parse("> # Quoted ~~x~~ title\n", path: "x.md").note?.title == "Quoted x title")
        // A tilde that is not strikethrough stays; `~~~` fences are not headings.
        #expect(parse("# About ~ 5 km\n\n~~~\ncode\n~~~\n", path: "x.md").note?.title == "About ~ 5 km")
        let note = try #require(parse("# Top\n\n## ~~Draft~~ Final\n\nq :: a\n\nText with ~~gone~~ :: kept\n", path: "x.md").note)
        #expect(note.cards.map(\.headingPath) == [["Top", "Draft Final"], ["Top", "Draft Final"]])
        #expect(note.cards.map(\.front) == ["q", "Text with ~~gone~~"])
    }

    /// An empty `title:` (or `deck:`), as a template leaves it, is no value: the heading or the
    /// file name titles the note, without a warning.
    @Test func anEmptyTitleIsNoTitle() {
        let (note, diagnostics) = parse("---\ntitle:\nauthor: \ndeck: ~\n---\n# From the heading\n", path: "Books/x.md")
        #expect(note?.title == "From the heading" && note?.deck.description == "Books")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(parse("---\ntitle: ''\n---\n", path: "y.md").note?.title == "")
    }

    /// A template's placeholder (`date: {{date:YYYY-MM-DD}}`, Obsidian's and Templater's) is a
    /// YAML mapping as a key: the error says to quote it.
    @Test func aTemplatesPlaceholderErrorSaysToQuoteIt() {
        let (note, diagnostics) = parse("---\ndate: {{date:YYYY-MM-DD}}\n---\nbody\n", path: "Templates/daily.md")
        #expect(note == nil)
        #expect(printed(diagnostics) == ["Templates/daily.md:2:8: error: only scalar mapping keys are supported ('{{' opens a YAML "
            + "mapping: quote a template's placeholder, as in '{{date}}', or leave its folder out: ignore: in .quire/config.yaml); file skipped"])
        #expect(printed(parse("---\nk: {[a]: 1}\n---\n", path: "n.md").diagnostics).first?.contains("placeholder") == false)
        #expect(parse("---\ndate: '{{date:YYYY-MM-DD}}'\n---\n", path: "n.md").diagnostics.isEmpty)
    }

    @Test func titleFromFileName() {
        #expect(parse("## Only a sub-heading\n", path: "Biology/Cells/mitosis.md").note?.title == "mitosis")
        #expect(parse("", path: "Upper.MD").note?.title == "Upper")
        #expect(parse("#not-a-heading\n", path: "t.md").note?.title == "t")
    }

    @Test func deckFromFolderOrOverride() {
        #expect(parse("", path: "Biology/Cells/mitosis.md").note?.deck.description == "Biology/Cells")
        #expect(parse("", path: "root.md").note?.deck == .defaultDeck)
        #expect(parse("---\ndeck: Chemistry/Acids\n---\n", path: "Biology/x.md").note?.deck.description
            == "Chemistry/Acids")
        #expect(parse("---\ndeck: \" / \"\n---\n", path: "Biology/x.md").note?.deck.description == "Biology")
    }

    @Test func emptyDeckIsAWarning() {
        let (note, diagnostics) = parse("---\ndeck: \"\"\n---\n", path: "Bio/x.md")
        #expect(note?.deck.description == "Bio")
        #expect(printed(diagnostics) == ["Bio/x.md:2:7: warning: 'deck' is empty; ignored"])
    }

    // MARK: - Tags

    @Test func tagsAsBlockList() {
        let note = parse("---\ntags:\n  - exam\n  - '#Bio/cells'\n---\n").note
        #expect(note?.tags.map(\.name) == ["exam", "Bio/cells"])
    }

    @Test func tagsAsFlowList() {
        #expect(parse("---\ntags: [exam, \"#quiz\"]\n---\n").note?.tags.map(\.name) == ["exam", "quiz"])
    }

    @Test func tagsAsCommaString() {
        #expect(parse("---\ntags: \"exam, #quiz ,bio/cells,\"\n---\n").note?.tags.map(\.name) == ["exam", "quiz", "bio/cells"])
        #expect(parse("---\ntags: \"one\"\n---\n").note?.tags.map(\.name) == ["one"])
        #expect(parse("---\ntags:\n---\n").note?.tags.isEmpty == true)
    }

    @Test func frontMatterTagsThenInlineTagsWithoutDuplicates() {
        let text = "---\ntags: [Exam]\n---\nSome #exam text #biology and #cells/mito.\n"
        #expect(parse(text).note?.tags.map(\.name) == ["Exam", "biology", "cells/mito"])
    }

    @Test func inlineTagRules() {
        let text = """
            #first at the start, then C# and x#y, http://example.com/#frag and [a](#anchor).
            Numbers: #123 #2024 but #2024-review counts; punctuation #end. and #trail- too.
            Code: `#incode` and <span title="#attr">#inhtml</span>.

            ```
            #infence
            ```

                #indented

            # Heading is not a tag
            ## #tagged-heading

            - item #in-list
            > quote #in-quote
            """
        let tags = parse(text).note?.tags.map(\.name)
        #expect(tags == ["first", "2024-review", "end", "trail", "in-list", "in-quote"])
    }

    @Test func invalidTagInFrontMatterIsAWarning() {
        let (note, diagnostics) = parse("---\ntags:\n  - good\n  - two words\n  - [nested]\n---\n")
        #expect(note?.tags.map(\.name) == ["good"])
        #expect(printed(diagnostics) == [
            "notes.md:4:5: warning: 'two words' is not a valid tag; ignored",
            "notes.md:5:5: warning: a tag must be a single word; ignored",
        ])
    }

    @Test func tagsMappingIsAWarning() {
        let (note, diagnostics) = parse("---\ntags: {a: 1}\n---\n")
        #expect(note?.tags.isEmpty == true)
        #expect(printed(diagnostics) == ["notes.md:2:7: warning: 'tags' should be a list or a comma-separated string; ignored"])
    }

    // MARK: - Curation keys

    @Test func curationKeys() throws {
        let text = """
            ---
            created: 2026-01-02
            cycle: Weekly
            archived: true
            category: concept
            source: "https://example.com/a b"
            source_type: book
            reviewed: 2026-11-01T10:00:00+01:00
            custom: kept
            ---
            """
        let (note, diagnostics) = parse(text)
        let n = try #require(note)
        #expect(diagnostics.isEmpty)
        #expect(n.created == Timestamp(year: 2026, month: 1, day: 2))
        #expect(n.cycle == .weekly)
        #expect(n.archived)
        #expect(n.category == "concept")
        #expect(n.source == "https://example.com/a b")
        #expect(n.sourceType == "book")
        #expect(n.reviewed == Timestamp(year: 2026, month: 11, day: 1, hour: 9))
        #expect(n.byteCount == text.utf8.count)
    }

    @Test func wrongTypedKeysAreWarningsWithLocation() throws {
        let text = """
            ---
            title: [a, b]
            cycle: fortnightly
            archived: maybe
            created: yesterday
            category:
              nested: map
            reviewed: 2026-13-01
            ---
            # Heading Title
            """
        let (note, diagnostics) = parse(text, path: "dir/n.md")
        let n = try #require(note)
        #expect(n.title == "Heading Title")
        #expect(n.cycle == nil)
        #expect(!n.archived)
        #expect(n.created == nil)
        #expect(n.category == nil)
        #expect(n.reviewed == nil)
        #expect(printed(diagnostics).sorted() == [
            "dir/n.md:2:8: warning: 'title' should be a single value; ignored",
            "dir/n.md:3:8: warning: 'cycle' must be daily, weekly, monthly or yearly; ignored",
            "dir/n.md:4:11: warning: 'archived' must be true or false; ignored",
            "dir/n.md:5:10: warning: 'created' should be a date like 2026-11-22; ignored",
            "dir/n.md:7:3: warning: 'category' should be a single value; ignored",
            "dir/n.md:8:11: warning: 'reviewed' should be a date like 2026-11-22; ignored",
        ].sorted())
    }

    @Test func otherKeysAreIgnoredSilently() {
        let (note, diagnostics) = parse("---\naliases: [x]\nunknown: {a: 1}\n---\nbody\n")
        #expect(note != nil)
        #expect(diagnostics.isEmpty)
    }

    // MARK: - Files that are not notes

    @Test func binaryFileIsSkipped() {
        var bytes = Array("# Title\nsome text".utf8)
        bytes.insert(0, at: 5)
        let (note, diagnostics) = NoteParser.parse(bytes, path: "img.md")
        #expect(note == nil)
        #expect(printed(diagnostics) == ["img.md: error: binary file (contains NUL bytes); skipped"])
    }

    @Test func nulAfterTheProbeIsNotBinary() {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: NoteParser.binaryProbeLength)
        bytes.append(0)
        let (_, diagnostics) = NoteParser.parse(bytes, path: "x.md")
        #expect(!printed(diagnostics).contains("x.md: error: binary file (contains NUL bytes); skipped"))
    }

    @Test(arguments: [
        ([0xFF], 1, 3),               // never valid
        ([0xC0, 0x80], 1, 3),         // overlong NUL
        ([0xE0, 0x80, 0x80], 1, 3),   // overlong
        ([0xED, 0xA0, 0x80], 1, 3),   // surrogate
        ([0xF4, 0x90, 0x80, 0x80], 1, 3),  // above U+10FFFF
        ([0xC3], 1, 3),               // truncated at end of file
        ([0x80], 1, 3),               // lone continuation byte
    ] as [([UInt8], Int, Int)])
    func invalidUTF8ReportsFirstBadByte(bad: [UInt8], line: Int, column: Int) {
        // "é" is valid two-byte UTF-8 before the bad byte; the second line holds it.
        let bytes = Array("ok é\nab".utf8) + bad + Array("cd\n".utf8)
        let (note, diagnostics) = NoteParser.parse(bytes, path: "bad.md")
        #expect(note == nil)
        #expect(printed(diagnostics) == ["bad.md:2:3: error: invalid UTF-8; file skipped"])
    }

    @Test func invalidUTF8AfterLongASCIIRun() {
        let bytes = Array(String(repeating: "abcdefgh", count: 5).utf8) + [0xFE]
        #expect(printed(NoteParser.parse(bytes, path: "a.md").diagnostics) == ["a.md:1:41: error: invalid UTF-8; file skipped"])
    }

    @Test func invalidUTF8InsideALongASCIIRun() {
        // The bad byte falls in the middle of the second 32-byte block.
        let bytes = Array(String(repeating: "a", count: 45).utf8) + [0xC3, 0x28] + Array(String(repeating: "b", count: 40).utf8)
        #expect(printed(NoteParser.parse(bytes, path: "a.md").diagnostics) == ["a.md:1:46: error: invalid UTF-8; file skipped"])
    }

    @Test func invalidUTF8ColumnInBOMFile() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("ab".utf8) + [0xFF]
        #expect(printed(NoteParser.parse(bytes, path: "a.md").diagnostics) == ["a.md:1:3: error: invalid UTF-8; file skipped"])
    }

    @Test func brokenFrontMatterIsAnErrorWithLocation() throws {
        let (note, diagnostics) = parse("---\ntitle: ok\nbad: [unclosed\n---\nx :: y\n")
        #expect(note == nil)
        let d = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(d.severity == .error)
        #expect(d.path == "notes.md")
        #expect(d.line.map { (3...4).contains($0) } == true)
        #expect(d.message.hasSuffix("; file skipped"))
    }

    @Test func duplicateKeysAreAnError() {
        let (note, diagnostics) = parse("---\ntitle: a\ntitle: b\n---\nx :: y\n")
        #expect(note == nil)
        #expect(printed(diagnostics) == ["notes.md:3:1: error: duplicate key 'title' (first defined at 2:1); file skipped"])
    }

    @Test func duplicateNestedKeysAreAnError() {
        let (note, diagnostics) = parse("---\nquire:\n  abc: {state: new, state: review}\n---\n")
        #expect(note == nil)
        #expect(printed(diagnostics) == ["notes.md:3:21: error: duplicate key 'state' (first defined at 3:9); file skipped"])
    }

    @Test func duplicateKeysInAListItemAreAnError() {
        let (note, diagnostics) = parse("---\ntags: [a, b]\nsources:\n  - {url: x, url: y}\n---\n")
        #expect(note == nil)
        #expect(printed(diagnostics) == ["notes.md:4:14: error: duplicate key 'url' (first defined at 4:6); file skipped"])
    }

    @Test func frontMatterMustBeAMapping() throws {
        let (note, diagnostics) = parse("---\n- a\n- b\n---\n")
        #expect(note == nil)
        #expect(try #require(diagnostics.first).line == 2)
    }

    @Test func noFrontMatterWhenFenceIsNotFirstLine() {
        let (note, diagnostics) = parse("\n---\ntitle: x\n---\n", path: "p.md")
        #expect(note?.title == "p")
        #expect(diagnostics.isEmpty)
    }

    @Test func dotsCloseFrontMatter() {
        let (note, _) = parse("---\ntitle: Dots\n...\nx :: y\n")
        #expect(note?.title == "Dots")
        #expect(note?.cards.map(\.lines) == [4...4])
    }

    // MARK: - Stored state

    @Test func storedLineFieldsAreRead() throws {
        let body = "x :: y\n"
        let card = try #require(cards(body).first)
        let line = "  \(card.id): {fp: \(card.fingerprint), state: learning, step: 1, due: 2026-11-22T10:10, "
            + "last: 2026-11-22T10:00:00Z, stability: 2.3065, difficulty: 6.4133, ease: 2.5, interval: 3, reps: 1, "
            + "lapses: 2, flow: mastered, streak: 4, attempts: 9, suspended: true, buried: 2026-11-30, extra: \"a b\"}"
        let (note, diagnostics) = parse(noteWithState([line], body: body))
        #expect(diagnostics.isEmpty)
        let s = try #require(note?.cards.first?.schedule)
        #expect(s.fingerprint == card.fingerprint)
        #expect(s.state == .learning)
        #expect(s.step == 1)
        #expect(s.due == Timestamp(year: 2026, month: 11, day: 22, hour: 10, minute: 10))
        #expect(s.lastReview == Timestamp(year: 2026, month: 11, day: 22, hour: 10))
        #expect(s.stability == 2.3065)
        #expect(s.difficulty == 6.4133)
        #expect(s.ease == 2.5)
        #expect(s.interval == 3)
        #expect(s.reps == 1)
        #expect(s.lapses == 2)
        #expect(s.flow == .mastered)
        #expect(s.streak == 4)
        #expect(s.attempts == 9)
        #expect(s.suspended)
        #expect(s.buriedUntil == Timestamp(year: 2026, month: 11, day: 30))
        #expect(s.unknownFields.map(\.key) == ["extra"])
        #expect(s.unknownFields.map(\.value) == ["\"a b\""])
    }

    @Test func badStoredFieldsAreWarningsAndTheRestIsKept() throws {
        let body = "x :: y\n"
        let card = try #require(cards(body).first)
        let (note, diagnostics) = parse(noteWithState([
            "  \(card.id): {state: sometimes, reps: -1, due: soon, lapses: 2}",
            "  not.an.id: {state: review}",
        ], body: body))
        let s = try #require(note?.cards.first?.schedule)
        #expect(s.state == .new)
        #expect(s.reps == 0)
        #expect(s.lapses == 2)
        #expect(printed(diagnostics) == [
            "notes.md:3:25: warning: field 'state' must be new, learning, review or relearning, not 'sometimes'",
            "notes.md:3:42: warning: field 'reps' must be a whole number, not '-1'",
            "notes.md:3:51: warning: field 'due' must be a timestamp, not 'soon'",
            "notes.md:4:3: warning: 'not.an.id' is not a valid card ID; line ignored",
        ])
    }

    @Test func quireMustBeAMapping() {
        let (_, diagnostics) = parse("---\nquire: 3\n---\n")
        #expect(printed(diagnostics) == ["notes.md:2:8: warning: 'quire' must be a mapping of card IDs to scheduling lines; ignored"])
    }
}

/// Every key of `NoteKey.all` is read from the front matter by its kind, with a located warning for
/// a value of another kind: a key added to the table needs no code here.
@Suite struct NoteKeyParsingTests {
    static func sample(_ key: NoteKey) -> (text: String, value: NoteKey.Value, bad: String?) {
        switch key.kind {
        case .choice(let words): (words[words.count - 1].uppercased(), .choice(words[words.count - 1]), "never-a-word")
        case .text: ("some words", .text("some words"), nil)
        case .date: ("2026-11-22", .date(Timestamp(iso8601: "2026-11-22")!), "yesterday")
        case .flag: ("True", .flag(true), "maybe")
        }
    }

    @Test(arguments: NoteKey.all.map(\.name))
    func keyIsRead(_ name: String) throws {
        let key = try #require(NoteKey.named(name))
        let sample = Self.sample(key)
        let parsed = parse("---\n\(name): \(sample.text)\n---\nBody.\n")
        #expect(key.value(in: try #require(parsed.note)) == sample.value)
        #expect(parsed.diagnostics.isEmpty)
        if let bad = sample.bad {
            let wrong = parse("---\n\(name): \(bad)\n---\nBody.\n")
            #expect(printed(wrong.diagnostics).count == 1)
            #expect(printed(wrong.diagnostics).first?.hasPrefix("notes.md:2:\(name.count + 3): warning: '\(name)'") == true)
            #expect(printed(wrong.diagnostics).first?.contains(key.expectation) == true)
        }
        let nested = parse("---\n\(name):\n  a: 1\n---\nBody.\n")
        #expect(printed(nested.diagnostics) == ["notes.md:3:3: warning: '\(name)' should be a single value; ignored"])
        let empty = parse("---\n\(name):\n---\nBody.\n")
        #expect(empty.diagnostics.isEmpty)
    }
}
