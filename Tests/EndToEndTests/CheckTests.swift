import Foundation
import Testing

/// `quire check` and `quire init` on vaults with problems.
@Suite struct CheckTests {
    @Test func everyProblemIsReportedWithItsLocation() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Broken/yaml.md", Data("---\ntitle: ok\ntags: [a, b\n---\nQ: x?\nA: y\n".utf8))
        try q.write("Broken/unclosed.md", Data("---\ntitle: Fence\n".utf8))
        try q.write("Broken/cloze.md", Data("# Cloze\n\nThe {{c1::mitochondrion is here.\n\nEmpty {{c2::}} one.\n".utf8))
        try q.write("Broken/binary.md", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01]))
        try q.write("Broken/latin1.md", Data([0x63, 0x61, 0x66, 0xE9, 0x0A]))
        try q.write("Broken/question.md", Data("Q: Where is the answer?\n\nJust prose.\n".utf8))
        try q.write("Broken/types.md", Data("---\ncycle: hourly\narchived: maybe\ncreated: yesterday\n---\nx :: y\n".utf8))
        let r = try q.run(["check"])
        try Golden.check(r.description, "check-broken")
        #expect(r.status == 1)
        // The good notes are still listed, and the listing reports the errors on stderr and exits 1.
        let list = try q.run(["list", "--count", "--now", QuireRunner.now])
        #expect(list.status == 1)
        #expect(Int(list.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 140)
        let json = try q.run(["check", "--json"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.contains { ($0["path"] as? String) == "Broken/yaml.md" && ($0["line"] as? Int) == 4 } == true)
    }

    /// Paths where users type paths: `check` takes notes or folders; a query-taking command takes
    /// the paths the shell expands (`Broken/*.md`) as `path:` terms.
    /// A killed `config set` leaves its temporary file in `.quire/`, which is not scanned: check
    /// names it all the same, and the next change of the settings removes it.
    @Test func aKilledSettingsWriteIsReported() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        // Its writer, process 4,194,304, is past any running one.
        let left = ".quire/.config.yaml.quire-4194304-77.tmp"
        try q.write(left, Data("new_per_day: 1\n".utf8))
        let check = try q.run(["check", "--no-cache"])
        #expect((check.stdout + check.stderr).contains(left + ": warning: temporary file left by a quire process that was killed"), "\(check)")
        #expect(try q.run(["config", "set", "new_per_day", "17"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: q.vault.appendingPathComponent(left).path))
    }

    @Test func pathsWhereUsersTypePaths() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Broken/cloze.md", Data("# Cloze\n\nThe {{c1::mitochondrion is here.\n".utf8))
        try q.write("Good/a.md", Data("What is ATP? :: energy\n".utf8))
        try q.write("Good/b.md", Data("What is DNA? :: genes\n".utf8))
        let good = try q.run(["check", "Good/a.md", "Good"])
        #expect(good.status == 0 && good.stderr.contains("checked 2 notes, 2 cards: 0 errors"), "\(good)")
        let broken = try q.run(["check", "Broken"])
        #expect(broken.status == 1 && broken.stdout.contains("Broken/cloze.md:3"), "\(broken)")
        let missing = try q.run(["check", "Nowhere.md"])
        #expect(missing.status != 0 && missing.stderr.contains("no note or folder 'Nowhere.md' in the vault"), "\(missing)")
        let list = try q.run(["list", "Good/a.md", "Good/b.md", "--now", QuireRunner.now])
        #expect(list.stdout.contains("What is ATP?") && list.stdout.contains("What is DNA?"), "\(list)")
        let one = try q.run(["list", "Good/b.md", "--now", QuireRunner.now])
        #expect(!one.stdout.contains("What is ATP?") && one.stdout.contains("What is DNA?"), "\(one)")
    }

    /// The plain review quotes a note embed in place, found as Obsidian finds the note.
    @Test func thePlainReviewQuotesANoteEmbed() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Ref/Glossary.md", Data("# Glossary\n\n## Bias\n\nError from wrong assumptions.\n\n## Variance\n\nSpread.\n".utf8))
        try q.write("Course/ML/a.md", Data("What is bias? :: ![[Glossary#Bias]]\n".utf8))
        let r = try q.run(["review", "--plain", "path:Course/ML/a.md", "--now", QuireRunner.now], stdin: "\nq\n")
        #expect(r.stdout.contains("A: │ Error from wrong assumptions.") && !r.stdout.contains("Spread"), "\(r)")
    }

    /// `check --verbose` and `show` say where each card's back ends (FORMAT.md §3.1).
    @Test func verboseCheckAndShowGiveEachCardsLines() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Code/answer.md", Data("Q: Capital?\nA: Paris\n\n```\nunrelated()\n```\n\nWhat prints hi?\n?\n```\nprint('hi')\n```\n".utf8))
        let r = try q.run(["check", "--verbose"])
        let lines = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Code/answer.md") }
        #expect(lines.count == 2)
        #expect(lines.first?.contains(", lines 1–2: Capital?") == true)
        #expect(lines.last?.contains(", lines 8–12: What prints hi?") == true)
        let id = try #require(lines.last?.split(separator: " ").dropFirst(2).first)
        let show = try q.run(["show", String(id)])
        #expect(show.stdout.contains("Code/answer.md:8-12  (the card's back ends at line 12)"))
    }

    /// `init` in an Obsidian vault says that highlights become cloze cards and how to keep them
    /// text; a plain folder hears nothing of it.
    @Test func initInAnObsidianVaultSaysWhatHighlightsBecome() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let obsidian = base.appendingPathComponent("obsidian"), withPlugin = base.appendingPathComponent("plugin")
        try FileManager.default.createDirectory(at: obsidian.appendingPathComponent(".obsidian"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: withPlugin.appendingPathComponent(".obsidian/plugins/obsidian-spaced-repetition"),
                                                withIntermediateDirectories: true)
        let plain = try q.run(["init", obsidian.path])
        #expect(plain.status == 0 && plain.stdout.contains("==highlights== is a cloze card") && plain.stdout.contains("set card_syntax: obsidian-sr"),
                "\(plain)")
        let plugin = try q.run(["init", withPlugin.path])
        #expect(plugin.stdout.contains("(card_syntax: obsidian-sr)") && plugin.stdout.contains("convertHighlightsToClozes"), "\(plugin)")
        let fresh = try q.run(["init", base.appendingPathComponent("plain").path])
        #expect(fresh.status == 0 && !fresh.stdout.contains("highlights"), "\(fresh)")
    }

    @Test func initCreatesTheVaultFolder() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let dir = q.vault.deletingLastPathComponent().appendingPathComponent("fresh")
        let r = try q.run(["init", dir.path])
        #expect(r.status == 0)
        let fm = FileManager.default
        #expect(fm.fileExists(atPath: dir.appendingPathComponent(".quire/config.yaml").path))
        #expect(fm.fileExists(atPath: dir.appendingPathComponent(".quire/log").path))
        #expect(fm.fileExists(atPath: dir.appendingPathComponent(".quire/cache").path))
        let ignore = try String(contentsOf: dir.appendingPathComponent(".gitignore"), encoding: .utf8)
        #expect(ignore == ".quire/cache/\n.quire/device\n.quire/journal\n.quire/lock\n")
        let attributes = try String(contentsOf: dir.appendingPathComponent(".gitattributes"), encoding: .utf8)
        #expect(attributes == ".quire/log/*.log merge=union\n.quire/curation/*.log merge=union\n")
        let again = try q.run(["init", dir.path])
        #expect(again.status != 0)
        #expect(again.stderr.contains("already a Quire vault"))
        // A folder without .quire/ works read-only with defaults.
        try Data("Term :: definition\n".utf8).write(to: dir.appendingPathComponent("n.md"))
        let plain = try q.run(["list", "--count"], workingDirectory: dir)
        #expect(plain.stdout == "1\n")
    }
}
