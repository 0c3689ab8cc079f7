import Testing
@testable import QuireYAML

@Suite struct FrontMatterEditorTests {
    static let crlfFile = "---\r\ntitle: Old # keep\r\ntags:\r\n  - a\r\ncards:\r\n  c1: {due: 2024-01-05}\r\n---\r\nBody\r\n---\r\nmore\r\n"
    static let bomFile = "\u{FEFF}---\ntitle: T\n---\nBody\n"

    // MARK: - Round trips

    @Test(arguments: [
        uglyFile, crlfFile, bomFile, "---\n---\nbody\n", "no front matter\n---\nstill body\n", "",
        "\u{FEFF}---\r\n# c\r\n...\r\n", "---\nsame: [a,b]\nk: 'x' # c\n---",
    ])
    func roundTripWithoutEditsIsIdentical(_ text: String) throws {
        var editor = try FrontMatterEditor(text: text)
        #expect(editor.text == text)
        try editor.remove("absent-key")
        try editor.removeEntry("x", in: "absent-parent")
        try editor.removeFromList("absent-list", "x")
        #expect(editor.file == Array(text.utf8))
    }

    @Test func uglyFileParses() throws {
        let fm = try FrontMatter(file: Array(uglyFile.utf8))
        let root = try #require(fm.root)
        #expect(root.keys == ["title", "quoted key", "日本語キー", "aliases", "copy", "tags", "topics", "notes",
                              "folded", "tab", "empty", "cards"])
        #expect(root["title"]?.scalar?.value == "Hello: world")
        #expect(root["日本語キー"]?.scalar?.value == "naïve café")
        #expect(root["copy"]?.sequence?.alias == "base")
        #expect(root["notes"]?.scalar?.value == "Line one\nLine two\n")
        #expect(root["folded"]?.scalar?.value == "Folded text")
        #expect(root["tab"]?.scalar?.value == "a\tb\tc")
        #expect(root["empty"]?.scalar?.isNull == true)
        #expect(root["cards"]?.mapping?["c1"]?.mapping?["due"]?.scalar?.timestamp == YAMLTimestamp(year: 2024, month: 1, day: 5))
        #expect(fm.bodyStartLine == 28)
    }

    // MARK: - set

    @Test func setSingleLineValueKeepsTrailingComment() throws {
        let out = try edited(uglyFile) { e throws(YAMLError) in try e.set("title", to: .scalar("New title")) }
        #expect(out == replacingOnce(uglyFile, "title: \"Hello: world\"   #", "title: New title   #"))
        let quoted = try edited(uglyFile) { e throws(YAMLError) in try e.set("quoted key", to: .scalar("a # b")) }
        #expect(quoted == replacingOnce(uglyFile, "'quoted key': value\n", "'quoted key': \"a # b\"\n"))
        let unicode = try edited(uglyFile) { e throws(YAMLError) in try e.set("日本語キー", to: .scalar("新しい値")) }
        #expect(unicode == replacingOnce(uglyFile, "日本語キー: naïve café\n", "日本語キー: 新しい値\n"))
        let tab = try edited(uglyFile) { e throws(YAMLError) in try e.set("tab", to: .quoted("x\ty")) }
        #expect(tab == replacingOnce(uglyFile, "tab: \"a\\tb\tc\"\n", "tab: \"x\\ty\"\n"))
    }

    @Test func setEmptyValue() throws {
        let out = try edited(uglyFile) { e throws(YAMLError) in try e.set("empty", to: .scalar("now")) }
        #expect(out == replacingOnce(uglyFile, "empty:\n", "empty: now\n"))
        let commented = try edited("---\na: # later\nb: 1\n---\n") { e throws(YAMLError) in try e.set("a", to: .scalar("x")) }
        #expect(commented == "---\na: x # later\nb: 1\n---\n")
    }

    @Test func setAliasValueReplacesOnlyTheAlias() throws {
        let out = try edited(uglyFile) { e throws(YAMLError) in try e.set("copy", to: .scalar("mine")) }
        #expect(out == replacingOnce(uglyFile, "copy: *base\n", "copy: mine\n"))
    }

    @Test func setMultiLineValuesReplacesTheirWholeRange() throws {
        let list = try edited(uglyFile) { e throws(YAMLError) in try e.set("topics", to: .flowSequence([.scalar("p"), .scalar("q")])) }
        #expect(list == replacingOnce(uglyFile, "topics:\n  - x\n  - y # last topic\n", "topics: [p, q]\n"))
        let literal = try edited(uglyFile) { e throws(YAMLError) in try e.set("notes", to: .scalar("short")) }
        #expect(literal == replacingOnce(uglyFile, "notes: |\n  Line one\n  Line two\n\n", "notes: short\n\n"))
        let folded = try edited(uglyFile) { e throws(YAMLError) in try e.set("folded", to: .scalar("f")) }
        #expect(folded == replacingOnce(uglyFile, "folded: >-\n  Folded\n  text\n", "folded: f\n"))
        let mapping = try edited(uglyFile) { e throws(YAMLError) in try e.set("cards", to: .flowMapping([])) }
        #expect(mapping == replacingOnce(uglyFile, "cards:\n  c1: {due: 2024-01-05, stability: 3.2}   # c1\n  c2: {due: 2024-01-06, stability: 1.0}\n", "cards: {}\n"))
        let rawBlock = try edited(uglyFile) { e throws(YAMLError) in try e.set("notes", to: .raw("|\n  Fresh")) }
        #expect(rawBlock == replacingOnce(uglyFile, "notes: |\n  Line one\n  Line two\n", "notes: |\n  Fresh\n"))
    }

    @Test func setBlockValueUnderCommentedKeyLine() throws {
        let out = try edited("---\ntopics: # mine\n  - a\n  - b\nnext: 1\n---\n") { e throws(YAMLError) in
            try e.set("topics", to: .flowSequence([.scalar("z")]))
        }
        #expect(out == "---\ntopics: [z] # mine\nnext: 1\n---\n")
    }

    @Test func setAnchoredButUnusedValue() throws {
        let out = try edited("---\na: &x 1\nb: 2\n---\n") { e throws(YAMLError) in try e.set("a", to: .scalar("3")) }
        #expect(out == "---\na: 3\nb: 2\n---\n")
        let selfContained = try edited("---\na: [&x 1, *x]\nb: 2\n---\n") { e throws(YAMLError) in try e.set("a", to: .scalar("3")) }
        #expect(selfContained == "---\na: 3\nb: 2\n---\n")
    }

    @Test func setAbsentKeyAppendsBeforeClosingFence() throws {
        let out = try edited(uglyFile) { e throws(YAMLError) in try e.set("new key", to: .scalar("v: x")) }
        #expect(out == replacingOnce(uglyFile, "stability: 1.0}\n...\n", "stability: 1.0}\nnew key: \"v: x\"\n...\n"))
        let indented = try edited("---\n  a: 1\n  b: 2\n---\n") { e throws(YAMLError) in try e.set("c", to: .scalar("3")) }
        #expect(indented == "---\n  a: 1\n  b: 2\n  c: 3\n---\n")
    }

    @Test func setCreatesFrontMatter() throws {
        #expect(try edited("") { e throws(YAMLError) in try e.set("k", to: .scalar("v")) } == "---\nk: v\n---\n")
        #expect(try edited("# Title\n\nText\n") { e throws(YAMLError) in try e.set("k", to: .scalar("v")) }
            == "---\nk: v\n---\n# Title\n\nText\n")
        #expect(try edited("# Title\r\nText\r\n") { e throws(YAMLError) in try e.set("k", to: .scalar("v")) }
            == "---\r\nk: v\r\n---\r\n# Title\r\nText\r\n")
        #expect(try edited("\u{FEFF}Body\n") { e throws(YAMLError) in try e.set("k", to: .scalar("v")) }
            == "\u{FEFF}---\nk: v\n---\nBody\n")
        #expect(try edited("---\n---\nbody\n") { e throws(YAMLError) in try e.set("k", to: .scalar("v")) }
            == "---\nk: v\n---\nbody\n")
        #expect(try edited("---\n# only\n...\n") { e throws(YAMLError) in try e.set("k", to: .scalar("v")) }
            == "---\n# only\nk: v\n...\n")
    }

    @Test func crlfAndBOMFiles() throws {
        let crlf = Self.crlfFile
        #expect(try edited(crlf) { e throws(YAMLError) in try e.set("title", to: .scalar("New")) }
            == replacingOnce(crlf, "title: Old # keep", "title: New # keep"))
        #expect(try edited(crlf) { e throws(YAMLError) in try e.set("extra", to: .scalar("1")) }
            == replacingOnce(crlf, "2024-01-05}\r\n---\r\n", "2024-01-05}\r\nextra: 1\r\n---\r\n"))
        #expect(try edited(crlf) { e throws(YAMLError) in try e.setEntry("c2", in: "cards", to: .flowMapping([("due", .scalar("2024-02-02"))])) }
            == replacingOnce(crlf, "2024-01-05}\r\n", "2024-01-05}\r\n  c2: {due: 2024-02-02}\r\n"))
        #expect(try edited(crlf) { e throws(YAMLError) in try e.addToList("tags", "b") }
            == replacingOnce(crlf, "  - a\r\n", "  - a\r\n  - b\r\n"))
        #expect(try edited(crlf) { e throws(YAMLError) in try e.remove("tags") }
            == replacingOnce(crlf, "tags:\r\n  - a\r\n", ""))
        #expect(try edited(crlf) { e throws(YAMLError) in try e.set("tags", to: .flowSequence([])) }
            == replacingOnce(crlf, "tags:\r\n  - a\r\n", "tags: []\r\n"))
        #expect(try edited(crlf) { e throws(YAMLError) in try e.removeEntry("c1", in: "cards") }
            == replacingOnce(crlf, "cards:\r\n  c1: {due: 2024-01-05}\r\n", ""))
        let bom = Self.bomFile
        #expect(try edited(bom) { e throws(YAMLError) in try e.set("title", to: .scalar("U")) } == "\u{FEFF}---\ntitle: U\n---\nBody\n")
        #expect(try edited(bom) { e throws(YAMLError) in try e.set("more", to: .scalar("x")) } == "\u{FEFF}---\ntitle: T\nmore: x\n---\nBody\n")
    }

    // MARK: - remove

    @Test func removeWholeLines() throws {
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.remove("title") }
            == replacingOnce(uglyFile, "title: \"Hello: world\"   # trailing comment\n", ""))
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.remove("topics") }
            == replacingOnce(uglyFile, "topics:\n  - x\n  - y # last topic\n", ""))
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.remove("notes") }
            == replacingOnce(uglyFile, "notes: |\n  Line one\n  Line two\n", ""))
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.remove("copy") }
            == replacingOnce(uglyFile, "copy: *base\n", ""))
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.remove("empty") }
            == replacingOnce(uglyFile, "empty:\n", ""))
        #expect(try edited("---\nonly: 1\n---\nbody\n") { e throws(YAMLError) in try e.remove("only") } == "---\n---\nbody\n")
    }

    @Test func removeAnchoredValueInUseIsRefused() throws {
        let result = editError(uglyFile) { e throws(YAMLError) in try e.remove("aliases") }
        #expect(result.0 == .anchorInUse(anchor: "base", at: YAMLMark(offset: 124, line: 6, column: 10), aliasAt: YAMLMark(offset: 152, line: 9, column: 7)))
        #expect(result.unchanged)
        let grow = editError(uglyFile) { e throws(YAMLError) in try e.addToList("aliases", "three") }
        #expect(grow.0?.description == "6:10: cannot change a value carrying anchor '&base': alias at 9:7 uses it")
        #expect(grow.unchanged)
        let nested = editError("---\nbase: &b\n  k: 1\ncopy: *b\n---\n") { e throws(YAMLError) in try e.setEntry("j", in: "base", to: .scalar("2")) }
        #expect(nested.0?.description == "2:7: cannot change a value carrying anchor '&b': alias at 4:7 uses it")
        let shrink = editError("---\nbase: &b\n  k: 1\n  j: 2\ncopy: *b\n---\n") { e throws(YAMLError) in try e.removeEntry("j", in: "base") }
        #expect(shrink.0?.description == "2:7: cannot change a value carrying anchor '&b': alias at 5:7 uses it")
        #expect(try edited("---\nbase: &b [a]\n---\n") { e throws(YAMLError) in try e.addToList("base", "c") } == "---\nbase: &b [a, c]\n---\n")
    }

    // MARK: - Entries

    @Test func setEntryUpdatesExactlyOneLine() throws {
        let value = YAMLValue.flowMapping([("due", .scalar("2024-02-01")), ("stability", .scalar("4.5"))])
        let out = try edited(uglyFile) { e throws(YAMLError) in try e.setEntry("c1", in: "cards", to: value) }
        let diff = changedLines(uglyFile, out)
        #expect(diff.count == 1)
        #expect(diff.first?.0 == 25)
        #expect(diff.first?.2 == "  c1: {due: 2024-02-01, stability: 4.5}   # c1")
    }

    @Test func setEntryAppendsWithSiblingIndent() throws {
        let out = try edited(uglyFile) { e throws(YAMLError) in try e.setEntry("c3", in: "cards", to: .flowMapping([("due", .scalar("2024-02-01"))])) }
        #expect(out == replacingOnce(uglyFile, "stability: 1.0}\n", "stability: 1.0}\n  c3: {due: 2024-02-01}\n"))
        let four = try edited("---\ncards:\n    a: 1 # x\n# trailing comment\n---\n") { e throws(YAMLError) in try e.setEntry("b", in: "cards", to: .scalar("2")) }
        #expect(four == "---\ncards:\n    a: 1 # x\n    b: 2\n# trailing comment\n---\n")
    }

    @Test func setEntryCreatesParent() throws {
        let value = YAMLValue.flowMapping([("due", .scalar("2024-02-01"))])
        #expect(try edited("---\ntitle: x\n---\n") { e throws(YAMLError) in try e.setEntry("id1", in: "cards", to: value) }
            == "---\ntitle: x\ncards:\n  id1: {due: 2024-02-01}\n---\n")
        #expect(try edited("Body\n") { e throws(YAMLError) in try e.setEntry("id1", in: "cards", to: value) }
            == "---\ncards:\n  id1: {due: 2024-02-01}\n---\nBody\n")
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.setEntry("id1", in: "empty", to: value) }
            == replacingOnce(uglyFile, "empty:\n", "empty:\n  id1: {due: 2024-02-01}\n"))
        #expect(try edited("---\ncards: {}\nz: 1\n---\n") { e throws(YAMLError) in try e.setEntry("id1", in: "cards", to: value) }
            == "---\ncards:\n  id1: {due: 2024-02-01}\nz: 1\n---\n")
        #expect(try edited("---\ncards: ~ # scheduling\n---\n") { e throws(YAMLError) in try e.setEntry("id1", in: "cards", to: value) }
            == "---\ncards: # scheduling\n  id1: {due: 2024-02-01}\n---\n")
    }

    @Test func removeEntry() throws {
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.removeEntry("c1", in: "cards") }
            == replacingOnce(uglyFile, "  c1: {due: 2024-01-05, stability: 3.2}   # c1\n", ""))
        let once = try edited(uglyFile) { e throws(YAMLError) in try e.removeEntry("c2", in: "cards") }
        let twice = try edited(once) { e throws(YAMLError) in try e.removeEntry("c1", in: "cards") }
        #expect(twice == replacingOnce(uglyFile, "cards:\n  c1: {due: 2024-01-05, stability: 3.2}   # c1\n  c2: {due: 2024-01-06, stability: 1.0}\n", ""))
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.removeEntry("nope", in: "cards") } == uglyFile)
        #expect(try edited(uglyFile) { e throws(YAMLError) in try e.removeEntry("nope", in: "empty") } == uglyFile)
    }

    /// Entries kept apart by blank lines: each new one is followed by one, and goes with it.
    @Test func entriesWithABlankLineAfterEach() throws {
        let v = YAMLValue.flowMapping([("due", .scalar("2024-02-01"))])
        let start = "---\ntitle: x\n---\nBody\n"
        let one = try edited(start) { e throws(YAMLError) in try e.setEntry("a", in: "q", to: v, blankLineAfter: true) }
        #expect(one == "---\ntitle: x\nq:\n  a: {due: 2024-02-01}\n\n---\nBody\n")
        let two = try edited(one) { e throws(YAMLError) in try e.setEntry("b", in: "q", to: v, blankLineAfter: true) }
        #expect(two == "---\ntitle: x\nq:\n  a: {due: 2024-02-01}\n\n  b: {due: 2024-02-01}\n\n---\nBody\n")
        // An older block without blank lines gets one before and after the new entry.
        let old = "---\r\nq:\r\n  a: 1\r\n  b: 2\r\nz: 3\r\n---\r\n"
        #expect(try edited(old) { e throws(YAMLError) in try e.setEntry("c", in: "q", to: .scalar("4"), blankLineAfter: true) }
            == "---\r\nq:\r\n  a: 1\r\n  b: 2\r\n\r\n  c: 4\r\n\r\nz: 3\r\n---\r\n")
        // Removing gives back the bytes before, whichever entry goes first.
        let withoutA = try edited(two) { e throws(YAMLError) in try e.removeEntry("a", in: "q", blankLineAfter: true) }
        #expect(withoutA == "---\ntitle: x\nq:\n  b: {due: 2024-02-01}\n\n---\nBody\n")
        #expect(try edited(two) { e throws(YAMLError) in try e.removeEntry("b", in: "q", blankLineAfter: true) } == one)
        #expect(try edited(one) { e throws(YAMLError) in try e.removeEntry("a", in: "q", blankLineAfter: true) } == start)
        // A line after the entry that is not blank stays.
        #expect(try edited(old) { e throws(YAMLError) in try e.removeEntry("a", in: "q", blankLineAfter: true) }
            == "---\r\nq:\r\n  b: 2\r\nz: 3\r\n---\r\n")
    }

    @Test func largeParentIsEditedLinearly() throws {
        var text = "---\ntitle: Big\ncards:\n"
        for i in 0..<1_000 { text += "  card\(i): {due: 2024-01-05, stability: \(i).5, difficulty: 5.0}\n" }
        text += "---\nBody\n"
        var editor = try FrontMatterEditor(text: text)
        for i in stride(from: 0, to: 1_000, by: 50) {
            try editor.setEntry("card\(i)", in: "cards", to: .flowMapping([("due", .scalar("2025-01-01")), ("stability", .scalar("9"))]))
        }
        try editor.setEntry("new", in: "cards", to: .flowMapping([("due", .scalar("2025-01-02"))]))
        try editor.removeEntry("card999", in: "cards")
        let cards = try #require(editor.frontMatter.root?["cards"]?.mapping)
        #expect(cards.entries.count == 1_000)
        #expect(cards["card50"]?.mapping?["due"]?.scalar?.timestamp?.year == 2025)
        #expect(cards["card51"]?.mapping?["due"]?.scalar?.timestamp?.year == 2024)
        #expect(cards.keys.last == "new")
        let once = try edited(text) { e throws(YAMLError) in
            try e.setEntry("card500", in: "cards", to: .flowMapping([("due", .scalar("2025-01-01"))]))
        }
        let diff = changedLines(text, once)
        #expect(diff.count == 1)
        #expect(diff.first?.2 == "  card500: {due: 2025-01-01}")
    }
}

