import Testing
import QuireIndex
import QuireModel
import QuireStudy
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// What a front end asks of the application layer, on a real vault in a temporary folder: a
/// session of each kind, and a card found for recording.
@Suite struct StudyContextTests {
    /// A vault of 30 new cards in one deck and 5 in another.
    static func vault(_ dir: TempDir) throws -> LoadedVault {
        var biology = "---\ndeck: Biology\n---\n"
        for k in 0..<30 { biology += "\nQuestion \(k)? :: Answer \(k)\n" }
        try dir.write("Biology/cells.md", biology)
        var spanish = "---\ndeck: Spanish\n---\n"
        for k in 0..<5 { spanish += "\nWord \(k)? :: Palabra \(k)\n" }
        try dir.write("Spanish/words.md", spanish)
        return LoadedVault(try Vault(root: dir.path), cached: false)
    }

    @Test func sessionsOfEachKind() throws {
        try withTempDir { dir in
            let session = try Self.vault(dir)
            let (config, _) = try LoadedVault.readSettings(of: session.vault)
            let context = StudyContext(session, config: config, now: at(26))
            // Today's plan: the daily limit of new cards (20).
            #expect(context.session(.todaysPlan).entries.count == 20)
            // A new-cards session of a deck: up to 20 of its cards.
            let spanish = try Query(arguments: ["deck:Spanish"])
            let new = context.session(.mode(.new, counts: nil, query: spanish))
            #expect(new.entries.count == 5 && new.entries.allSatisfy { $0.path == "Spanish/words.md" })
            // A custom session's counts pass the daily limits.
            #expect(context.session(.mode(.custom, counts: (new: 25, reviews: 0), query: nil)).entries.count == 25)
            // Custom study beyond the plan: nothing answered Again today.
            #expect(context.session(.custom(.failedToday, query: nil)).entries.isEmpty)
        }
    }

    @Test func aCardFoundForRecording() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "scheduler: fsrs\n")
            try dir.write(".quire/device", "apptest\n")
            let session = try Self.vault(dir)
            var context = try ReviewContext(vault: session.vault, cached: false)
            let id = try #require(session.index.notes.first { $0.path == "Spanish/words.md" }?.cards.first?.id)
            let path = try context.onCard(String(id.description.prefix(6))) { found, path, _ in
                #expect(found == id)
                return path
            }
            #expect(path == "Spanish/words.md")
            #expect(throws: AppError.self) { try context.onCard("zzzzzzzz") { _, p, _ in p } }
        }
    }
}
