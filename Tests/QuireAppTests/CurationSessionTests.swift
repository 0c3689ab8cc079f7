import Foundation
import Testing
import QuireCuration
import QuireModel
import QuireSystem
import QuireVault
@testable import QuireApp
@testable import QuireTestSupport

/// A keep-or-archive pass on a real vault, as the terminal and the page run it: decisions written
/// to the notes and the curation log, undo, the end's lines.
@Suite struct CurationSessionTests {
    @Test func decideUndoAndFinish() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "")
            try dir.write(".quire/device", "curatest\n")
            for day in [10, 11, 12] {
                try dir.write("Notes/2026-11-\(day).md", "---\ncreated: 2026-11-\(day)\n---\n\n# Day \(day)\n\nWhat happened.\n")
            }
            let loaded = LoadedVault(try Vault(root: dir.path), cached: false)
            let context = try CurationContext(loaded: loaded, now: at(26, 10))
            let period = try #require(context.curation.oldestPending(.weekly, today: context.today))
            var session = CurationSession(context: context, period: period, writer: CurationWriter(vault: loaded.vault, device: "curatest"),
                                          clock: StudyClock(fixed: at(26, 10)))
            try session.start()
            #expect(session.notes.count == 3 && session.position == 0)
            let first = session.notes[0].path
            let before = try dir.read(first)
            #expect(session.decide(.keep).hasPrefix("Kept: cycle "))
            #expect(try dir.read(first) != before && session.position == 1)
            #expect(session.decide(.archive) == "Archived.")
            // Undo takes back the last decision and shows its note again.
            #expect(session.undo().hasPrefix("Undid the archive of "))
            #expect(session.position == 1 && session.decided[1] == nil)
            #expect(session.skip() == "Skipped (still to decide).")
            let lines = try session.finish()
            #expect(!lines.isEmpty, "\(lines)")
            // The log holds the session's decision and its undone one.
            let logs = (try? FileManager.default.contentsOfDirectory(atPath: dir.full(".quire/curation"))) ?? []
            #expect(!logs.isEmpty)
        }
    }
}
