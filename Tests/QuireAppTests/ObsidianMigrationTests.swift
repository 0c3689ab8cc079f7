import Foundation
import Testing
import QuireIndex
import QuireModel
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// The plugin's schedules moved into a real vault: the log first, the settings, each note still
/// as read; a note changed after it was read is left alone and said.
@Suite struct ObsidianMigrationTests {
    static let note = "---\ntags: [flashcards]\n---\nperro::dog\n<!--SR:!2026-11-30,4,270-->\n\ngato::cat\n<!--SR:!2026-12-02,6,250-->\n"

    static func context(_ dir: TempDir) throws -> StudyContext {
        try dir.write(".quire/config.yaml", "")
        try dir.write("Spanish.md", note)
        try dir.write("French.md", "#flashcards\n\nchien::dog\n<!--SR:!2026-11-29,3,250-->\n")
        let loaded = LoadedVault(try Vault(root: dir.path), cached: false)
        return StudyContext(loaded, config: try LoadedVault.readSettings(of: loaded.vault).config, now: at(26, 9))
    }

    @Test func theLogTheSettingsThenEachNoteAsRead() throws {
        try withTempDir { dir in
            let migration = ObsidianMigration(try Self.context(dir), strip: false)
            #expect(migration.changesSyntax && migration.unreadable.isEmpty && migration.plan.cardCount == 3)
            // An editor saves French.md between the plan and the write: it is not overwritten.
            try dir.write("French.md", "#flashcards\n\nchien::dog\n<!--SR:!2026-11-29,3,250-->\n\nedited::meanwhile\n")
            var steps: [String] = []
            try migration.write { step in
                switch step {
                case .syntaxSet(let file): steps.append("syntax " + file)
                case .migrated(let path, let cards): steps.append("migrated \(path) \(cards)")
                case .failed(let path, _): steps.append("failed \(path)")
                }
            }
            #expect(steps == ["syntax .quire/config.yaml", "failed French.md", "migrated Spanish.md 2"], "\(steps)")
            #expect(String(decoding: try dir.read("French.md"), as: UTF8.self).hasSuffix("edited::meanwhile\n"))
            let spanish = String(decoding: try dir.read("Spanish.md"), as: UTF8.self)
            #expect(spanish != Self.note && spanish.hasSuffix("gato::cat\n<!--SR:!2026-12-02,6,250-->\n"), "\(spanish)")
            #expect(String(decoding: try dir.read(".quire/config.yaml"), as: UTF8.self).contains("card_syntax: obsidian-sr"))
            // The log holds every card's schedule, French.md's too: replay brings it.
            let logged = LoadedVault(try Vault(root: dir.path), cached: false).vault.reviewLog().events
            #expect(logged.count == 3)
        }
    }
}
