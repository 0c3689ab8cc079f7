import Testing
@testable import QuireYAML

/// Many entries set at once give the file that setting them one after another gives (one parse
/// and one check instead of one each: 10,000 cards of a note replayed in a third of a second
/// rather than minutes).
@Suite struct FrontMatterEditorBatchTests {
    static let files = FrontMatterEditorFlowLineTests.files + [
        "---\ntitle: No quire yet\n---\nbody\n",
        "---\nquire:\n---\nbody\n",
        "---\nquire: {}\n---\nbody\n",
        "Just a body, no front matter.\n",
        "---\nquire:\n  a1: {k: v}\n\n  b2: {k: w}\n\n---\n",
    ]

    static func value(_ n: Int) -> YAMLValue {
        .flowMapping([("state", .scalar("review")), ("due", .scalar("2026-12-\(10 + n % 18)T09:00:00Z")), ("reps", .scalar("\(n)"))])
    }

    /// Sets (only) through both ways.
    static func bothWays(_ text: String, _ changes: [(entry: String, value: YAMLValue?)],
                         blankLineAfter: Bool) throws -> (one: String, batch: String) {
        var one = try FrontMatterEditor(text: text), batch = try FrontMatterEditor(text: text)
        for change in changes {
            if let value = change.value {
                try one.setEntry(change.entry, in: "quire", to: value, blankLineAfter: blankLineAfter)
            } else {
                try one.removeEntry(change.entry, in: "quire", blankLineAfter: blankLineAfter)
            }
        }
        try batch.setEntries(changes, in: "quire", blankLineAfter: blankLineAfter)
        return (one.text, batch.text)
    }

    @Test(arguments: files.indices)
    func setsGiveTheFileOfOneAfterAnother(_ index: Int) throws {
        let text = Self.files[index]
        for blank in [false, true] {
            let changes: [(entry: String, value: YAMLValue?)] = [("b2", Self.value(1)), ("n1", Self.value(2)), ("a1", Self.value(3)),
                                                                  ("n2", Self.value(4)), ("n1", Self.value(5))]
            let (one, batch) = try Self.bothWays(text, changes, blankLineAfter: blank)
            #expect(one == batch, "file \(index), blank lines \(blank)")
        }
    }

    @Test func removalsAndSetsTogether() throws {
        let text = "---\ntitle: T   # kept\nquire:\n  a1: {k: 1}\n\n  b2: {k: 2}\n\n  c3: {k: 3}\n\ntags: [x]\n---\nQ: q\nA: a\n"
        var editor = try FrontMatterEditor(text: text)
        try editor.setEntries([("b2", nil), ("c3", Self.value(7)), ("d4", Self.value(8)), ("zz", nil)], in: "quire", blankLineAfter: true)
        let reparsed = try FrontMatter(file: editor.file)
        let quire = try #require(reparsed["quire"]?.mapping)
        #expect(quire.entries.map(\.key.value) == ["a1", "c3", "d4"])
        #expect(Self.value(7).isMatched(by: try #require(quire["c3"])))
        #expect(editor.text.hasPrefix("---\ntitle: T   # kept\nquire:\n  a1: {k: 1}\n\n  c3: {state: review"))
        #expect(editor.text.hasSuffix("tags: [x]\n---\nQ: q\nA: a\n"))
        // Every entry removed: the key goes, as one removal after another takes it out.
        let (one, batch) = try Self.bothWays(text, [("a1", nil), ("b2", nil), ("c3", nil)], blankLineAfter: true)
        #expect(one == batch && !batch.contains("quire"))
    }

    /// Anchors and aliases: each edit checks them, one after another.
    @Test func anchorsAreEditedOneAfterAnother() throws {
        let text = "---\nquire:\n  a1: &x {k: v}\n  b2: {k: w}\nother: *x\n---\n"
        var editor = try FrontMatterEditor(text: text)
        #expect(throws: YAMLError.self) { try editor.setEntries([("b2", Self.value(1)), ("a1", Self.value(2))], in: "quire") }
        #expect(editor.text == text, "nothing changed when one edit fails")
        let (one, batch) = try Self.bothWays(text, [("b2", Self.value(1)), ("c3", Self.value(2))], blankLineAfter: false)
        #expect(one == batch)
    }

    @Test func tenThousandEntriesAtOnce() throws {
        let existing = (0..<5_000).map { "  e\($0): {k: \($0)}\n\n" }.joined()
        var editor = try FrontMatterEditor(text: "---\nquire:\n" + existing + "---\nbody\n")
        let changes = (0..<10_000).map { (entry: "e\($0)", value: Optional(Self.value($0))) }
        try editor.setEntries(changes, in: "quire", blankLineAfter: true)
        let quire = try #require(try FrontMatter(file: editor.file)["quire"]?.mapping)
        #expect(quire.entries.count == 10_000)
        #expect(quire.entries.map(\.key.value) == (0..<10_000).map { "e\($0)" })
        #expect(Self.value(9_999).isMatched(by: try #require(quire["e9999"])))
    }
}
