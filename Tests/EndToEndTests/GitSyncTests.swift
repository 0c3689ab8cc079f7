import Foundation
import Testing
import QuireTestSupport

/// Two (or three) clones of one vault with real git and a local bare repository: reviews on
/// several devices merge without conflicts on scheduling lines and without a lost review
/// (FORMAT.md §6.3).
@Suite(.serialized, .requires(.git), .tags(.slow)) struct GitSyncTests {
    /// A bare origin and clones of it, each a vault with the merge driver registered.
    struct Clones {
        let runner: QuireRunner
        let base: URL

        init() throws {
            runner = try QuireRunner()
            base = runner.vault.deletingLastPathComponent()
            try git(["init", "-q", "--bare", "origin.git"], in: base)
            try git(["clone", "-q", "origin.git", "a"], in: base)
            try configure("a")
            try write("a", "n.md", "---\ntitle: N\n---\n\nAlpha :: first\n\nBeta :: second\n\nGamma :: third\n")
            let initialized = try quire(["init", "."], in: "a")
            #expect(initialized.stdout.contains("merge driver 'quire' set"))
            try git(["add", "-A"], in: "a")
            try git(["commit", "-q", "-m", "init"], in: "a")
            try git(["push", "-q", "origin", "HEAD"], in: "a")
        }

        func cleanUp() { runner.cleanUp() }

        func url(_ clone: String) -> URL { base.appendingPathComponent(clone) }

        /// Clones origin as `name` and registers the driver there (git does not copy it).
        func clone(_ name: String) throws {
            try git(["clone", "-q", "origin.git", name], in: base)
            try configure(name)
            #expect(try quire(["git", "setup"], in: name).status == 0)
        }

        func configure(_ clone: String) throws {
            try git(["config", "user.email", "\(clone)@example.org"], in: clone)
            try git(["config", "user.name", clone], in: clone)
        }

        @discardableResult
        func git(_ args: [String], in clone: String, allowFailure: Bool = false) throws -> QuireRunner.Result {
            try git(args, in: url(clone), allowFailure: allowFailure)
        }

        @discardableResult
        func git(_ args: [String], in directory: URL, allowFailure: Bool = false) throws -> QuireRunner.Result {
            let result = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + args, in: directory,
                                                 environment: ["GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"])
            if !allowFailure, result.status != 0 { throw TestFailure("git \(args.joined(separator: " ")): \(result)") }
            return result
        }

        @discardableResult
        func quire(_ args: [String], in clone: String) throws -> QuireRunner.Result {
            try runner.run(args, workingDirectory: url(clone))
        }

        func write(_ clone: String, _ path: String, _ text: String) throws {
            try Data(text.utf8).write(to: url(clone).appendingPathComponent(path))
        }

        func read(_ clone: String, _ path: String) throws -> String {
            String(decoding: try Data(contentsOf: url(clone).appendingPathComponent(path)), as: UTF8.self)
        }

        func grade(_ clone: String, _ card: String, _ rating: String, at time: String) throws {
            let graded = try quire(["grade", card, rating, "--at", time], in: clone)
            #expect(graded.status == 0, "\(graded)")
        }

        func commitAll(_ clone: String, _ message: String) throws {
            try git(["add", "-A"], in: clone)
            try git(["commit", "-q", "-m", message], in: clone)
        }

        func commitAndPush(_ clone: String, _ message: String) throws {
            try commitAll(clone, message)
            try git(["push", "-q", "origin", "HEAD"], in: clone)
        }

        /// Pulls with a merge or a rebase; the result of git.
        func pull(_ clone: String, rebase: Bool) throws -> QuireRunner.Result {
            try git(["pull", rebase ? "--rebase" : "--no-rebase", "origin", "HEAD"], in: clone, allowFailure: true)
        }

        /// `quire check`'s summary and `quire replay --dry-run`'s, which must agree with the log.
        func expectAgreesWithTheLog(_ clone: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let check = try quire(["check"], in: clone)
            #expect(check.status == 0 && (check.stdout + check.stderr).contains(" 0 errors, 0 warnings"), "\(check)",
                    sourceLocation: sourceLocation)
            let replay = try quire(["replay", "--dry-run"], in: clone)
            #expect((replay.stdout + replay.stderr).contains(" 0 differ"), "\(replay)", sourceLocation: sourceLocation)
        }
    }

    static let alpha = "chfb2reefpmb", beta = "8rarmg1vrs4v", gamma = "bnhx54sckbcs"

    /// Each device reviews disjoint and overlapping cards of one note and edits its text; the
    /// second to push merges (or rebases) without a conflict, every review counts, and both
    /// devices end with the same note, the one replaying the combined log gives.
    @Test(arguments: [false, true])
    func overlappingReviewsMergeWithoutConflict(rebase: Bool) throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.grade("a", Self.alpha, "good", at: "2026-11-20T10:00:00Z")
        try c.grade("a", Self.gamma, "again", at: "2026-11-21T10:00:00Z")
        try c.grade("a", Self.alpha, "good", at: "2026-11-21T10:05:00Z")
        try c.write("a", "n.md", try c.read("a", "n.md").replacingOccurrences(of: "third", with: "third, edited on A"))
        try c.commitAndPush("a", "a")

        try c.grade("b", Self.beta, "good", at: "2026-11-20T11:00:00Z")
        try c.grade("b", Self.gamma, "good", at: "2026-11-21T12:00:00Z")
        try c.grade("b", Self.alpha, "hard", at: "2026-11-21T09:00:00Z")
        try c.write("b", "n.md", try c.read("b", "n.md").replacingOccurrences(of: "first", with: "first, edited on B"))
        try c.commitAll("b", "b")
        let pulled = try c.pull("b", rebase: rebase)
        #expect(pulled.status == 0, "\(pulled)")
        #expect(!(pulled.stdout + pulled.stderr).contains("CONFLICT"))
        #expect(pulled.stderr.contains("2 card(s) reviewed on both sides"))
        try c.git(["push", "-q", "origin", "HEAD"], in: "b")
        #expect(try c.pull("a", rebase: rebase).status == 0)

        let note = try c.read("b", "n.md")
        #expect(try c.read("a", "n.md") == note)
        #expect(note.contains("first, edited on B") && note.contains("third, edited on A"))
        #expect(!note.contains("<<<<<<<") && !note.contains("quire-merge-placeholder"))
        // Alpha: reviewed twice on A and once on B, Gamma once on each: every review counted.
        #expect(note.contains("\(Self.alpha): {") && note.contains("reps: 3"))
        #expect(note.contains("\(Self.gamma): {") && note.contains("reps: 2"))
        #expect(note.contains("\(Self.beta): {"))
        for clone in ["a", "b"] { try c.expectAgreesWithTheLog(clone) }
    }

    /// Without the driver (a clone that never ran `quire git setup`), git merges notes as text: the
    /// blank line after each scheduling line keeps two devices' reviews of different cards apart,
    /// a new card's line included, so the merge still has no conflict (FORMAT.md §5).
    @Test func withoutTheDriverReviewsOfDifferentCardsStillMerge() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.grade("a", Self.alpha, "good", at: "2026-11-19T10:00:00Z")
        try c.grade("a", Self.beta, "good", at: "2026-11-19T10:01:00Z")
        try c.commitAndPush("a", "first reviews")
        try c.git(["config", "--unset", "merge.quire.driver"], in: "a")
        try c.git(["clone", "-q", "origin.git", "b"], in: c.base)
        try c.configure("b")
        #expect(try c.git(["config", "merge.quire.driver"], in: "b", allowFailure: true).status != 0)

        try c.grade("a", Self.alpha, "hard", at: "2026-11-21T10:00:00Z")
        try c.commitAndPush("a", "alpha again")
        try c.grade("b", Self.beta, "easy", at: "2026-11-22T10:00:00Z")
        try c.grade("b", Self.gamma, "good", at: "2026-11-22T10:01:00Z")
        try c.commitAll("b", "beta again, gamma new")
        let pulled = try c.pull("b", rebase: false)
        #expect(pulled.status == 0, "\(pulled)")
        let note = try c.read("b", "n.md")
        #expect(!note.contains("<<<<<<<"))
        for card in [Self.alpha, Self.beta, Self.gamma] { #expect(note.contains("\(card): {")) }
        try c.expectAgreesWithTheLog("b")
    }

    /// The other device changed its settings before reviewing: its grades are replayed with the
    /// settings they were made with, read from the commit being merged (git writes the new
    /// snapshot file only after the merge driver has run).
    @Test func theOtherSidesSettingsReplayItsGrades() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.write("b", ".quire/config.yaml", "learning_steps: []\n")
        try c.grade("b", Self.alpha, "good", at: "2026-11-20T10:00:00Z")
        try c.commitAndPush("b", "no learning steps")
        // Half an hour later (the first grade's state decides the second's result): under B's
        // settings the card went straight to review, under A's it would be learning.
        try c.grade("a", Self.alpha, "good", at: "2026-11-20T10:30:00Z")
        try c.commitAll("a", "review")
        let pulled = try c.pull("a", rebase: false)
        #expect(pulled.status == 0, "\(pulled)")
        #expect(pulled.stderr.contains("scheduled from both review logs"), "\(pulled)")
        try c.expectAgreesWithTheLog("a")
    }

    /// Settings that hold an error when git merges: the merge goes on (a driver that refused would
    /// stop git mid-merge) and says, located, that the default settings scheduled the cards.
    @Test func brokenSettingsAreSaidWhenAMergeReplays() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.grade("b", Self.alpha, "good", at: "2026-11-20T10:00:00Z")
        try c.commitAndPush("b", "review on b")
        try c.grade("a", Self.alpha, "good", at: "2026-11-20T10:30:00Z")
        try c.commitAll("a", "review on a")
        try c.write("a", ".quire/config.yaml", "learning_steps: [1m\n")
        let pulled = try c.pull("a", rebase: false)
        #expect(pulled.status == 0, "\(pulled)")
        #expect(pulled.stderr.contains("quire: warning: .quire/config.yaml:") && pulled.stderr.contains("scheduled with the default settings"),
                "\(pulled)")
    }

    /// A note renamed on one device while the other reviews it: the reviews follow the note.
    @Test func aRenameOnOneSideKeepsTheOthersReviews() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.git(["mv", "n.md", "renamed.md"], in: "a")
        try c.commitAndPush("a", "rename")
        try c.grade("b", Self.alpha, "good", at: "2026-11-20T10:00:00Z")
        try c.grade("b", Self.gamma, "easy", at: "2026-11-20T11:00:00Z")
        try c.commitAll("b", "review")
        let pulled = try c.pull("b", rebase: false)
        #expect(pulled.status == 0, "\(pulled)")
        let note = try c.read("b", "renamed.md")
        #expect(note.contains("\(Self.alpha): {") && note.contains("\(Self.gamma): {"))
        #expect(!FileManager.default.fileExists(atPath: c.url("b").appendingPathComponent("n.md").path))
        try c.expectAgreesWithTheLog("b")
    }

    /// One device edits a note's text, the other renames it and reviews its cards, so that git,
    /// whose rename detection weighs the scheduling lines, sees a delete: the sync keeps both —
    /// the new name with the edited text and every review — in a merge and in a rebase.
    @Test(arguments: [false, true])
    func aRenameAndAnEditOnTwoDevicesBothSurvive(rebase: Bool) throws {
        let c = try Clones()
        defer { c.cleanUp() }
        let branch = try c.git(["branch", "--show-current"], in: "a").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try c.git(["branch", "-q", "-u", "origin/" + branch], in: "a")
        try c.clone("b")
        try c.write("a", "n.md", try c.read("a", "n.md").replacingOccurrences(of: "Beta :: second", with: "Beta :: the second letter"))
        #expect(try c.quire(["sync"], in: "a").status == 0)
        for (card, time) in [(Self.alpha, "10"), (Self.gamma, "11")] {
            try c.grade("b", card, "good", at: "2026-11-20T\(time):00:00Z")
        }
        try c.git(["mv", "n.md", "letters.md"], in: "b")
        let synced = try c.quire(["sync"] + (rebase ? ["--rebase"] : ["--merge"]), in: "b")
        #expect(synced.status == 0, "\(synced)")
        #expect(synced.stdout.contains("kept the rename of n.md to letters.md with the other side's changes"), "\(synced)")
        #expect(!FileManager.default.fileExists(atPath: c.url("b").appendingPathComponent("n.md").path))
        let note = try c.read("b", "letters.md")
        #expect(note.contains("Beta :: the second letter"), "\(note)")
        #expect(note.contains("\(Self.alpha): {") && note.contains("\(Self.gamma): {"), "\(note)")
        try c.expectAgreesWithTheLog("b")
        #expect(try c.quire(["sync"], in: "a").status == 0)
        #expect(try c.read("a", "letters.md") == note)
    }

    /// The same, met through a plain `git pull`: `quire resolve --theirs` (or `--ours`) keeps the
    /// rename and the other side's edit, instead of bringing the old name back.
    @Test func resolveKeepsARename() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.write("a", "n.md", try c.read("a", "n.md").replacingOccurrences(of: "Beta :: second", with: "Beta :: the second letter"))
        try c.commitAndPush("a", "edit")
        for (card, time) in [(Self.alpha, "10"), (Self.gamma, "11")] {
            try c.grade("b", card, "good", at: "2026-11-20T\(time):00:00Z")
        }
        try c.git(["mv", "n.md", "letters.md"], in: "b")
        try c.commitAll("b", "rename and review")
        let pulled = try c.pull("b", rebase: false)
        #expect(pulled.status != 0, "git sees a delete: \(pulled)")
        let resolved = try c.quire(["resolve", "n.md", "--theirs"], in: "b")
        #expect(resolved.status == 0 && resolved.stdout.contains("kept the rename of n.md to letters.md"), "\(resolved)")
        #expect(try c.git(["commit", "-q", "--no-edit"], in: "b").status == 0)
        #expect(!FileManager.default.fileExists(atPath: c.url("b").appendingPathComponent("n.md").path))
        let note = try c.read("b", "letters.md")
        #expect(note.contains("Beta :: the second letter") && note.contains("\(Self.alpha): {") && note.contains("\(Self.gamma): {"), "\(note)")
        try c.expectAgreesWithTheLog("b")
    }

    /// A text conflict is left to the user, in the body only; the schedule is already right, and
    /// stays right once the user has chosen.
    @Test func aTextConflictIsTheUsersAndTheScheduleStaysRight() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.grade("a", Self.beta, "good", at: "2026-11-20T10:00:00Z")
        try c.write("a", "n.md", try c.read("a", "n.md").replacingOccurrences(of: "second", with: "second (A's words)"))
        try c.commitAndPush("a", "a")
        try c.grade("b", Self.beta, "again", at: "2026-11-20T11:00:00Z")
        try c.write("b", "n.md", try c.read("b", "n.md").replacingOccurrences(of: "second", with: "second (B's words)"))
        try c.commitAll("b", "b")
        let pulled = try c.pull("b", rebase: false)
        #expect(pulled.status != 0)
        let conflicted = try c.read("b", "n.md")
        let frontMatter = conflicted.components(separatedBy: "\n---\n").first ?? ""
        #expect(!frontMatter.contains("<<<<<<<"), "scheduling lines are never in conflict")
        #expect(conflicted.contains("<<<<<<<") && conflicted.contains("(A's words)") && conflicted.contains("(B's words)"))
        #expect(conflicted.contains("reps: 2"))
        // The user keeps B's words.
        var lines = conflicted.components(separatedBy: "\n")
        if let start = lines.firstIndex(where: { $0.hasPrefix("<<<<<<<") }), let middle = lines.firstIndex(of: "======="),
           let end = lines.firstIndex(where: { $0.hasPrefix(">>>>>>>") }) {
            lines.removeSubrange(middle...end)
            lines.remove(at: start)
        }
        try c.write("b", "n.md", lines.joined(separator: "\n"))
        try c.commitAll("b", "merge, B's words")
        #expect(try c.read("b", "n.md").contains("second (B's words)"))
        try c.expectAgreesWithTheLog("b")
    }

    /// `quire check` explains a conflicted note (no raw YAML error, no "cards gone"), and
    /// `quire resolve` finishes it: the chosen side's text, the schedule from the log, `git add`.
    @Test func checkExplainsAndResolveFinishesAConflict() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.grade("a", Self.gamma, "good", at: "2026-11-20T10:00:00Z")
        try c.write("a", "n.md", try c.read("a", "n.md").replacingOccurrences(of: "title: N", with: "title: From A"))
        try c.commitAndPush("a", "a")
        try c.grade("b", Self.gamma, "hard", at: "2026-11-20T12:00:00Z")
        try c.write("b", "n.md", try c.read("b", "n.md").replacingOccurrences(of: "title: N", with: "title: From B"))
        try c.commitAll("b", "b")
        #expect(try c.pull("b", rebase: false).status != 0)
        let check = try c.quire(["check"], in: "b")
        #expect(check.status == 1)
        let said = check.stdout + check.stderr
        #expect(said.contains("n.md:2:1: error: unresolved merge conflict (lines 2–6)"), "\(check)")
        #expect(!said.contains("no longer in the vault"))
        let refused = try c.quire(["resolve", "n.md"], in: "b")
        #expect(refused.status != 0 && refused.stderr.contains("conflict markers left at lines 2–6"))
        let resolved = try c.quire(["resolve", "n.md", "--theirs"], in: "b")
        #expect(resolved.status == 0, "\(resolved)")
        #expect(resolved.stdout.contains("marked resolved in git"))
        let note = try c.read("b", "n.md")
        #expect(note.contains("title: From A") && !note.contains("From B") && !note.contains("<<<<<<<"))
        #expect(note.contains("reps: 2"))
        try c.git(["commit", "-q", "--no-edit"], in: "b")
        try c.expectAgreesWithTheLog("b")
    }

    /// `quire sync` on two devices, in either order and with either pull mode: every review and
    /// edit arrives on both, the notes end identical and agree with the merged log.
    @Test(arguments: [false, true])
    func syncBothWays(rebase: Bool) throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.git(["branch", "-q", "-u", "origin/" + (try c.git(["branch", "--show-current"], in: "a").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines))], in: "a")
        try c.git(["clone", "-q", "origin.git", "b"], in: c.base)
        try c.configure("b")
        let mode = rebase ? ["--rebase"] : []
        try c.grade("a", Self.alpha, "good", at: "2026-11-20T10:00:00Z")
        try c.grade("b", Self.alpha, "again", at: "2026-11-20T11:00:00Z")
        try c.grade("b", Self.beta, "good", at: "2026-11-20T11:05:00Z")
        try c.write("b", "n.md", try c.read("b", "n.md") + "\nDelta :: fourth\n")

        let dry = try c.quire(["sync", "--dry-run"] + mode, in: "a")
        #expect(dry.status == 0 && dry.stdout.contains("would commit: quire sync: 1 review, 1 note edited"), "\(dry)")
        #expect(try c.git(["status", "--porcelain"], in: "a").stdout.contains("n.md"), "a dry run commits nothing")

        let first = try c.quire(["sync"] + mode, in: "a")
        #expect(first.status == 0 && first.stdout.contains("pushed to origin/"), "\(first)")
        // B takes its pull mode from git's configuration, as `git pull` would.
        if rebase { try c.git(["config", "pull.rebase", "true"], in: "b") }
        let second = try c.quire(["sync"], in: "b")
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains(rebase ? "rebase (git config pull.rebase)\n" : "\nmerged origin/"), "\(second)")
        #expect(second.stdout.contains(rebase ? "rebased onto origin/" : "merged origin/"), "\(second)")
        #expect(second.stdout.contains("merge driver 'quire' set"), "the clone registers the driver on its first sync")
        #expect(second.stdout.contains("committed: quire sync: 2 reviews, 1 note edited"))
        #expect(try c.quire(["sync"] + mode, in: "a").status == 0)
        let note = try c.read("a", "n.md")
        #expect(try c.read("b", "n.md") == note)
        #expect(note.contains("Delta :: fourth") && note.contains("\(Self.beta): {"))
        #expect(note.contains("reps: 2"), "Alpha: one review on each device")
        for clone in ["a", "b"] {
            try c.expectAgreesWithTheLog(clone)
            #expect(try c.git(["status", "--porcelain"], in: clone).stdout.isEmpty)
        }
        #expect(try c.quire(["sync"] + mode, in: "b").stdout.contains("nothing to commit"))
    }

    /// A note named like an option (`--output=x.md`), changed on both devices: git hands its path
    /// (%P) to the driver after `--`, so the driver merges it rather than exiting 64 on an
    /// unknown option. A clone whose driver was registered without `--` is registered again.
    @Test func aNoteNamedLikeAnOptionMerges() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        let branch = try c.git(["branch", "--show-current"], in: "a").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try c.git(["branch", "-q", "-u", "origin/" + branch], in: "a")
        let name = "--output=x.md"
        try c.write("a", name, "---\ntitle: O\n---\n\nOne :: first\n\nText one.\n\nText two.\n")
        try c.commitAndPush("a", "a note named like an option")
        try c.clone("b")
        // An older registration, without `--`: the next sync registers it again.
        let old = try c.git(["config", "merge.quire.driver"], in: "b").stdout.replacingOccurrences(of: " -- ", with: " ")
        try c.git(["config", "merge.quire.driver", old.trimmingCharacters(in: .whitespacesAndNewlines)], in: "b")
        try c.write("a", name, try c.read("a", name).replacingOccurrences(of: "Text one.", with: "Text one, from a."))
        try c.write("b", name, try c.read("b", name).replacingOccurrences(of: "Text two.", with: "Text two, from b."))
        #expect(try c.quire(["sync"], in: "a").status == 0)
        let synced = try c.quire(["sync"], in: "b")
        #expect(synced.status == 0 && synced.stdout.contains("merged origin/"), "\(synced)")
        #expect(synced.stdout.contains("merge driver 'quire' set"), "\(synced)")
        let merged = try c.read("b", name)
        #expect(merged.contains("Text one, from a.") && merged.contains("Text two, from b.") && !merged.contains("<<<<<<<"), "\(merged)")
        #expect(try c.git(["config", "merge.quire.driver"], in: "b").stdout.contains(" merge-driver -- %O %A %B %P"))
    }

    /// Another device pushes between this sync's fetch and its push: the push is refused, and the
    /// sync pulls again and pushes.
    @Test func aPushRefusedBecauseTheRemoteMovedOn() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.git(["branch", "-q", "-u", "origin/" + (try c.git(["branch", "--show-current"], in: "a").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines))], in: "a")
        try c.clone("b")
        try c.grade("a", Self.alpha, "good", at: "2026-11-20T10:00:00Z")
        try c.commitAll("a", "a")
        // The first push from b first lets a push (once): b's push then finds the remote moved on.
        let hook = c.url("b").appendingPathComponent(".git/hooks/pre-push")
        let marker = c.base.appendingPathComponent("hook-ran").path
        try Data("""
            #!/bin/sh
            if [ ! -e '\(marker)' ]; then touch '\(marker)'; git -C '\(c.url("a").path)' push -q origin HEAD; fi
            exit 0

            """.utf8).write(to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
        try c.grade("b", Self.beta, "good", at: "2026-11-20T11:00:00Z")
        let synced = try c.quire(["sync"], in: "b")
        #expect(synced.status == 0, "\(synced)")
        #expect(synced.stdout.contains("the remote moved on meanwhile: pulling again"), "\(synced)")
        #expect(synced.stdout.hasSuffix("pushed to origin/" + (try c.git(["branch", "--show-current"], in: "b").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)) + "\n"))
        let note = try c.read("b", "n.md")
        #expect(note.contains("\(Self.alpha): {") && note.contains("\(Self.beta): {"))
        try c.expectAgreesWithTheLog("b")
    }

    /// A conflict in a note's text stops the sync with what to do, and nothing is lost.
    @Test func aSyncStoppedByAConflictSaysHowToGoOn() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.git(["branch", "-q", "-u", "origin/" + (try c.git(["branch", "--show-current"], in: "a").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines))], in: "a")
        try c.clone("b")
        try c.write("a", "n.md", try c.read("a", "n.md").replacingOccurrences(of: "second", with: "two"))
        #expect(try c.quire(["sync"], in: "a").status == 0)
        try c.write("b", "n.md", try c.read("b", "n.md").replacingOccurrences(of: "second", with: "2nd"))
        let stopped = try c.quire(["sync"], in: "b")
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("conflicts in the notes' text") && stopped.stderr.contains("n.md"))
        #expect(stopped.stderr.contains("quire resolve NOTE") && stopped.stderr.contains("git merge --abort"))
        let again = try c.quire(["sync"], in: "b")
        #expect(again.status == 1 && again.stderr.contains("a merge is under way"))
        #expect(try c.quire(["resolve", "n.md", "--ours"], in: "b").status == 0)
        try c.git(["commit", "-q", "--no-edit"], in: "b")
        let finished = try c.quire(["sync"], in: "b")
        #expect(finished.status == 0, "\(finished)")
        #expect(try c.read("b", "n.md").contains("Beta :: 2nd"))
    }

    /// An undo on one device while the other reviews the same card: the undone review is not
    /// counted, the others are.
    @Test func anUndoOnOneSide() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.grade("a", Self.gamma, "good", at: "2026-11-20T10:00:00Z")
        try c.grade("a", Self.gamma, "easy", at: "2026-11-21T10:00:00Z")
        #expect(try c.quire(["undo"], in: "a").status == 0)
        try c.commitAndPush("a", "a")
        try c.grade("b", Self.gamma, "hard", at: "2026-11-22T10:00:00Z")
        try c.commitAll("b", "b")
        #expect(try c.pull("b", rebase: false).status == 0)
        let note = try c.read("b", "n.md")
        #expect(note.contains("\(Self.gamma): {") && note.contains("reps: 2") && note.contains("last: 2026-11-22T10:00:00Z"))
        try c.expectAgreesWithTheLog("b")
    }

    /// A third device that syncs after the others reviewed for a while gets every review.
    @Test func aLateThirdCloneGetsEveryReview() throws {
        let c = try Clones()
        defer { c.cleanUp() }
        try c.clone("b")
        try c.clone("c")
        for day in 20...26 {
            try c.grade("a", Self.alpha, "good", at: "2026-11-\(day)T08:00:00Z")
            try c.commitAndPush("a", "a \(day)")
            #expect(try c.pull("b", rebase: true).status == 0)
            try c.grade("b", Self.beta, "good", at: "2026-11-\(day)T09:00:00Z")
            try c.commitAndPush("b", "b \(day)")
            #expect(try c.pull("a", rebase: true).status == 0)
        }
        try c.grade("c", Self.alpha, "again", at: "2026-11-22T20:00:00Z")
        try c.commitAll("c", "c")
        let pulled = try c.pull("c", rebase: false)
        #expect(pulled.status == 0, "\(pulled)")
        let note = try c.read("c", "n.md")
        #expect(note.contains("reps: 8"), "seven reviews on A and one on C")
        try c.expectAgreesWithTheLog("c")
    }
}

/// A failed step of a test's set-up.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
