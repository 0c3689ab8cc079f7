import Testing
@testable import QuireYAML

/// The fast reader of simple `key: value` front matter must give exactly what libyaml gives —
/// values, styles and every mark — or step aside.
@Suite struct SimpleMappingReaderTests {
    /// The tree (dumped, marks and all) or the error, from each path, and whether the reader took
    /// the text.
    private func both(_ yaml: String) -> (fast: String, slow: String, taken: Bool) {
        let bytes = Array(("---\n" + yaml + "---\nbody\n").utf8)
        let range = 4..<(4 + yaml.utf8.count)
        let base = YAMLMark(offset: 4, line: 2, column: 1)
        func run(_ fastPath: Bool) -> String {
            do {
                var out = ""
                dump(try FrontMatter.parseRoot(bytes[range], base: base, fastPath: fastPath).map(YAMLNode.mapping), to: &out)
                return out
            } catch {
                return "error: \(error)"
            }
        }
        let blocks = FlowLineBlock.find(in: bytes[range], base: base)
        var text = bytes[range]
        for block in blocks {
            for r in block.entryLines { for i in r where text[i] != 0x0D { text[i] = 0x20 } }
        }
        let taken = SimpleMappingReader.read(text, base: base, placeholders: blocks.map(\.keyOffset)) != nil
        return (run(true), run(false), taken)
    }

    static let taken = [
        "title: Cells\n",
        "id: 3021ec5a67385702-0002996\ntitle: \"Ummurcal Ostpon War More\"\ndeck: Economics/Bortarquae-Is\n"
            + "tags: [economics, lojinzan, murionvis]\ncreated: 2019-08-22\ninterval: 330\nease: 2.62\n",
        "tags: []\n",
        "tags: [ a ,b,  c ]\n",
        "due: 2026-11-25T09:00:00Z\n",
        "title: What is it? (part 2)\n",
        "title: \"\"\n",
        "title: \"a # not a comment: still text, [x]\"\n",
        "2024: year\n",
        "a_b-c: x\nx: y\n\n",
        "title: t\nquire:\n  7k2m9xq4v1ab: {fp: 3c9e0f51aa72d418, state: review, due: 2026-11-25T09:00:00Z}\ntags: [a]\n",
        "title: t\nquire:\n  a: {state: new}\n",
        "title: t",
        "a: b\na: c\n",
        "aliases: [\"which structure\", \"by\"]\n",
        "aliases: [ \"a, b\" , c ]\n",
        "tags:\n  - philosophy\n  - kapon\ntitle: x\n",
        "tags:\n    - a b\n    - \"q\"\n\n    - c\n\ntitle: x\n",
        "title: x\ntags:\n - a\n",
        "tags:\n\n  - a\n",
        "title: Café\n",
        "title: Über den Wolken\n",
        "title: \"Kraków, Ångström: résumé\"\n",
        "tags: [ü, 日本語, \"Ελληνικά\"]\ndeck: Sprachen/Deutsch\n",
        "aliases:\n  - 🙂 smile\n  - a\u{00A0}b\n",
    ]

    static let leftToLibyaml = [
        "ü: key\n",
        "title: a\u{85}b\n",
        "title: a\u{2028}b\n",
        "title: \"a\u{2029}b\"\n",
        "title: a\u{FEFF}b\n",
        "title: a\u{80}b\n",
        "title: \"a\u{9F}\"\n",
        "title: x # comment\n",
        "# comment\ntitle: x\n",
        "title: 'single'\n",
        "title: \"esc\\\"aped\"\n",
        "title:  two spaces\n",
        "title: trailing \n",
        "title:\n",
        "title: a: b\n",
        "title: a:\n",
        "title: -5\n",
        "title: - x\n",
        "title: &anchor x\n",
        "title: *alias\n",
        "title: !tag x\n",
        "title: |\n  block\n",
        "title: >\n  folded\n",
        "tags:\n- a\n- b\n",
        "tags:\n  - a\n   - b\n",
        "tags:\n  - a\n  -b\n",
        "tags:\n  - [a]\n",
        "tags:\n  - a: b\n",
        "tags:\n  - - a\n",
        "tags:\n  - a\n  x: y\n",
        "tags:\ntitle: x\n",
        "tags: [\"a\\\"b\"]\n",
        "tags: [\"a\" b]\n",
        "tags: [a, [b]]\n",
        "tags: [a b]\n",
        "tags: [a,]\n",
        "tags: {a: b}\n",
        "title: x\r\n",
        "title:\tx\n",
        " title: x\n",
        "title: x\n  more: y\n",
        "title: a  b\n",
        "? complex\n: key\n",
        "\"quoted key\": x\n",
        "title: x\n...\n",
        "title: x, y\n",
        "title: 100%\n",
        "title: ~\n",
        "",
        "\n",
    ]

    @Test(arguments: taken)
    func simpleFrontMatterGivesLibyamlsTree(_ yaml: String) {
        let r = both(yaml)
        #expect(r.taken, "\(yaml.debugDescription)")
        #expect(r.fast == r.slow, "\(yaml.debugDescription)")
    }

    @Test(arguments: leftToLibyaml)
    func otherShapesAreLeftToLibyaml(_ yaml: String) {
        let r = both(yaml)
        #expect(!r.taken, "\(yaml.debugDescription)")
        #expect(r.fast == r.slow, "\(yaml.debugDescription)")
    }

    /// Random front matter from pieces, simple and not: whenever the reader takes one, its tree is
    /// libyaml's; otherwise both paths give the same tree or the same error.
    @Test func generatedFrontMatterMatchesLibyaml() {
        var rng = UInt64(0xF00D)
        func next(_ n: Int) -> Int {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Int((rng >> 33) % UInt64(n))
        }
        let keys = ["title", "deck", "tags", "created", "id", "a-b", "x_1", "9", "ü", "-k", "k k"]
        let values = [
            "Cells", "Biology/Cells", "2026-11-25", "2.62", "-1", "12:30", "a:b", "a: b", "x#y", "x #y", "(a)", "a'b",
            "\"q\"", "\"q:, [x] #y\"", "\"\"", "'s'", "[a, b]", "[]", "[ a ]", "[a,b]", "[a, b c]", "[a,]", "[\"a\"]",
            "{a: b}", "&x v", "*x", "!t v", "|", "- a", "~", "true", "null", "a  b", "a b ", "é", "100%", "a,b", "x?",
            "Kraków", "\"Ångström\"", "[日本語, ü]", "a\u{85}b", "a\u{2028}", "\u{FEFF}x", "a\u{00A0}b", "\u{9F}",
        ]
        var takenCount = 0
        for _ in 0..<2000 {
            var yaml = ""
            for _ in 0..<(1 + next(6)) {
                switch next(12) {
                case 0: yaml += "\n"
                case 1: yaml += "# c\n"
                case 2: yaml += "quire:\n  abc: {state: new, reps: \(next(9))}\n"
                case 3: yaml += keys[next(keys.count)] + ":\n"
                case 4:
                    let indent = String(repeating: " ", count: next(4))
                    yaml += keys[next(keys.count)] + ":\n"
                    for _ in 0..<next(4) { yaml += indent + "- " + values[next(values.count)] + "\n" }
                default: yaml += keys[next(keys.count)] + ": " + values[next(values.count)] + "\n"
                }
            }
            let r = both(yaml)
            if r.taken { takenCount += 1 }
            #expect(r.fast == r.slow, "\(yaml.debugDescription)")
        }
        #expect(takenCount > 100)
    }
}