@Suite struct FrontMatterEditorSweepTests {
    /// Every edit kind on every key of the ugly files: each either verifies or throws with the file unchanged.
    @Test(arguments: [uglyFile, FrontMatterEditorTests.crlfFile])
    func everyEditOnEveryKey(_ text: String) throws {
        let keys = try #require(try FrontMatter(file: Array(text.utf8)).root?.keys)
        var failures: [String] = []
        for key in keys {
            let edits: [(String, (inout FrontMatterEditor) throws(YAMLError) -> Void)] = [
                ("set", { e throws(YAMLError) in try e.set(key, to: .scalar("v")) }),
                ("setFlow", { e throws(YAMLError) in try e.set(key, to: .flowMapping([("a", .scalar("1"))])) }),
                ("remove", { e throws(YAMLError) in try e.remove(key) }),
                ("add", { e throws(YAMLError) in try e.addToList(key, "new") }),
                ("removeItem", { e throws(YAMLError) in try e.removeFromList(key, "x") }),
                ("setEntry", { e throws(YAMLError) in try e.setEntry("id", in: key, to: .scalar("1")) }),
            ]
            for (name, edit) in edits {
                let (error, unchanged) = editError(text, edit)
                if let error {
                    #expect(unchanged)
                    if case .verificationFailed = error { failures.append("\(name) \(key): \(error)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
