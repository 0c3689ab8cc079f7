import Foundation
import Testing

/// A vault from someone else, run through the real `quire`: nothing in it acts on the terminal,
/// leads a write out of the vault, or blocks a command.
@Suite struct HostileVaultTests {
    /// Escape sequences in a file name, a tag and a card (window title, clipboard, clear screen,
    /// a C1 control) are printed as visible text by every output, and escaped in JSON.
    @Test func escapeSequencesNeverReachTheTerminal() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let name = "Inbox/n\u{1B}[31m.md"
        try q.write(name, Data("---\ntags: [\"\\e]0;pwned\\a\"]\n---\nQ: What \u{1B}]52;c;aGVsbG8=\u{07} is \u{1B}[2J this?\nA: An \u{9B} attack.\n".utf8))
        let list = try q.run(["list", "tag:\u{1B}]0;pwned\u{07}"])
        let tags = try q.run(["tags"])
        let json = try q.run(["list", "--json", "path:Inbox/n*"])
        let id = try #require(list.stdout.split(separator: "\t").first.map(String.init))
        let show = try q.run(["show", id])
        let check = try q.run(["check"])
        for run in [list, tags, json, show, check] {
            for bad in ["\u{1B}]", "\u{1B}[2J", "\u{1B}[31m", "\u{07}", "\u{9B}"] {
                #expect(!run.stdout.contains(bad) && !run.stderr.contains(bad), "\(bad.unicodeScalars.map(\.value)) in \(run)")
            }
        }
        #expect(list.stdout.contains("n^[[31m.md:4\tWhat ^[]52;c;aGVsbG8=^G is ^[[2J this?"))
        #expect(tags.stdout.contains("^[]0;pwned^G"))
        #expect(json.stdout.contains(#""front": "What \u001b]52;c;aGVsbG8=\u0007 is \u001b[2J this?""#))
        #expect(json.stdout.contains(#""back": "An \u009b attack.""#))
        #expect(show.stdout.contains("An <U+009B> attack."))
    }

    /// A log line naming a note outside the vault: `quire grade` by that hint rewrites nothing
    /// outside, and `quire check` reports the line.
    /// One rule for every output and the log: a carriage return on its own (which would send the
    /// cursor back over the line), a colour or conceal sequence (`ESC[8m` hides text), and U+009B
    /// (a one-character CSI) from a note's text or path are shown, in `show`, `check`, `tag add
    /// --dry-run`, `replay --check`, `review --plain`, `curate --plain` and a grade's error; the log
    /// writes U+009B percent-encoded, and reads it back.
    @Test func oneEscapingRuleForEveryOutputAndTheLog() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Esc/cr.md", Data("Q: What is\rHIDDEN this?\nA: An answer\u{1B}[8m secret\n".utf8))
        try q.write("Esc/s\u{1B}[31mred\u{1B}[8m.md", Data("---\ncreated: 2026-10-05\n---\n# Colours\n\nQ: sgr question?\nA: answer\n".utf8))
        try q.write("Esc/c\u{9B}2J.md", Data("Q: csi question?\nA: answer\n".utf8))
        let ids = try q.run(["list", "path:Esc/*"]).stdout.split(separator: "\n").map { $0.split(separator: "\t") }
        func id(_ fragment: String) -> String { ids.first { $0.count > 3 && $0[3].contains(fragment) }.map { String($0[0]) } ?? "" }
        let runs = [
            try q.run(["show", id("cr.md")]),
            try q.run(["check"]),
            try q.run(["tag", "add", "t", "path:Esc/*", "--dry-run"]),
            try q.run(["review", "--plain", "path:Esc/*"], stdin: "\ngood\n\ngood\n\ngood\n"),
            try q.run(["curate", "monthly", "2026-10", "--plain", "--now", "2026-11-22T12:00:00Z"], stdin: "keep\nkeep\nkeep\nkeep\nkeep\n"),
            try q.run(["grade", id("csi"), "good"]),
            try q.run(["replay", "--check"]),
        ]
        for run in runs {
            for bad in ["\r", "\u{1B}[8m", "\u{1B}[31m", "\u{9B}"] {
                #expect(!run.stdout.contains(bad) && !run.stderr.contains(bad), "\(bad.unicodeScalars.map(\.value)) in \(run)")
            }
        }
        #expect(runs[2].stdout.contains("What is^MHIDDEN"), "\(runs[2])")
        #expect(runs[3].stdout.contains("^[[31mred^[[8m.md"), "\(runs[3])")
        // The log holds the path percent-encoded; the review counts, and replays.
        let logs = try FileManager.default.contentsOfDirectory(atPath: q.vault.appendingPathComponent(".quire/log").path)
        let text = try logs.map { try String(contentsOf: q.vault.appendingPathComponent(".quire/log/" + $0), encoding: .utf8) }.joined()
        #expect(text.contains("path=Esc/c%C2%9B2J.md") && !text.contains("\u{9B}"))
        #expect(runs[6].status == 0, "\(runs[6])")
        let shown = try q.run(["list", "path:Esc/c*", "--json"])
        #expect(shown.stdout.contains(#""state": "learning""#) || shown.stdout.contains(#""state": "review""#), "\(shown)")
    }

    @Test func aLogPathOutsideTheVaultIsNotFollowed() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let outsideURL = q.vault.deletingLastPathComponent().appendingPathComponent("outside.md")
        let card = "atbk8qp31xm2"
        let text = "---\nquire:\n  \(card): {state: new}\n---\nThe plasma membrane is a {{c1::phospholipid bilayer}}.\n"
        try Data(text.utf8).write(to: outsideURL)
        try q.write(".quire/log/evil.log", Data("2026-11-22T09:00:00.000Z suspend \(card) path=../outside.md\n2026-11-22T09:00:00.000Z suspend \(card) cfg=../../../../etc/passwd path=/etc/passwd\n".utf8))
        let grade = try q.run(["grade", card, "good", "--at", QuireRunner.now])
        #expect(grade.status == 0, "\(grade)")
        #expect(try Data(contentsOf: outsideURL) == Data(text.utf8))
        let check = try q.run(["check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains(".quire/log/evil.log:1:1: error: path=../outside.md: '..' in the path; event skipped")
            || check.stderr.contains(".quire/log/evil.log:1:1: error: path=../outside.md: '..' in the path; event skipped"), "\(check)")
    }

    /// A FIFO where the index cache, a note or the config should be: every command answers.
    @Test func fifosDoNotBlock() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        _ = try q.run(["list", "--count"])
        let cache = q.vault.appendingPathComponent(".quire/cache/index").path
        try? FileManager.default.removeItem(atPath: cache)
        #expect(mkfifo(cache, 0o644) == 0)
        #expect(mkfifo(q.vault.appendingPathComponent("Inbox/pipe.md").path, 0o644) == 0)
        for args in [["due"], ["list", "--count"], ["check"], ["today"]] {
            let run = try q.run(args)
            #expect(run.status == 0 || run.status == 1, "\(args): \(run)")
        }
        let config = q.vault.appendingPathComponent(".quire/config.yaml").path
        try FileManager.default.removeItem(atPath: config)
        #expect(mkfifo(config, 0o644) == 0)
        // A command that schedules refuses: the defaults instead of the user's settings would be
        // wrong without a word. `check` reports it.
        for args in [["today", "--now", QuireRunner.now], ["due"], ["grade", "atbk8qp31xm2", "good"]] {
            let run = try q.run(args)
            #expect(run.status == 1, "\(args): \(run)")
            #expect(run.stderr.contains("config.yaml: is a FIFO, not a regular file; not read; nothing done"), "\(args): \(run)")
        }
        let check = try q.run(["check"])
        #expect(check.status == 1)
        #expect((check.stdout + check.stderr).contains(".quire/config.yaml: error: is a FIFO, not a regular file; not read; the default settings are used"), "\(check)")
        #expect(!(try q.read(".quire/log/samp1e00.log")).isEmpty)
    }

    /// Every hostile note of the issue at once, each command run under `ulimit -v` (4 GB) with a
    /// time limit: each finishes, the hostile notes are reported, the ordinary ones indexed.
    @Test func hostileNotesUnderAMemoryLimit() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Hostile/cloze.md", Data(((1...32_000).map { "{{c\($0)::w\($0)}}" }.joined(separator: " ") + "\n").utf8))
        var bomb = ["---", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for i in 1...9 { bomb.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]") }
        try q.write("Hostile/bomb.md", Data((bomb + ["---", "q :: a", ""]).joined(separator: "\n").utf8))
        let row = Array(repeating: "c", count: 40_000).joined(separator: "|")
        try q.write("Hostile/wide.md", Data(("a :: b\n\n" + row + "\n" + row.replacingOccurrences(of: "c", with: "-") + "\n").utf8))
        try q.write("Hostile/deep.md", Data((String(repeating: ">", count: 20 << 20) + " x\n").utf8))
        try q.write("Hostile/long.md", Data(("Q: " + String(repeating: "word ", count: 4 << 20) + "\nA: yes\n").utf8))
        func limited(_ args: [String]) throws -> QuireRunner.Result {
            let quoted = args.map { "'" + $0 + "'" }.joined(separator: " ")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -v 4000000; exec timeout 120 '\(QuireRunner.executable.path)' \(quoted)"]
            process.currentDirectoryURL = q.vault
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let (outData, errData) = QuireRunner.finish(process, out: out, err: err)
            return QuireRunner.Result(stdout: String(decoding: outData, as: UTF8.self),
                                      stderr: String(decoding: errData, as: UTF8.self), status: process.terminationStatus)
        }
        let check = try limited(["check", "--no-cache"])
        #expect(check.status == 1, "\(check.stderr.prefix(2000))")
        let all = check.stdout + check.stderr
        #expect(all.contains("Hostile/cloze.md:1:1: error: 32000 cloze numbers"))
        #expect(all.contains("Hostile/wide.md:3:1: error: a line holds more than 1000 '|'"))
        #expect(all.contains("Hostile/deep.md:1:1: error: a line nests more than 100"))
        let tag = try limited(["tag", "add", "seen", "path:Hostile/bomb.md"])
        // Exit 1: the vault holds notes that could not be read; no command was killed or timed out.
        #expect(tag.status == 1 && tag.stdout == "tagged Hostile/bomb.md\n", "\(tag)")
        let list = try limited(["list", "path:Hostile/long.md"])
        let id = try #require(list.stdout.split(separator: "\t").first.map(String.init))
        let show = try limited(["show", id])
        #expect(show.status == 1)
        #expect(show.stdout.contains("more bytes not shown"))
        #expect(show.stdout.utf8.count < 200_000)
    }

    /// Ten thousand cards in one note: `replay --all` writing every card's line and
    /// `import obsidian-sr` migrating every schedule stay linear (one front matter edit for the
    /// note, not one a card: 8,000 cards had taken 309 s). Figures: docs/BENCHMARKS.md.
    @Test func tenThousandCardsInOneNote() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let replayed = base.appendingPathComponent("replayed"), migrated = base.appendingPathComponent("migrated")
        for dir in [replayed, migrated] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            #expect(try q.run(["init"], workingDirectory: dir).status == 0)
        }
        let n = 10_000
        try Data(("# Big\n\n" + (0..<n).map { "Q: question \($0)?\nA: answer \($0)\n\n" }.joined()).utf8)
            .write(to: replayed.appendingPathComponent("big.md"))
        let ids = try q.run(["list"], workingDirectory: replayed).stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first }
        #expect(ids.count == n)
        let log = ["# quire log v1"] + ids.enumerated().map { k, id in
            String(format: "2026-11-01T09:%02d:%02d.%03dZ grade %@ good id=e%09d sched=fsrs ms=1000 path=big.md", k / 60 % 60, k % 60, k / 3600,
                   String(id), k)
        }
        try Data((log.joined(separator: "\n") + "\n").utf8).write(to: replayed.appendingPathComponent(".quire/log/dev00000.log"))
        let replay = try q.run(["replay", "--all"], workingDirectory: replayed)
        #expect(replay.status == 0 && replay.stderr.contains("\(n) differ; rewrote 1 note"), "\(replay.stderr.suffix(300))")
        let check = try q.run(["replay", "--check"], workingDirectory: replayed)
        #expect(check.status == 0 && check.stderr.contains(", 0 differ"), "\(check)")
        try Data(("#flashcards\n\n" + (0..<n).map { "Question \($0)::Answer \($0)\n<!--SR:!2026-12-\(String(format: "%02d", 1 + $0 % 28)),\(3 + $0 % 20),250-->\n\n" }
            .joined()).utf8).write(to: migrated.appendingPathComponent("deck.md"))
        let dry = try q.run(["import", "obsidian-sr", "--dry-run"], workingDirectory: migrated)
        #expect(dry.status == 0 && dry.stdout.contains("Would migrate \(n) cards in 1 note"), "\(dry.stderr)")
        let migrate = try q.run(["import", "obsidian-sr"], workingDirectory: migrated)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(try q.run(["replay", "--check"], workingDirectory: migrated).stderr.contains("\(n) cards replayed, 0 differ"))
    }
}
