import Testing
import QuireModel
import QuireSystem
import QuireVault
@testable import QuireApp
@testable import QuireTestSupport

/// Search and ask for any front end, on a real vault by words (no model): query words keep what
/// they select; an answer quotes the card that holds it, with its source.
@Suite struct VaultSearchTests {
    static func search(_ dir: TempDir) throws -> VaultSearch {
        try dir.write(".quire/config.yaml", "")
        try dir.write("Biology/cells.md", "---\ndeck: Biology\n---\n\nWhat makes ATP? :: The mitochondrion\n\nThe nucleus holds the cell's DNA.\n")
        try dir.write("Spanish/words.md", "---\ndeck: Spanish\n---\n\nWhat is 'cell' in Spanish? :: célula\n")
        return try VaultSearch(LoadedVault(try Vault(root: dir.path), cached: false), semantic: false)
    }

    @Test func queryWordsKeepWhatTheySelect() throws {
        try withTempDir { dir in
            let search = try Self.search(dir)
            let all = try search.search(["cell"], mode: nil, limit: 10, now: at(26))
            #expect(Set(all.hits.map(\.path)) == ["Biology/cells.md", "Spanish/words.md"] && all.text == "cell")
            let spanish = try search.search(["deck:Spanish", "cell"], mode: nil, limit: 10, now: at(26))
            #expect(spanish.hits.map(\.path) == ["Spanish/words.md"] && spanish.text == "cell")
            #expect(try search.search(["cell"], mode: nil, scope: .cards, limit: 10, now: at(26)).hits.allSatisfy { $0.card != nil })
            #expect(throws: AppError.self) { try search.search(["deck:", "cell"], mode: nil, limit: 10, now: at(26)) }
        }
    }

    @Test func askQuotesTheCardThatAnswers() throws {
        try withTempDir { dir in
            let asked = try Self.search(dir).ask(["What", "makes", "ATP?"], chunks: 5, model: nil, now: at(26))
            #expect(asked.question == "What makes ATP?" && asked.answer.found && !asked.phrasedByModel)
            #expect(asked.answer.sentences.contains { $0.text.contains("mitochondrion") }, "\(asked.answer.sentences.map(\.text))")
            #expect(asked.answer.sources.first?.path == "Biology/cells.md")
        }
    }
}
