import Foundation
import Testing

/// `quire import obsidian-sr` through the real binary.
@Suite struct ObsidianImportTests {
    @Test func schedulesMoveAndTheVaultReadsThePluginsCards() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let vault = q.vault.deletingLastPathComponent().appendingPathComponent("obsidian")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        // A vault made before the plugin was installed: card_syntax quire.
        #expect(try q.run(["init"], workingDirectory: vault).status == 0)
        let plugin = vault.appendingPathComponent(".obsidian/plugins/obsidian-spaced-repetition")
        try FileManager.default.createDirectory(at: plugin, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: plugin.appendingPathComponent("data.json"))
        let note = "#flashcards\n\nperro::dog\n<!--SR:!2026-11-30,4,270-->\n\ncasa:::house\n<!--SR:!2026-12-02,6,250!2026-11-28,3,230-->\n"
        try Data(note.utf8).write(to: vault.appendingPathComponent("Spanish.md"))
        let dry = try q.run(["import", "obsidian-sr", "--dry-run"], workingDirectory: vault)
        #expect(dry.status == 0 && dry.stdout.contains("would set card_syntax: obsidian-sr") && dry.stdout.hasSuffix("Would migrate 3 cards in 1 note. Nothing written (--dry-run).\n"), "\(dry)")
        #expect(try String(contentsOf: vault.appendingPathComponent("Spanish.md"), encoding: .utf8) == note)
        let done = try q.run(["import", "obsidian-sr", "--strip", "--now", "2026-11-26T09:00:00Z"], workingDirectory: vault)
        #expect(done.status == 0 && done.stdout.hasSuffix("Migrated 3 cards in 1 note.\n"), "\(done)")
        let text = try String(contentsOf: vault.appendingPathComponent("Spanish.md"), encoding: .utf8)
        #expect(!text.contains("<!--SR:") && text.hasSuffix("#flashcards\n\nperro::dog\n\ncasa:::house\n"))
        #expect(try String(contentsOf: vault.appendingPathComponent(".quire/config.yaml"), encoding: .utf8).contains("card_syntax: obsidian-sr"))
        let replay = try q.run(["replay", "--check"], workingDirectory: vault)
        #expect(replay.status == 0 && (replay.stdout + replay.stderr).contains(", 0 differ"), "\(replay)")
        let listed = try q.run(["list", "--now", "2026-11-26T09:00:00Z"], workingDirectory: vault)
        #expect(listed.stdout.split(separator: "\n").filter { $0.contains("\treview\t") }.count == 3, "\(listed)")
        // Again: nothing left to move.
        let again = try q.run(["import", "obsidian-sr"], workingDirectory: vault)
        #expect(again.stdout == "No schedule of the plugin to migrate.\n", "\(again)")
    }

    /// `--strip` after a migration without it takes the comments out (their schedules moved
    /// then); and a vault with the plugin installed but never configured (no data.json) reads
    /// the plugin's cards from `quire init` on.
    @Test func stripAfterAnEarlierMigrationAndAPluginWithoutSettings() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let vault = q.vault.deletingLastPathComponent().appendingPathComponent("obsidian")
        let plugin = vault.appendingPathComponent(".obsidian/plugins/obsidian-spaced-repetition")
        try FileManager.default.createDirectory(at: plugin, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: vault).status == 0)
        #expect(try String(contentsOf: vault.appendingPathComponent(".quire/config.yaml"), encoding: .utf8).contains("card_syntax: obsidian-sr"))
        let note = "#flashcards\n\nhablar::to speak\n<!--SR:!2026-11-30,4,270-->\n"
        try Data(note.utf8).write(to: vault.appendingPathComponent("Spanish.md"))
        #expect(try q.run(["list", "--count"], workingDirectory: vault).stdout == "1\n")
        let first = try q.run(["import", "obsidian-sr", "--now", "2026-11-26T09:00:00Z"], workingDirectory: vault)
        #expect(first.stdout.hasSuffix("Migrated 1 card in 1 note.\n"), "\(first)")
        #expect(try String(contentsOf: vault.appendingPathComponent("Spanish.md"), encoding: .utf8).contains("<!--SR:"))
        let strip = try q.run(["import", "obsidian-sr", "--strip", "--now", "2026-11-26T09:05:00Z"], workingDirectory: vault)
        #expect(strip.status == 0, "\(strip)")
        let text = try String(contentsOf: vault.appendingPathComponent("Spanish.md"), encoding: .utf8)
        #expect(!text.contains("<!--SR:") && text.hasSuffix("hablar::to speak\n"), "\(text)")
        #expect(try q.run(["replay", "--check"], workingDirectory: vault).status == 0)
    }
}
