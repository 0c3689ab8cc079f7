import Foundation
import Testing
@testable import QuireMarkdown

/// The cmark-gfm shim has two paths, one compiled per build: the fast path (cmark's structs read
/// directly, bare paragraphs left unparsed, an arena per thread) and the public-API path (any
/// other cmark-gfm version, or `QUIRE_CMARK_PUBLIC_API=1` at build time; `make test` runs these
/// tests in both). Both must give the same documents: every tree of the corpus is checked against
/// digests recorded in Golden/parse-digests.txt, which both modes share, and against invariants.
@Suite struct ParseModeTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let goldenFile = repositoryRoot.appendingPathComponent("Tests/QuireMarkdownTests/Golden/parse-digests.txt")

    /// The option sets every document is parsed with, by name.
    static let optionSets: [(name: String, options: MarkdownParseOptions)] = [
        ("default", .default),
        ("indexing", .indexing),
        ("commonmark", []),
        ("smart", [.tables, .strikethrough, .footnotes, .smartPunctuation]),
    ]

    /// The Markdown tests' documents, every note of SampleVault/ and the note and render seeds of
    /// the fuzz corpus, each with a name; files are parsed whole (front matter included).
    static let corpus: [(name: String, text: String)] = {
        var documents: [(String, String)] = [("ParsePathTests.note", ParsePathTests.note)]
        for (index, text) in BareProseParagraphsTests.documents.enumerated() {
            documents.append(("BareProseParagraphsTests.documents[\(index)]", text))
        }
        let folders = ["SampleVault", "Fuzz/corpus/note", "Fuzz/corpus/render"]
        for folder in folders {
            let base = repositoryRoot.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: base.path)
            var paths: [String] = []
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".md") { paths.append(path) }
            }
            for path in paths.sorted() {
                let data = (try? Data(contentsOf: base.appendingPathComponent(path))) ?? Data()
                documents.append((folder + "/" + path, String(decoding: data, as: UTF8.self)))
            }
        }
        return documents
    }()

    /// 64-bit FNV-1a of the whole description of a document.
    static func digest(_ document: MarkdownDocument) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for line in ParsePathTests.describe(document) {
            for byte in line.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            hash = (hash ^ 10) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// One line per document and option set: digest, node count, options, name.
    static func digests() -> String {
        var lines: [String] = []
        for (name, text) in corpus {
            for set in optionSets {
                let document = MarkdownDocument(parsing: text, options: set.options)
                lines.append("\(digest(document)) \(document.nodes.count) \(set.name) \(name)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theActiveModeIsTheOneTheBuildAskedFor() {
        let forced = !["", "0"].contains(ProcessInfo.processInfo.environment["QUIRE_CMARK_PUBLIC_API"] ?? "")
        let mode = MarkdownDocument.usesFastPath ? "fast path" : "public-API path"
        print("cmark-gfm \(CmarkRuntime.version): \(mode)\(forced ? " (QUIRE_CMARK_PUBLIC_API set)" : "")")
        if forced {
            #expect(!MarkdownDocument.usesFastPath, "QUIRE_CMARK_PUBLIC_API is set, but the build has the fast path")
        } else {
            // The fast path is written for this one version and compiled for no other.
            #expect(MarkdownDocument.usesFastPath == (CmarkRuntime.version == "0.29.0.gfm.6"))
        }
    }

    /// `QUIRE_RECORD=1 swift test --filter ParseModeTests` rewrites the digests; a difference
    /// between the modes shows as a changed line in `git diff`.
    @Test func everyTreeMatchesTheRecordedDigest() throws {
        let actual = Self.digests()
        if ProcessInfo.processInfo.environment["QUIRE_RECORD"] == "1" {
            try Data(actual.utf8).write(to: Self.goldenFile)
            return
        }
        let expected = try String(contentsOf: Self.goldenFile, encoding: .utf8)
        let expectedLines = expected.split(separator: "\n")
        let actualLines = actual.split(separator: "\n")
        #expect(expectedLines.count == actualLines.count)
        for (want, got) in zip(expectedLines, actualLines) where want != got {
            Issue.record("parse digest differs (\(MarkdownDocument.usesFastPath ? "fast" : "public-API") path):\nexpected: \(want)\nactual:   \(got)")
        }
    }

    @Test func everyTreeIsWellFormed() {
        for (name, text) in Self.corpus {
            // Lines as cmark counts them: ended by "\n", "\r\n" or "\r".
            let bytes = Array(text.utf8)
            let lineCount = bytes.indices.reduce(1) { count, i in
                bytes[i] == 10 && (i == 0 || bytes[i - 1] != 13) || bytes[i] == 13 ? count + 1 : count
            }
            for set in Self.optionSets {
                // With exactCodeSpansOnly, other inlines keep cmark's positions (a soft break's is 0:0).
                let exactInlines = !set.options.contains(.exactCodeSpansOnly)
                let nodes = MarkdownDocument(parsing: text, options: set.options).nodes
                #expect(nodes.first?.kind == .document, "\(name) \(set.name)")
                for (index, node) in nodes.enumerated() {
                    let context = "node \(index) \(node.kind) of \(name) (\(set.name))"
                    #expect(node.subtreeEnd > index && node.subtreeEnd <= nodes.count, "\(context)")
                    if let parent = node.parent {
                        #expect(parent < index && nodes[parent].subtreeEnd >= node.subtreeEnd, "\(context)")
                        #expect(nodes[parent].kind.isBlock || !node.kind.isBlock, "\(context): a block inside an inline")
                    } else {
                        #expect(index == 0, "\(context)")
                    }
                    if let child = node.firstChild { #expect(child == index + 1 && nodes[child].parent == index, "\(context)") }
                    if let next = node.nextSibling { #expect(next == node.subtreeEnd && nodes[next].parent == node.parent, "\(context)") }
                    let range = node.range
                    guard exactInlines || node.kind.isBlock || node.kind == .code || node.kind == .htmlInline else { continue }
                    #expect(range.start.line >= 1 && range.start.line <= range.end.line && range.end.line <= lineCount,
                            "\(context): range \(range)")
                }
            }
        }
    }

    /// The indexing options leave out exactly the inlines of bare paragraphs, whether cmark
    /// skipped them (fast path) or parsed them (public-API path); the rest of the tree is whole.
    @Test func bareParagraphsLoseOnlyTheirInlines() {
        for (_, text) in Self.corpus {
            BareProseParagraphsTests().plainParagraphsHaveNoInlineNodes(text)
        }
    }
}
