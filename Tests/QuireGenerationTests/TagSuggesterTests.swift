import Testing
import QuireModel
@testable import QuireGeneration

/// Tags the vault uses, proposed when a note's key words or title carry them.
@Suite struct TagSuggesterTests {
    @Test func vaultTagsMatchedByKeyWordsAndTitle() throws {
        let tags = ["biology/enzymes", "biology", "chemistry/acids", "cell-biology", "history"].compactMap { Tag($0) }
        let text = "Enzymes are proteins. Enzymes speed reactions in the cell. Each enzyme has an active site. Cell biology studies cells."
        let statistics = TermStatistics(texts: [text, "history of rome", "acids and bases", "a cell"])
        let s = TagSuggester.suggest(title: "Enzymes", text: text, tags: [try #require(Tag("biology"))], vaultTags: tags, statistics: statistics)
        #expect(s.map(\.tag.name) == ["biology/enzymes", "cell-biology"], "\(s)")
        #expect(s[0].evidence.contains("enzyme ×3") && s[0].evidence.contains("(in the title)"), "\(s[0].evidence)")
        // A tag the note has (or a narrower one it has) is not proposed again; no vault tags, no proposals.
        let again = TagSuggester.suggest(title: "Enzymes", text: text, tags: [try #require(Tag("biology/enzymes"))], vaultTags: tags, statistics: statistics)
        #expect(!again.contains { $0.tag.name == "biology/enzymes" })
        #expect(TagSuggester.suggest(title: "Enzymes", text: text, tags: [], vaultTags: [], statistics: statistics).isEmpty)
    }
}
