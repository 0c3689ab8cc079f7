import Testing
@_spi(Testing) @testable import QuireYAML

/// Files whose front matter the YAML tests use, gathered in one place so that
/// ``FrontMatterPathTests`` runs every one of them through the fast path and through libyaml alone.
enum FrontMatterSamples {
    /// A file that is refused, and the error `line:column: message` it must be refused with.
    struct Refused: Sendable, CustomTestStringConvertible {
        var file: [UInt8]
        var error: String

        init(_ file: String, _ error: String) {
            self.file = Array(file.utf8)
            self.error = error
        }

        init(bytes: [UInt8], _ error: String) {
            file = bytes
            self.error = error
        }

        /// The YAML between the fences, wrapped in them.
        static func yaml(_ yaml: String, _ error: String) -> Refused { Refused("---\n" + yaml + "---\nbody\n", error) }

        var testDescription: String { String(decoding: file, as: UTF8.self).debugDescription }
    }

    /// The error a file's front matter gives: libyaml's, the fence check's, the root check's, or a
    /// duplicate key (checked by notes and edits after parsing); nil when it is accepted.
    static func error(_ file: [UInt8], fastPath: Bool = true) -> String? {
        do {
            let frontMatter = try FrontMatter(file: file, fastPath: fastPath)
            guard let root = frontMatter.root, let (duplicate, first) = YAMLNode.mapping(root).firstDuplicateKey() else { return nil }
            return YAMLError.duplicateKey(key: duplicate.value, at: duplicate.start, firstAt: first.start).description
        } catch {
            return error.description
        }
    }

