import Foundation
import QuireMarkdown
import Testing
@testable import quire
@testable import QuireTerminal

/// A CLI that never surprises (issue 18), through the real binary: typos in options are errors,
/// not queries; ID prefixes in queries; tags that cannot be tags; times that would rewrite history.
@Suite struct CLITests {
    let now = ["--now", QuireRunner.now]

    @Test func anUnknownOptionIsAnErrorWithASuggestion() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        for (args, option, suggestion) in [(["list", "--jsn"], "--jsn", "--json"), (["suspend", "--dryrun", "all"], "--dryrun", "--dry-run"),
                                           (["tag", "add", "x", "--dry-rn"], "--dry-rn", "--dry-run"), (["review", "--ahaed", "3"], "--ahaed", "--ahead"),
                                           (["set", "cycle=weekly", "--dryrun"], "--dryrun", "--dry-run"), (["unset", "cycle", "--jason"], "--jason", "--json")] {
            let r = try q.run(args + now)
            #expect(r.status == 64, "\(args): \(r)")
            if suggestion == "--json" && args[0] == "unset" {
                #expect(r.stderr.contains("unknown option '\(option)'"), "\(r)")
            } else {
                #expect(r.stderr.contains("unknown option '\(option)'; did you mean '\(suggestion)'?"), "\(r)")
            }
        }
        #expect(try q.run(["list", "--completely-unknown"] + now).stderr.contains("unknown option '--completely-unknown' (a query word"))
        // After `--`, a word with dashes is a query word; a leading '-' still negates.
        #expect(try q.run(["list", "--count"] + now + ["--", "--json"]).stdout == "0\n")
        #expect(try q.run(["list", "--count", "-tag:exam"] + now).status == 0)
    }

    /// A misspelt command or help topic is an error naming the nearest one, not "unexpected
    /// argument" (nor, for `help`, the whole list and success); `config` names the nearest setting.
    @Test func anUnknownCommandOrTopicIsAnErrorWithASuggestion() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        for (args, said) in [(["revew"], "unknown command 'revew'; did you mean 'review'?"),
                             (["-C", q.vault.path, "stast"], "unknown command 'stast'; did you mean 'stats'?"),
                             (["import", "ankii", "x.apkg"], "unknown command 'import ankii'; did you mean 'import anki'?"),
                             (["import", "zzz"], "unknown command 'import zzz' (quire import --help lists them)"),
                             (["config", "lst"], "unknown command 'config lst'; did you mean 'config list'?"),
                             (["help", "sheduling"], "no command or help topic 'sheduling'; did you mean 'scheduling'?"),
                             (["help", "xyzzy"], "no command or help topic 'xyzzy' (quire --help lists the commands, quire help topics the topics)"),
                             (["help", "import", "ankii"], "unknown command 'import ankii'; did you mean 'import anki'?")] {
            let r = try q.run(args)
            #expect(r.status == 64 && r.stderr.contains(said) && r.stdout.isEmpty, "\(args): \(r)")
        }
        #expect(try q.run(["help", "review"]).stdout.contains("OVERVIEW: Study"))
        #expect(try q.run(["help", "help"]).status == 0)
        #expect(try q.run(["help", "import", "anki"]).stdout.contains("OVERVIEW: Import an Anki package"))
        #expect(try q.run(["list", "deck:Nosuch"] + now).status == 0)
        let setting = try q.run(["config", "get", "desired-retention"])
        #expect(setting.status == 1 && setting.stderr.contains("no setting 'desired-retention'; did you mean 'desired_retention'?"), "\(setting)")
    }

    @Test func idPrefixesInQueries() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let full = try q.run(["list", "id:h9wx0pmjhph4"] + now).stdout
        #expect(full.contains("Chloroplast"))
        #expect(try q.run(["list", "id:h9wx"] + now).stdout == full)
        #expect(try q.run(["list", "id:h9"] + now).stderr.contains("too short"))
    }

    @Test func aTagThatCannotBeATagIsRefused() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = try snapshot(q)
        let swapped = try q.run(["tag", "add", "deck:Math", "algebra"] + now)
        #expect(swapped.status != 0 && swapped.stderr.contains("'deck:Math' cannot be a tag") && swapped.stderr.contains("quire tag add TAG [QUERY]"), "\(swapped)")
        #expect(try q.run(["tag", "add", "two words"] + now).status != 0)
        #expect(try snapshot(q) == before)
    }

    @Test func timesThatWouldRewriteHistoryAreRefused() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = try snapshot(q)
        // Chloroplast's last review is 2026-11-22T11:40:00Z.
        let early = try q.run(["grade", "h9wx0pmjhph4", "good", "--at", "2026-11-21T09:00:00Z"])
        #expect(early.status != 0 && early.stderr.contains("was last reviewed at 2026-11-22T11:40:00Z"), "\(early)")
        let past = try q.run(["bury", "h9wx", "--until", "2026-11-20T00:00:00Z"] + now)
        #expect(past.status == 64 && past.stderr.contains("is not in the future"), "\(past)")
        #expect(try snapshot(q) == before)
        #expect(try q.run(["replay", "--check"] + now).status == 0)
        #expect(try q.run(["grade", "h9wx0pmjhph4", "good", "--at", "2026-11-22T12:00:00Z"]).status == 0)
    }

    /// Recording reviews in a folder that is no vault would make `.quire/` without the lines of
    /// `.gitignore` that keep this device's files out of git: refused, with what to do.
    @Test func writingOutsideAVaultIsRefusedAndInitDoesNotNest() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quire-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try Data("A :: b\n".utf8).write(to: base.appendingPathComponent("n.md"))
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let id = try q.run(["-C", base.path, "list"]).stdout.prefix { $0 != "\t" }
        let graded = try q.run(["-C", base.path, "grade", String(id), "good"])
        #expect(graded.status != 0 && graded.stderr.contains("is not a Quire vault") && graded.stderr.contains("run 'quire init'"), "\(graded)")
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent(".quire").path))
        #expect(try q.run(["init", base.path]).status == 0)
        let nested = try q.run(["init", base.appendingPathComponent("sub").path])
        #expect(nested.status != 0 && nested.stderr.contains("is inside the vault") && nested.stderr.contains("--nested"), "\(nested)")
        #expect(try q.run(["init", "--nested", base.appendingPathComponent("sub").path]).status == 0)
        #expect(try q.run(["-C", base.path, "grade", String(id), "good"]).status == 0)
    }

    /// `quire due` for a shell prompt: the count alone on standard output, files that could not
    /// be read summed up in one line on standard error, warnings left to `quire check`.
    @Test func dueStaysQuiet() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("bad.md", Data("---\ntitle: [unclosed\n---\nx :: y\n".utf8))
        let due = try q.run(["due"] + now)
        #expect(due.stdout == "8\n", "\(due)")
        #expect(due.stderr == "quire: 1 error in the vault ('quire check' shows them)\n", "\(due)")
        // A warning is `quire check`'s: a prompt does not repeat it at every command.
        try FileManager.default.removeItem(at: q.vault.appendingPathComponent("bad.md"))
        try q.write("warned.md", Data("Q: a question without its answer\n".utf8))
        let quiet = try q.run(["due"] + now)
        #expect(quiet.stdout == "8\n" && quiet.stderr.isEmpty, "\(quiet)")
        #expect(try q.run(["check"] + now).stdout.contains("warned.md:1:1: warning"))
    }

    @Test func wordsMatchWithoutAccentsAndWideTextIsCutByColumns() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Words/w.md", Data("el niño :: the boy\n\nStraße :: street\n\n学习中文很有意思，但是需要很多时间和耐心才能学好，每天都要练习写字和说话 :: long\n".utf8))
        #expect(try q.run(["list", "--count", "path:Words/**", "nino"] + now).stdout == "1\n")
        #expect(try q.run(["list", "--count", "path:Words/**", "NIÑO"] + now).stdout == "1\n")
        #expect(try q.run(["list", "--count", "path:Words/**", "strasse"] + now).stdout == "1\n")
        // A line of the table is cut by columns: a Chinese character takes two.
        let row = "abcd  学习中文很有意思，但是需要很多时间和耐心才能学好"
        let cut = Table.clipped(row, to: 20)
        #expect(TerminalText.width(cut) <= 20 && cut.hasSuffix("…"), "\(cut)")
    }

    @Test func aRepeatedSettingIsReported() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write(".quire/config.yaml", Data("new_per_day: 10\nnew_per_day: 30\n".utf8))
        let check = try q.run(["check"] + now)
        #expect(check.stdout.contains(".quire/config.yaml:2:1: warning: 'new_per_day' is repeated (first at line 1); this later one counts"), "\(check)")
    }

    /// `all` means every card the same way everywhere; a change to everything asks first on a
    /// terminal and needs `--all` in a script.
    @Test func everythingMeansOneThingAndIsConfirmed() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        #expect(try q.run(["list", "all"] + now).stdout == (try q.run(["list"] + now).stdout))
        #expect(try q.run(["list", "--count", "--notes", "all"] + now).stdout == "33\n")
        let before = try snapshot(q)
        for args in [["tag", "add", "everything"], ["tag", "add", "everything", "all"], ["set", "cycle=weekly"], ["unset", "cycle", "all"], ["reset", "all"]] {
            let r = try q.run(args + now, stdin: "")
            #expect(r.status != 0 && r.stderr.contains("pass --all"), "\(args): \(r)")
        }
        #expect(try snapshot(q) == before)
        // A dry run shows it all without asking; --all does it.
        #expect(try q.run(["tag", "add", "everything", "--dry-run"] + now).status == 0)
        let tagged = try q.run(["tag", "add", "everything", "--all"] + now)
        #expect(tagged.status == 0 && tagged.stderr.contains("of 33 matching notes"), "\(tagged)")
        #expect(try q.run(["list", "--notes", "--count", "tag:everything"] + now).stdout == "33\n")
    }

    /// Every file of the vault, by path.
    private func snapshot(_ q: QuireRunner) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = q.vault.path
        guard let e = FileManager.default.enumerator(atPath: root) else { return files }
        // The cache, the lock and the device ID a first write makes are the clone's own bookkeeping.
        for case let path as String in e where !path.hasPrefix(".quire/cache") && path != ".quire/device" && path != ".quire/lock" {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDir), !isDir.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
        }
        return files
    }
}
