import Testing
@testable import QuireYAML

@Suite struct YAMLParserTests {
    @Test func libyamlIndexCountsCharactersNotBytes() {
        // Documents the libyaml 0.2.5 fact this module works around.
        let text = "k: 日本語 naïve\n"
        let raw = YAMLParser.rawScalarIndices(Array(text.utf8))
        #expect(raw == [0..<1, 3..<12])  // 9 characters, but 16 bytes
        #expect("日本語 naïve".utf8.count == 16)
    }

    @Test func marksAreExactFileBytes() throws {
        let file = Array("---\nk: 日本語 naïve\nj: 'é' # ü\n---\n".utf8)
        let node = try YAMLParser.parse(file[4..<37], baseMark: YAMLMark(offset: 4, line: 2, column: 1))
        let mapping = try #require(node?.mapping)
        let value = try #require(mapping["k"]?.scalar)
        #expect(value.start == YAMLMark(offset: 7, line: 2, column: 4))
        #expect(value.end == YAMLMark(offset: 23, line: 2, column: 20))
        #expect(String(decoding: file[value.start.offset..<value.end.offset], as: UTF8.self) == "日本語 naïve")
        let j = mapping.entries[1]
        #expect(j.key.start == YAMLMark(offset: 24, line: 3, column: 1))
        let quoted = try #require(j.value.scalar)
        #expect(quoted.start == YAMLMark(offset: 27, line: 3, column: 4))
        #expect(quoted.sourceText(in: file) == "'é'")
        #expect(quoted.value == "é")
        #expect(quoted.style == .singleQuoted)
    }

    @Test func baseMarkColumnAppliesToFirstLineOnly() throws {
        let node = try YAMLParser.parse("a: 1\nb: 2\n", baseMark: YAMLMark(offset: 100, line: 7, column: 5))
        let mapping = try #require(node?.mapping)
        #expect(mapping.entries[0].key.start == YAMLMark(offset: 100, line: 7, column: 5))
        #expect(mapping.entries[1].key.start == YAMLMark(offset: 105, line: 8, column: 1))
    }

    @Test func crlfMarks() throws {
        let node = try YAMLParser.parse("a: x\r\nb: ü\r\n")
        let mapping = try #require(node?.mapping)
        #expect(mapping.entries[1].key.start == YAMLMark(offset: 6, line: 2, column: 1))
        #expect(mapping["b"]?.scalar?.end == YAMLMark(offset: 11, line: 2, column: 6))
    }

    @Test func orderStylesAndCollections() throws {
        let yaml = """
        z: plain
        'a': 'single'
        "m": "double\\tescape"
        lit: |
          one
          two
        fold: >
          three
          four
        flow: [1, "two", {k: v}]
        block:
          - x
          - y
        map:
          inner: 1
        tagged: !!str 5
        """
        let root = try #require(try YAMLParser.parse(yaml)?.mapping)
        #expect(root.keys == ["z", "a", "m", "lit", "fold", "flow", "block", "map", "tagged"])
        #expect(root.entries[1].key.style == .singleQuoted)
        #expect(root["m"]?.scalar?.value == "double\tescape")
        #expect(root["m"]?.scalar?.style == .doubleQuoted)
        #expect(root["lit"]?.scalar?.value == "one\ntwo\n")
        #expect(root["lit"]?.scalar?.style == .literal)
        #expect(root["fold"]?.scalar?.value == "three four\n")
        #expect(root["fold"]?.scalar?.style == .folded)
        let flow = try #require(root["flow"]?.sequence)
        #expect(flow.isFlow)
        #expect(flow.items.count == 3)
        #expect(flow.items[2].mapping?.isFlow == true)
        #expect(root["block"]?.sequence?.isFlow == false)
        #expect(root["block"]?.sequence?.items.compactMap(\.scalar?.value) == ["x", "y"])
        #expect(root["map"]?.mapping?["inner"]?.scalar?.int == 1)
        #expect(root["tagged"]?.tag == "tag:yaml.org,2002:str")
        #expect(root["tagged"]?.scalar?.int == nil)
        #expect(root["missing"] == nil)
    }

    @Test func aliasesResolveAndRememberTheirName() throws {
        let yaml = "base: &b\n  k: v\nother: *b\nlist: &l [1]\nagain: *l\n"
        let root = try #require(try YAMLParser.parse(yaml)?.mapping)
        #expect(root["base"]?.anchor == "b")
        #expect(root["base"]?.alias == nil)
        let other = try #require(root["other"]?.mapping)
        #expect(other.isAlias)
        #expect(other.alias == "b")
        #expect(other.anchor == nil)
        #expect(other["k"]?.scalar?.value == "v")
        #expect(other.start == YAMLMark(offset: 23, line: 3, column: 8))
        #expect(other.end == YAMLMark(offset: 25, line: 3, column: 10))
        #expect(root["again"]?.sequence?.items.first?.scalar?.int == 1)
        #expect(root["again"]?.sequence?.isAlias == true)
    }

    @Test func emptyAndCommentOnlyInputHasNoRoot() throws {
        #expect(try YAMLParser.parse("") == nil)
        #expect(try YAMLParser.parse("# only a comment\n\n") == nil)
        #expect(try YAMLParser.parse([UInt8]()) == nil)
    }

    @Test func bomIsSkippedAndCounted() throws {
        let root = try #require(try YAMLParser.parse([0xEF, 0xBB, 0xBF] + Array("a: 1\n".utf8))?.mapping)
        #expect(root.entries[0].key.start == YAMLMark(offset: 3, line: 1, column: 4))
    }

    @Test func duplicateKeysAreKeptAndReported() throws {
        let root = try #require(try YAMLParser.parse("a: 1\nb: 2\na: 3\n")?.mapping)
        #expect(root.entries.count == 3)
        #expect(root["a"]?.scalar?.value == "3")
        let duplicate = try #require(root.firstDuplicateKey())
        #expect(duplicate.duplicate.start.line == 3)
        #expect(duplicate.first.start.line == 1)
    }

    @Test func sameContentIgnoresMarks() throws {
        let a = try #require(try YAMLParser.parse("x: [1, {a: b}]\n"))
        let b = try #require(try YAMLParser.parse("\n\nx:   [1,   {a: b}]\n"))
        let c = try #require(try YAMLParser.parse("x: [1, {a: c}]\n"))
        #expect(a.hasSameContent(as: b))
        #expect(!a.hasSameContent(as: c))
    }
}
