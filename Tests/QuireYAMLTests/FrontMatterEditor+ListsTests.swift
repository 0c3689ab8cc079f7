import Testing
@testable import QuireYAML

@Suite struct FrontMatterEditorListsTests {
    private func add(_ text: String, key: String = "tags", _ item: String) throws(YAMLError) -> String {
        try edited(text) { e throws(YAMLError) in try e.addToList(key, item) }
    }

    private func remove(_ text: String, key: String = "tags", _ item: String) throws(YAMLError) -> String {
        try edited(text) { e throws(YAMLError) in try e.removeFromList(key, item) }
    }

    // MARK: - addToList

    @Test func addToBlockList() throws {
        #expect(try add(uglyFile, key: "topics", "z") == replacingOnce(uglyFile, "  - y # last topic\n", "  - y # last topic\n  - z\n"))
        #expect(try add("---\ntags:\n- a\n- b\nnext: 1\n---\n", "c") == "---\ntags:\n- a\n- b\n- c\nnext: 1\n---\n")
        #expect(try add("---\ntags:\n    -   a\n---\n", "needs: quotes") == "---\ntags:\n    -   a\n    -   \"needs: quotes\"\n---\n")
    }

    @Test func addToFlowList() throws {
        #expect(try add(uglyFile, "c") == replacingOnce(uglyFile, "tags: [a, b]   # flow", "tags: [a, b, c]   # flow"))
        #expect(try add("---\ntags: [a,b]\n---\n", "c") == "---\ntags: [a,b,c]\n---\n")
        #expect(try add("---\ntags: []\n---\n", "x") == "---\ntags: [x]\n---\n")
        #expect(try add("---\ntags: [a]\n---\n", "x,y") == "---\ntags: [a, \"x,y\"]\n---\n")
        #expect(try add("---\ntags: [\n  a,\n  b,\n]\n---\n", "c") == "---\ntags: [\n  a,\n  b,\n  c,\n]\n---\n")
    }

    @Test func addToCommaString() throws {
        #expect(try add("---\ntags: \"a, b\"\n---\n", "c") == "---\ntags: \"a, b, c\"\n---\n")
        #expect(try add("---\ntags: a, b # mine\n---\n", "c") == "---\ntags: a, b, c # mine\n---\n")
        #expect(try add("---\ntags: 'a,b'\n---\n", "it's") == "---\ntags: 'a,b,it''s'\n---\n")
        #expect(try add("---\ntags: solo\n---\n", "two") == "---\ntags: solo, two\n---\n")
        #expect(try add("---\ntags: \"\"\n---\n", "x") == "---\ntags: \"x\"\n---\n")
    }

    @Test func addToAbsentOrNull() throws {
        #expect(try add("---\ntitle: t\n---\n", "x") == "---\ntitle: t\ntags: [x]\n---\n")
        #expect(try add("Body\n", "x") == "---\ntags: [x]\n---\nBody\n")
        #expect(try add("---\ntags:\nz: 1\n---\n", "x") == "---\ntags: [x]\nz: 1\n---\n")
        #expect(try add("---\ntags: ~ # none yet\n---\n", "x") == "---\ntags: [x] # none yet\n---\n")
    }

    @Test func addNeverDuplicates() throws {
        for text in [uglyFile, "---\ntags: a, b\n---\n", "---\ntags:\n  - b\n---\n"] {
            #expect(try add(text, "b") == text)
        }
        #expect(try add(uglyFile, key: "topics", "x") == uglyFile)
    }

    // MARK: - removeFromList

    @Test func removeFromBlockList() throws {
        #expect(try remove(uglyFile, key: "topics", "y") == replacingOnce(uglyFile, "  - y # last topic\n", ""))
        #expect(try remove(uglyFile, key: "topics", "x") == replacingOnce(uglyFile, "  - x\n", ""))
        #expect(try remove("---\ntags:\n  - a\nn: 1\n---\n", "a") == "---\ntags: []\nn: 1\n---\n")
        #expect(try remove("---\ntags:\n  - a\n  - b\n  - a\n---\n", "a") == "---\ntags:\n  - b\n---\n")
    }

    @Test func removeFromFlowList() throws {
        #expect(try remove(uglyFile, "a") == replacingOnce(uglyFile, "tags: [a, b]   # flow", "tags: [b]   # flow"))
        #expect(try remove(uglyFile, "b") == replacingOnce(uglyFile, "tags: [a, b]   # flow", "tags: [a]   # flow"))
        #expect(try remove("---\ntags: [a, b, c]\n---\n", "b") == "---\ntags: [a, c]\n---\n")
        #expect(try remove("---\ntags: [ x ]\n---\n", "x") == "---\ntags: []\n---\n")
        #expect(try remove("---\ntags: [\n  a,\n  b,\n]\n---\n", "b") == "---\ntags: [\n  a,\n]\n---\n")
    }

    @Test func removeFromCommaString() throws {
        #expect(try remove("---\ntags: a, b, c\n---\n", "b") == "---\ntags: a, c\n---\n")
        #expect(try remove("---\ntags: \"a,b\"\n---\n", "a") == "---\ntags: \"b\"\n---\n")
        #expect(try remove("---\ntags: 'only'\n---\n", "only") == "---\ntags: ''\n---\n")
        #expect(try remove("---\ntags: only\n---\n", "only") == "---\ntags: \"\"\n---\n")
    }

    @Test func removeAbsentIsNoOp() throws {
        for text in [uglyFile, "---\ntags:\n---\n", "---\ntags: a\n---\n", "no front matter\n"] {
            #expect(try remove(text, "zzz") == text)
        }
    }

    @Test func anchoredItemInUseIsRefused() {
        let text = "---\ntags:\n  - &t a\n  - b\nfav: *t\n---\n"
        let result = editError(text) { e throws(YAMLError) in try e.removeFromList("tags", "a") }
        #expect(result.0?.description == "3:5: cannot change a value carrying anchor '&t': alias at 5:6 uses it")
        #expect(result.unchanged)
    }
}