    /// Every refused front matter of the YAML tests (YAMLErrorTests, the editors' refusals) and of
    /// the notes' tests, and the differences between the paths found so far; the fast readers'
    /// own lists (refused ones among them) are in ``FrontMatterPathTests/readerSamples``.
    static let refused: [Refused] = [
        // libyaml's problems (YAMLErrorTests), one line down: the YAML starts on the file's line 2.
        .yaml("a: b: c\n", "2:5: mapping values are not allowed in this context"),
        .yaml("title: x\nbad: b: c\n", "3:7: mapping values are not allowed in this context"),
        .yaml("a:\n  b: 1\n c: 2\n", "4:2: did not find expected key (while parsing a block mapping at 2:1)"),
        .yaml("a: \"abc\n", "3:1: found unexpected end of stream (while scanning a quoted scalar at 2:4)"),
        .yaml("a: [1, 2\n", "3:1: did not find expected ',' or ']' (while parsing a flow sequence at 2:4)"),
        .yaml("k: é: b: c\n", "2:6: mapping values are not allowed in this context"),
        .yaml("日本: x: y\n", "2:10: mapping values are not allowed in this context"),
        Refused(bytes: Array("---\na: ".utf8) + [0xFF, 0x0A] + Array("---\n".utf8), "2:4: invalid leading UTF-8 octet (#xFF)"),
        .yaml("a: 1\nb: *nope\n", "3:4: undefined alias '*nope'"),
        .yaml("? [a, b]\n: c\n", "2:3: only scalar mapping keys are supported"),
        .yaml(String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "\n",
              "2:257: collections are nested more than 256 levels deep"),
        .yaml("a: 1\n--- # a second document\nb: 2\n", "3:1: front matter must be a single YAML document"),
        Refused("---\ntitle: x\n\nbody\n", "1:1: front matter opened here is never closed (expected a '---' or '...' line)"),
        Refused("\u{FEFF}---\na: 1\n", "1:4: front matter opened here is never closed (expected a '---' or '...' line)"),
        .yaml("- a\n- b\n", "2:1: front matter must be a mapping, found a sequence"),
        .yaml("just text\n", "2:1: front matter must be a mapping, found a scalar"),
        // Quire's own check after parsing (the editors' refusals).
        .yaml("title: a\ntags: [x]\ntitle: b\n", "4:1: duplicate key 'title' (first defined at 2:1)"),
        .yaml("cards:\n  a: 1\n  a: 2\n", "4:3: duplicate key 'a' (first defined at 3:3)"),
        .yaml("a: b\na: c\n", "3:1: duplicate key 'a' (first defined at 2:1)"),
        .yaml("title: t\nquire:\n  a: {k: v}\n  a: {k: w}\n", "5:3: duplicate key 'a' (first defined at 4:3)"),
        .yaml("quire:\n  a: {k: v, k: w}\n", "3:13: duplicate key 'k' (first defined at 3:7)"),
        // The notes' refusals (NoteParserTests, CheckTests).
        .yaml("title: ok\nbad: [unclosed\n", "4:1: did not find expected ',' or ']' (while parsing a flow sequence at 3:6)"),
        .yaml("title: ok\ntags: [a, b\n", "4:1: did not find expected ',' or ']' (while parsing a flow sequence at 3:7)"),
        Refused("---\ntitle: Fence\n", "1:1: front matter opened here is never closed (expected a '---' or '...' line)"),
        .yaml("quire:\n  abc: {state: new, state: review}\n", "3:21: duplicate key 'state' (first defined at 3:9)"),
        .yaml("tags: [a, b]\nsources:\n  - {url: x, url: y}\n", "4:14: duplicate key 'url' (first defined at 4:6)"),
        // Errors the fast path used to report differently, or not at all.
        .yaml("a: [x,\nquire:\n  k: {a: b}\nb: c\n", "4:4: did not find expected ',' or ']' (while parsing a flow sequence at 2:4)"),
        .yaml("quire:\n  a: {k: v, n: 1}\n>-\nc :xy\n", "4:1: did not find expected key (while parsing a block mapping at 2:1)"),
        .yaml("{a: b,\nquire:\n  x: {k: v}\n}\n", "4:4: did not find expected ',' or '}' (while parsing a flow mapping at 2:1)"),
        .yaml("[a,\nquire:\n  x: {k: v}\n]\n", "4:4: did not find expected ',' or ']' (while parsing a flow sequence at 2:1)"),
        .yaml("quire:\n  x: {k: v}\n\u{FEFF}title: x\n", "4:4: did not find expected key (while parsing a block mapping at 2:1)"),
        .yaml(String(repeating: "k", count: 1025) + ": v\n", "2:1026: mapping values are not allowed in this context"),
        .yaml(String(repeating: "k", count: 1025) + ":\n  x: {a: b}\n", "2:1026: mapping values are not allowed in this context"),
        .yaml("quire:\n  " + String(repeating: "k", count: 1025) + ": {a: b}\n", "3:1028: mapping values are not allowed in this context"),
        .yaml("quire:\n  x: {" + String(repeating: "k", count: 1025) + ": b}\n",
              "3:1032: did not find expected ',' or '}' (while parsing a flow mapping at 3:6)"),
    ]

    /// Front matter the fast path used to read differently from libyaml (the `frontmatter-diff`
    /// fuzz target's seeds hold them too).
    static let differencesFound: [String] = [
        // The block under `quire:` ends where libyaml's next token starts: not at a BOM or a
        // Unicode line break, nor before a key that follows a comment's line break.
        "quire:\n  x: {k: v}\n\u{2028}\ntitle: x\n",
        "quire:\n  x: {k: v}\n\u{85}title: x\n",
        "quire:\n  x: {k: v}\n# c\u{2028}title: x\n",
        "quire:\n  x: {k: v}\n# c\u{85}title: x\n",
        "quire:\n  x: {k: v}\n# c\rtitle: x\n",
        // The longest key libyaml reads, at each place a fast reader reads keys.
        String(repeating: "k", count: 1024) + ": v\n",
        "quire:\n  " + String(repeating: "k", count: 1024) + ": {a: b}\n",
        "quire:\n  x: {" + String(repeating: "k", count: 1024) + ": b}\n",
    ]
}
