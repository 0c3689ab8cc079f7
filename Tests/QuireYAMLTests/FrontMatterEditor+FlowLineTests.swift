import Testing
@testable import QuireYAML

/// The one-line fast path of `setEntry` must leave exactly the file and the tree a full re-parse
/// gives, and step aside for every other shape.
@Suite struct FrontMatterEditorFlowLineTests {
    static let files = [
        "---\nquire:\n  a1: {state: new}\n  b2: {fp: 00ff, due: 2026-11-25, reps: 3}\n---\nbody\n",
        "---\ntitle: Cells\nquire:\n  a1: {state: learning, step: 1}\n  b2: {fp: 00ff, due: 2026-11-25}\ntags: [a, b]\nlist:\n  - x\n  - y\n---\n\nQ: q\nA: a\n",
        "\u{FEFF}---\r\nquire:\r\n  a1: {k: v, z: 1}\r\n  b2: {k: w}   \r\ntitle: x\r\n---\r\nbody\r\n",
        "---\nquire:\n    a1: {k: v}\n    b2: {k: v, l: 2}\n# a comment\n\n   # indented comment\ncycle: weekly # trailing\n...\nbody\n",
        // Other entries of the block are outside the fast shape; the edited lines are inside it.
        "---\nquire:\n  a1: {k: v}   # keep me\n  b2: {k: v}\n  c3: {k: 'quoted'}\nafter: &anchor 1\nuse: *anchor\n---\n",
        "---\nquire:\n  a1: {k: v}\n  b2: {k: v}\n---", // no line break after the closing fence
    ]

    static let values: [YAMLValue] = [
        .flowMapping([("state", .scalar("review")), ("due", .scalar("2026-12-01T09:00:00Z")), ("stability", .scalar("12.4021"))]),
        .flowMapping([("s", .scalar("n"))]),
        .flowMapping([("fp", .scalar("3c9e0f51aa72d418")), ("state", .scalar("relearning")), ("step", .scalar("0")),
                      ("due", .scalar("2026-11-25T09:10:00Z")), ("reps", .scalar("14")), ("lapses", .scalar("2"))]),
    ]

    @Test(arguments: files.indices)
    func sameFileAndTreeAsAFullParse(_ index: Int) throws {
        let text = Self.files[index]
        for entry in ["a1", "b2"] {
            for value in Self.values {
                var editor = try FrontMatterEditor(text: text)
                // Twice in a row: the second edit works on the tree the first one updated.
                for v in [value, Self.values[0]] {
                    try editor.setEntry(entry, in: "quire", to: v)
                    let reparsed = try FrontMatter(file: editor.file)
                    #expect(dump(editor.frontMatter) == dump(reparsed), "file \(index), entry \(entry)")
                    #expect(v.isMatched(by: try #require(reparsed["quire"]?.mapping?[entry])))
                }
                // Only the edited line changed.
                let changed = changedLines(text, editor.text)
                #expect(changed.count == 1 && changed.first?.1.contains(entry + ": {") == true)
            }
        }
    }

    @Test func takenOnlyForTheOneLineShape() throws {
        func fast(_ text: String, _ entry: String) throws -> Bool {
            var editor = try FrontMatterEditor(text: text)
            let root = try #require(editor.frontMatter.root)
            let parentIndex = try #require(root.entries.lastIndex { $0.key.value == "quire" })
            let mapping = try #require(root.entries[parentIndex].value.mapping)
            let entryIndex = try #require(mapping.entries.lastIndex { $0.key.value == entry })
            return editor.replaceFlowLine(parentIndex: parentIndex, entryIndex: entryIndex, in: root,
                                          with: Self.values[0].yamlText(), value: Self.values[0])
        }
        let file = Self.files[4]
        #expect(try fast(file, "b2"))
        #expect(try !fast(file, "a1"))   // a comment after the value
        #expect(try !fast(file, "c3"))   // a quoted scalar
        #expect(try !fast("---\nquire:\n  a1: &x {k: v}\nb: *x\n---\n", "a1"))
        #expect(try !fast("---\nquire:\n  a1: {k: v,\n    l: w}\n---\n", "a1"))
        #expect(try !fast("---\nquire:\n  a1: !!map {k: v}\n---\n", "a1"))
        // Falling back still makes the edit.
        let after = try edited(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
            try editor.setEntry("a1", in: "quire", to: Self.values[1])
        }
        #expect(after.contains("  a1: {s: n}   # keep me\n"))
    }
}
