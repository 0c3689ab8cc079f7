@testable import QuireParsing
import Foundation
import Testing
import QuireMarkdown
import QuireModel

/// The notes and cards the parser finds in SampleVault/ and the fuzz corpus's note seeds, against
/// Fixtures/parse-mode-cards.txt. The file is the same for both paths of the cmark-gfm shim
/// (`make test` runs this suite in both; see QuireMarkdownTests' ParseModeTests): the fast path
/// leaves prose paragraphs unparsed and the public-API path parses them, and the cards must not
/// differ. `QUIRE_RECORD=1 swift test --filter ParseModeCardTests` rewrites the file.
@Suite struct ParseModeCardTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let goldenFile = repositoryRoot.appendingPathComponent("Tests/QuireParsingTests/Fixtures/parse-mode-cards.txt")

    /// 64-bit FNV-1a of the strings, each followed by a 0 byte.
    static func digest(_ strings: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for string in strings {
            for byte in string.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A note per line, then a line per card: lines, column, kind, variant, ID, heading path and a
    /// digest of the card's texts; then the diagnostics.
    static func transcript() throws -> String {
        var out = ""
        for folder in ["SampleVault", "Fuzz/corpus/note"] {
            let base = repositoryRoot.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: base.path)
            var paths: [String] = []
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".md"), !path.hasPrefix(".") { paths.append(path) }
            }
            for path in paths.sorted() {
                let bytes = Array(try Data(contentsOf: base.appendingPathComponent(path)))
                let (note, diagnostics) = NoteParser.parse(bytes, path: path)
                out += "\(folder)/\(path)"
                if let note {
                    out += " title=\(note.title.debugDescription) deck=\(note.deck) tags=\(note.tags.map(\.description))"
                        + " cards=\(note.cards.count)\n"
                    for card in note.cards {
                        out += "  L\(card.lines.lowerBound)-\(card.lines.upperBound) c\(card.column) \(card.kind) \(card.variant)"
                            + " \(card.id) \(card.headingPath.joined(separator: "/").debugDescription)"
                            + " \(digest([card.front, card.back, card.identityText]))\n"
                    }
                } else {
                    out += " no note\n"
                }
                for diagnostic in diagnostics { out += "  ! \(diagnostic)\n" }
            }
        }
        return out
    }

    @Test func cardsMatchTheRecordedTranscript() throws {
        let actual = try Self.transcript()
        if ProcessInfo.processInfo.environment["QUIRE_RECORD"] == "1" {
            try Data(actual.utf8).write(to: Self.goldenFile)
            return
        }
        let expected = try String(contentsOf: Self.goldenFile, encoding: .utf8)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(expectedLines.count == actualLines.count)
        let mode = MarkdownDocument.usesFastPath ? "fast" : "public-API"
        for (number, (want, got)) in zip(expectedLines, actualLines).enumerated() where want != got {
            Issue.record("line \(number + 1) differs (\(mode) path):\nexpected: \(want)\nactual:   \(got)")
        }
    }
}
