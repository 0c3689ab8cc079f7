import Foundation
import Testing

/// An import killed (`SIGKILL`) at an exact point of its writes (`QUIRE_CRASH_AT`), through the real
/// binary: the next command, whatever it is, finishes it or takes it out — the vault holds all of
/// the import or none of it — and importing again never logs an event twice.
@Suite struct ImportKillTests {
    static let deck = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/RealDecks/french-words.apkg").path
    /// What french-words.apkg holds (RealDeckTests checks these against Anki's own library).
    static let notes = 1639, grades = 3470

    /// A fresh vault made with `quire init`.
    static func vault(_ q: QuireRunner, _ name: String) throws -> URL {
        let dir = q.vault.deletingLastPathComponent().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: dir).status == 0)
        return dir
    }

    /// The notes of a vault (path → bytes), Quire's folder left out.
    static func notes(_ dir: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(dir.path.count + 1))
            guard !relative.hasPrefix(".quire"), relative.hasSuffix(".md") else { continue }
            out[relative] = try? Data(contentsOf: url)
        }
        return out
    }

    /// The log lines of an action (` grade `, ` set `) in every log file of a vault.
    static func logged(_ action: String, in dir: URL) throws -> Int {
        let logs = dir.appendingPathComponent(".quire/log")
        var n = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: logs.path)) ?? [] {
            let text = try String(contentsOf: logs.appendingPathComponent(name), encoding: .utf8)
            n += text.split(separator: "\n").filter { $0.contains(" \(action) ") }.count
        }
        return n
    }

    /// Killed after staging (no journal), after the log only, midway through the notes and after
    /// the last move (the journal not yet removed); each time `quire list --count` comes next.
    @Test(arguments: ["staged:1", "staged-move:1", "staged-move:2", "staged-move:800", "staged-move:1640"])
    func aKilledAnkiImportEndsWhole(_ point: String) throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let reference = try Self.vault(q, "reference"), vault = try Self.vault(q, "killed")
        #expect(try q.run(["import", "anki", Self.deck, "--now", "2026-11-22T12:00:00Z"], workingDirectory: reference).status == 0)
        let killed = try q.run(["import", "anki", Self.deck, "--now", "2026-11-22T12:00:00Z"], environment: ["QUIRE_CRASH_AT": point],
                               workingDirectory: vault)
        #expect(killed.status == 9, "\(killed)")
        let staging = vault.appendingPathComponent(".quire/staging").path
        #expect(FileManager.default.fileExists(atPath: staging))
        // A command that only reads finishes the import (or takes out one that never began to move).
        let count = try q.run(["list", "--count"], workingDirectory: vault)
        if point.hasPrefix("staged:") {
            // Never begun: nothing in the vault; the next writer takes the stage out.
            #expect(count.stdout == "0\n")
            #expect(Self.notes(vault).isEmpty)
            #expect(try Self.logged("grade", in: vault) == 0)
        } else {
            #expect(!FileManager.default.fileExists(atPath: staging))
            #expect(count.stdout == "\(Self.notes)\n", "\(count)")
            #expect(Self.notes(vault) == Self.notes(reference))
            #expect(try Self.logged("grade", in: vault) == Self.grades)
        }
        // Importing again gives exactly what one unkilled import gives.
        let again = try q.run(["import", "anki", Self.deck, "--now", "2026-11-23T12:00:00Z"], workingDirectory: vault)
        #expect(again.status == 0, "\(again)")
        #expect(!FileManager.default.fileExists(atPath: staging))
        #expect(Self.notes(vault) == Self.notes(reference))
        #expect(try Self.logged("grade", in: vault) == Self.grades)
        #expect(try Self.logged("set", in: vault) == Self.logged("set", in: reference))
        let stats = try q.run(["stats"], workingDirectory: vault)
        #expect(stats.stdout.contains("Reviews: \(Self.grades) "), "\(stats)")
        let replay = try q.run(["replay", "--check"], workingDirectory: vault)
        #expect(replay.status == 0, "\(replay)")
    }

    /// The next writer finishes it too: a grade run right after the kill.
    @Test func theNextWriterFinishesAKilledImport() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let vault = try Self.vault(q, "killed")
        let killed = try q.run(["import", "anki", Self.deck], environment: ["QUIRE_CRASH_AT": "staged-move:300"], workingDirectory: vault)
        #expect(killed.status == 9)
        #expect(Self.notes(vault).count == 299)
        try Data("Q: A new card?\nA: Yes.\n".utf8).write(to: vault.appendingPathComponent("new.md"))
        let tagged = try q.run(["tag", "add", "fresh", "path:new.md"], workingDirectory: vault)
        #expect(tagged.status == 0, "\(tagged)")
        #expect(Self.notes(vault).count == Self.notes + 1)
    }

    /// Notes removed from the vault and imported again come back without a second copy of their
    /// history: each imported event's ID comes from what it records.
    @Test func importingRemovedNotesAgainLogsNoEventTwice() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let vault = try Self.vault(q, "fresh")
        #expect(try q.run(["import", "anki", Self.deck], workingDirectory: vault).status == 0)
        let sets = try Self.logged("set", in: vault)
        let answered = Self.notes(vault).keys.sorted().filter { path in
            (try? String(contentsOf: vault.appendingPathComponent(path), encoding: .utf8))?.contains("reps: ") == true
        }.prefix(20)
        #expect(answered.count == 20)
        for path in answered { try FileManager.default.removeItem(at: vault.appendingPathComponent(path)) }
        let again = try q.run(["import", "anki", Self.deck], workingDirectory: vault)
        #expect(again.stdout.contains("Imported 20 cards in 20 notes, 0 reviews") && again.stdout.contains("events already in the log left out"),
                "\(again)")
        #expect(try Self.logged("grade", in: vault) == Self.grades)
        #expect(try Self.logged("set", in: vault) == sets)
        #expect(try q.run(["replay", "--check"], workingDirectory: vault).status == 0)
    }

    /// A CSV import killed midway (one note a deck: killed after the first of three), finished by
    /// the next command.
    @Test func aKilledCSVImportEndsWhole() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let vault = try Self.vault(q, "fresh")
        let csv = q.vault.deletingLastPathComponent().appendingPathComponent("cards.csv")
        let rows = ["Question,Answer,Deck"] + (0..<300).map { "Question \($0)?,Answer \($0),Deck\($0 % 3)" }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: csv)
        let killed = try q.run(["import", "csv", csv.path], environment: ["QUIRE_CRASH_AT": "staged-move:1"], workingDirectory: vault)
        #expect(killed.status == 9)
        #expect(Self.notes(vault).count == 1)
        #expect(try q.run(["list", "--count"], workingDirectory: vault).stdout == "300\n")
        let again = try q.run(["import", "csv", csv.path], workingDirectory: vault)
        #expect(again.status == 0, "\(again)")
        #expect(try q.run(["list", "--count"], workingDirectory: vault).stdout == "300\n")
    }
}
