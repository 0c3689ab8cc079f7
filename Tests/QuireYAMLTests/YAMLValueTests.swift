import Testing
@testable import QuireYAML

@Suite struct YAMLValueTests {
    @Test func plainWhenSafe() {
        for text in ["hello", "two words", "2024-01-05", "3.5", "-1", "-x", "a:b", "a#b", "naïve 日本", "10:00:00", "C++"] {
            #expect(YAMLValue.scalar(text).yamlText() == text, "\(text)")
        }
    }

    @Test func quotedWhenNeeded() {
        let table: [(String, String)] = [
            ("", "\"\""), (" lead", "\" lead\""), ("trail ", "\"trail \""), ("a: b", "\"a: b\""), ("a #b", "\"a #b\""),
            ("#tag", "\"#tag\""), ("- x", "\"- x\""), ("-", "\"-\""), ("---", "\"---\""), ("...", "\"...\""),
            ("[x]", "\"[x]\""), ("{x}", "\"{x}\""), ("*a", "\"*a\""), ("&a", "\"&a\""), ("!t", "\"!t\""),
            ("|", "\"|\""), (">", "\">\""), ("'q'", "\"'q'\""), ("\"q\"", "\"\\\"q\\\"\""), ("%x", "\"%x\""),
            ("@x", "\"@x\""), ("`x", "\"`x\""), ("key:", "\"key:\""), ("?x", "\"?x\""),
            ("line\nbreak", "\"line\\nbreak\""), ("tab\there", "\"tab\\there\""), ("back\\slash\n", "\"back\\\\slash\\n\""),
            ("bell\u{07}", "\"bell\\a\""), ("nel\u{85}", "\"nel\\N\""), ("ls\u{2028}", "\"ls\\L\""), ("ctl\u{01}", "\"ctl\\x01\""),
        ]
        for (text, expected) in table { #expect(YAMLValue.scalar(text).yamlText() == expected, "\(text)") }
        #expect(YAMLValue.quoted("plain").yamlText() == "\"plain\"")
    }

    @Test func flowContextIsStricter() {
        #expect(YAMLValue.scalar("a,b").yamlText() == "a,b")
        #expect(YAMLValue.scalar("a,b").yamlText(inFlow: true) == "\"a,b\"")
        #expect(YAMLValue.flowSequence([.scalar("a"), .scalar("b,c"), .scalar("")]).yamlText() == "[a, \"b,c\", \"\"]")
        #expect(YAMLValue.flowMapping([("due", .scalar("2024-01-05")), ("stability", .scalar("3.2")), ("odd key", .raw("~"))]).yamlText()
            == "{due: 2024-01-05, stability: 3.2, odd key: ~}")
        #expect(YAMLValue.flowMapping([("a]", .flowSequence([]))]).yamlText() == "{\"a]\": []}")
    }

    @Test func emittedScalarsReadBackExactly() throws {
        let texts = ["", " x", "a: b", "#", "- x", "q\"uote'", "tab\tin", "multi\nline\n", "日本語: ok", "\u{85}\u{2028}\u{FEFF}", "\\", "{", "a,b"]
        for text in texts {
            for value in [YAMLValue.scalar(text), .flowSequence([.scalar(text)]), .flowMapping([(text, .scalar(text))])] {
                let yaml = "k: " + value.yamlText() + "\n"
                let node = try #require(try YAMLParser.parse(yaml)?.mapping?["k"])
                #expect(value.isMatched(by: node), "\(yaml)")
            }
        }
    }

    @Test func equality() {
        #expect(YAMLValue.flowMapping([("a", .scalar("1"))]) == .flowMapping([("a", .scalar("1"))]))
        #expect(YAMLValue.flowMapping([("a", .scalar("1")), ("b", .scalar("2"))]) != .flowMapping([("b", .scalar("2")), ("a", .scalar("1"))]))
        #expect(YAMLValue.scalar("x") != .quoted("x"))
        #expect(YAMLValue.flowSequence([.raw("1")]) == .flowSequence([.raw("1")]))
    }
}
