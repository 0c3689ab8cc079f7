import Testing
import QuireGeneration
import QuireModel
import QuireSystem
import QuireVault
@testable import QuireApp
@testable import QuireTestSupport

/// Cards proposed for a note by the rules, on a real vault: a defined term becomes a card; a fact
/// the vault already has a card for is not proposed again.
@Suite struct ProposedCardsTests {
    @Test func aDefinitionIsProposedOnce() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "")
            try dir.write("Biology/plants.md", "# Plants\n\n**Photosynthesis** is the process by which plants make sugar from light, water and carbon dioxide.\n")
            let loaded = LoadedVault(try Vault(root: dir.path), cached: false)
            let note = try #require(loaded.index.notes.first)
            let proposed = loaded.proposeCards(for: [note], formats: [.definition], maximum: nil, model: nil, meaning: nil)
            #expect(proposed.count >= 1 && proposed.problems.isEmpty && proposed.duplicates.isEmpty)
            let card = try #require(proposed.results.first?.cards.first)
            #expect(card.front.contains("Photosynthesis") && card.back.contains("sugar from light"), "\(card)")
            guard case .array(let items) = proposed.json, case .object(let fields)? = items.first else { Issue.record("not an array"); return }
            #expect(fields.map(\.0) == ["path", "line", "format", "rule", "front", "back", "markdown", "score", "heading_path"])
            // Once the card is in the vault, it is not proposed again.
            try dir.write("Biology/plants.md", "# Plants\n\n**Photosynthesis** is the process by which plants make sugar from light, water and carbon dioxide.\n\n"
                          + card.markdown + "\n")
            let again = LoadedVault(try Vault(root: dir.path), cached: false)
            let repeated = again.proposeCards(for: again.index.notes, formats: [.definition], maximum: nil, model: nil, meaning: nil)
            #expect(repeated.count == 0, "\(repeated.results)")
        }
    }
}
