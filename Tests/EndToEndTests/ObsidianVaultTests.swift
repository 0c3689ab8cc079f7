import Foundation
import Testing

/// A vault shared with the Obsidian spaced-repetition plugin (`card_syntax: obsidian-sr`,
/// FORMAT.md §3.8), used as a new user would.
@Suite struct ObsidianVaultTests {
    static let dataPath = ".obsidian/plugins/obsidian-spaced-repetition/data.json"
    static let note = """
        #flashcards

        Question::Answer
        <!--SR:!2021-08-11,4,270-->

        Multi
        ?
        line answer

        The **bold** and ==high== words

        """

    @Test func initFindsThePluginAndTheVaultShowsThePluginsCards() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let fresh = q.vault.deletingLastPathComponent().appendingPathComponent("obsidian")
        try FileManager.default.createDirectory(at: fresh.appendingPathComponent(".obsidian/plugins/obsidian-spaced-repetition"),
                                                withIntermediateDirectories: true)
        try Data(#"{"settings": {"convertBoldTextToClozes": true}}"#.utf8).write(to: fresh.appendingPathComponent(Self.dataPath))
        try FileManager.default.createDirectory(at: fresh.appendingPathComponent("Deck"), withIntermediateDirectories: true)
        try Data(Self.note.utf8).write(to: fresh.appendingPathComponent("Deck/cards.md"))
        try Data("Untagged::note\n".utf8).write(to: fresh.appendingPathComponent("Deck/untagged.md"))
        #expect(try q.run(["init", fresh.path]).status == 0)
        let config = try String(contentsOf: fresh.appendingPathComponent(".quire/config.yaml"), encoding: .utf8)
        #expect(config.contains("card_syntax: obsidian-sr"))

        func list() throws -> [String] {
            try q.run(["-C", fresh.path, "list", "--now", QuireRunner.now]).stdout.split(separator: "\n").map(String.init)
        }
        let cards = try list()
        // One basic, one multi-line, two cloze (highlight and bold patterns); nothing from the
        // untagged note.
        #expect(cards.count == 4, "\(cards)")
        #expect(cards.map { $0.split(separator: "\t").last ?? "" } == ["Question", "Multi", "The bold and [...] words",
                                                                       "The [...] and high words"])
        // Grading goes through the same syntax.
        let id = try #require(cards.first?.split(separator: "\t").first)
        let grade = try q.run(["-C", fresh.path, "grade", String(id), "good", "--now", QuireRunner.now])
        #expect(grade.status == 0, "\(grade)")
        #expect(try list().first?.contains("learning") == true)

        // Quire's own syntax: the same files give other cards, and the cache does not keep the old ones.
        let yaml = config.replacingOccurrences(of: "card_syntax: obsidian-sr", with: "card_syntax: quire")
        try Data(yaml.utf8).write(to: fresh.appendingPathComponent(".quire/config.yaml"))
        #expect(try list().count == 2)

        // A data.json that is a link is not followed, and check says so.
        try Data(config.utf8).write(to: fresh.appendingPathComponent(".quire/config.yaml"))
        try FileManager.default.removeItem(at: fresh.appendingPathComponent(Self.dataPath))
        try FileManager.default.createSymbolicLink(atPath: fresh.appendingPathComponent(Self.dataPath).path,
                                                   withDestinationPath: "/etc/hostname")
        let check = try q.run(["-C", fresh.path, "check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("data.json: error: is a symbolic link; not followed; the plugin's default settings are used"))
        #expect(try list().count == 3)
    }
}
