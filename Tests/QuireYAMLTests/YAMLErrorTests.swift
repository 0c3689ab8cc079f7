import Testing
@testable import QuireYAML

@Suite struct YAMLErrorTests {
    private func parseError(_ yaml: String, base: YAMLMark = .start) -> String? {
        do {
            _ = try YAMLParser.parse(yaml, baseMark: base)
            return nil
        } catch {
            return error.description
        }
    }

    private func parseError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try YAMLParser.parse(bytes)
            return nil
        } catch {
            return error.description
        }
    }

    private func frontMatterError(_ text: String) -> YAMLError? {
        do {
            _ = try FrontMatter(file: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func libyamlProblems() {
        #expect(parseError("a: b: c\n") == "1:5: mapping values are not allowed in this context")
        #expect(parseError("title: x\nbad: b: c\n", base: YAMLMark(offset: 4, line: 2, column: 1))
            == "3:7: mapping values are not allowed in this context")
        #expect(parseError("a:\n  b: 1\n c: 2\n")
            == "3:2: did not find expected key (while parsing a block mapping at 1:1)")
        #expect(parseError("a: \"abc\n")
            == "2:1: found unexpected end of stream (while scanning a quoted scalar at 1:4)")
        #expect(parseError("a: [1, 2\n")
            == "2:1: did not find expected ',' or ']' (while parsing a flow sequence at 1:4)")
    }

    @Test func syntaxMarksAreBytesAfterMultibyteText() {
        // 'é' is 2 bytes: libyaml reports character column 5 for the ':' after it; the byte column is 6.
        #expect(parseError("k: é: b: c\n") == "1:6: mapping values are not allowed in this context")
        #expect(parseError("日本: x: y\n") == "1:10: mapping values are not allowed in this context")
    }

    @Test func invalidUTF8() {
        #expect(parseError(Array("a: ".utf8) + [0xFF, 0x0A]) == "1:4: invalid leading UTF-8 octet (#xFF)")
    }

    @Test func undefinedAlias() {
        #expect(parseError("a: 1\nb: *nope\n") == "2:4: undefined alias '*nope'")
    }

    @Test func nonScalarKey() {
        #expect(parseError("? [a, b]\n: c\n") == "1:3: only scalar mapping keys are supported")
    }

    @Test func nestingTooDeep() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(parseError(deep) == "1:257: collections are nested more than 256 levels deep")
    }

    @Test func multipleDocuments() {
        #expect(parseError("a: 1\n---\nb: 2\n") == "2:1: front matter must be a single YAML document")
    }

    @Test func unclosedFrontMatter() {
        let error = frontMatterError("---\ntitle: x\n\nbody\n")
        #expect(error == .unclosedFrontMatter(at: YAMLMark(offset: 0, line: 1, column: 1)))
        #expect(error?.description == "1:1: front matter opened here is never closed (expected a '---' or '...' line)")
        #expect(frontMatterError("---")?.description.hasPrefix("1:1: front matter opened here") == true)
        #expect(frontMatterError("\u{FEFF}---\na: 1\n")?.mark == YAMLMark(offset: 3, line: 1, column: 4))
    }

    @Test func rootNotMapping() {
        #expect(frontMatterError("---\n- a\n- b\n---\n")?.description == "2:1: front matter must be a mapping, found a sequence")
        #expect(frontMatterError("---\njust text\n---\n")?.description == "2:1: front matter must be a mapping, found a scalar")
    }

    @Test func frontMatterSyntaxErrorIsFileRelative() {
        #expect(frontMatterError("---\ntitle: x\nbad: b: c\n---\nbody\n")?.description
            == "3:7: mapping values are not allowed in this context")
    }

    @Test func editorRefusals() {
        let duplicate = editError("---\ntitle: a\ntags: [x]\ntitle: b\n---\n") { e throws(YAMLError) in try e.set("tags", to: .scalar("y")) }
        #expect(duplicate.0?.description == "4:1: duplicate key 'title' (first defined at 2:1)")
        #expect(duplicate.0 == .duplicateKey(
            key: "title", at: YAMLMark(offset: 23, line: 4, column: 1), firstAt: YAMLMark(offset: 4, line: 2, column: 1)))
        #expect(duplicate.unchanged)

        let nested = editError("---\ncards:\n  a: 1\n  a: 2\n---\n") { e throws(YAMLError) in try e.setEntry("b", in: "cards", to: .scalar("3")) }
        #expect(nested.0?.description == "4:3: duplicate key 'a' (first defined at 3:3)")

        let anchor = editError("---\nbase: &b [1, 2]\ncopy: *b\n---\n") { e throws(YAMLError) in try e.set("base", to: .scalar("x")) }
        #expect(anchor.0?.description == "2:7: cannot change a value carrying anchor '&b': alias at 3:7 uses it")
        #expect(anchor.unchanged)

        let notMapping = editError("---\ncards: [1]\n---\n") { e throws(YAMLError) in try e.setEntry("a", in: "cards", to: .scalar("1")) }
        #expect(notMapping.0?.description == "2:8: the value of 'cards' is not a mapping")

        let notMapping2 = editError("---\ncards: text\n---\n") { e throws(YAMLError) in try e.removeEntry("a", in: "cards") }
        #expect(notMapping2.0?.description == "2:8: the value of 'cards' is not a mapping")

        let notList = editError("---\ntags:\n  a: 1\n---\n") { e throws(YAMLError) in try e.addToList("tags", "x") }
        #expect(notList.0?.description == "3:3: the value of 'tags' is not a list or a comma-separated string")

        let blockScalar = editError("---\ntags: |\n  a\n---\n") { e throws(YAMLError) in try e.removeFromList("tags", "a") }
        #expect(blockScalar.0?.description == "2:7: the value of 'tags' is not a list or a comma-separated string")

        let flowRoot = editError("---\n{title: x}\n---\n") { e throws(YAMLError) in try e.set("title", to: .scalar("y")) }
        #expect(flowRoot.0?.description == "2:1: cannot edit a flow-style front matter mapping")

        let flowParent = editError("---\ncards: {a: 1}\n---\n") { e throws(YAMLError) in try e.setEntry("b", in: "cards", to: .scalar("2")) }
        #expect(flowParent.0?.description == "2:8: cannot add 'b' to the flow mapping 'cards'; write it as a block mapping")

        let aliasParent = editError("---\nx: &m\n  a: 1\ncards: *m\n---\n") { e throws(YAMLError) in try e.setEntry("b", in: "cards", to: .scalar("2")) }
        #expect(aliasParent.0?.description == "4:8: the value of 'cards' is the alias '*m'; edit the anchored value")

        let aliasList = editError("---\nx: &t [a]\ntags: *t\n---\n") { e throws(YAMLError) in try e.addToList("tags", "b") }
        #expect(aliasList.0?.description == "3:7: the value of 'tags' is the alias '*t'; edit the anchored value")
    }

    @Test func verificationFailureLeavesFileUnchanged() {
        let text = "---\ntitle: x\nother: 1\n---\nbody\n"
        let bad = editError(text) { e throws(YAMLError) in try e.set("title", to: .raw("[unclosed")) }
        #expect(bad.unchanged)
        #expect(bad.0?.description.hasPrefix("2:1: edit abandoned: the result does not parse (") == true)

        let clobber = editError(text) { e throws(YAMLError) in try e.set("title", to: .raw("x\nother: 2")) }
        #expect(clobber.unchanged)
        #expect(clobber.0?.description.hasPrefix("2:1: edit abandoned:") == true)
    }

    @Test func errorMessageCarriesMark() {
        let error = YAMLError.syntax(message: "boom", at: YAMLMark(offset: 9, line: 2, column: 3))
        #expect(error.mark == YAMLMark(offset: 9, line: 2, column: 3))
        #expect(error.message == "boom")
        #expect("\(error)" == "2:3: boom")
    }
}
