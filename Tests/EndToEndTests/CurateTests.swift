import Foundation
import Testing
import QuireVault

/// Curation through the real binary, `--plain` (FORMAT.md §2.2): a year's notes kept from week to
/// month to year, archived at each level, skipped, undone, resumed; missed periods; a renamed note.
@Suite struct CurateTests {
    /// An empty vault of its own, with notes created on the given dates (`Insights/DATE.md`).
    struct Vault {
        let q: QuireRunner
        let root: URL

        init(_ dates: [String]) throws {
            q = try QuireRunner()
            root = q.vault.deletingLastPathComponent().appendingPathComponent("curation")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Insights"), withIntermediateDirectories: true)
            #expect(try q.run(["init", root.path]).status == 0)
            try Data("curate\n".utf8).write(to: root.appendingPathComponent(".quire/device"))
            // The insights are this vault's notes: its notes folder's notes enter curation.
            let config = root.appendingPathComponent(".quire/config.yaml")
            let text = String(decoding: try Data(contentsOf: config), as: UTF8.self).replacingOccurrences(of: "notes_folder: Notes", with: "notes_folder: Insights")
            try Data(text.utf8).write(to: config)
            for date in dates { try write("Insights/\(date).md", "---\ntitle: Insight \(date)\ncategory: Mindset\ncreated: \(date)\n---\nA thought of \(date).\n") }
        }

        func write(_ path: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(path))
        }

        func read(_ path: String) throws -> String {
            String(decoding: try Data(contentsOf: root.appendingPathComponent(path)), as: UTF8.self)
        }

        @discardableResult
        func run(_ args: [String], _ input: String = "", now: String = "2027-01-05T12:00:00Z") throws -> QuireRunner.Result {
            try q.run(["-C", root.path] + args + ["--now", now], stdin: input)
        }
    }

    @Test func aYearFromWeekToMonthToYear() throws {
        let v = try Vault(["2026-01-05", "2026-01-07", "2026-01-14", "2026-02-10"])
        defer { v.q.cleanUp() }
        var status = try v.run(["curate", "status"]).stdout
        #expect(status == "2026-W02\tWeek 2, 2026\tpending\t2 notes: 0 kept, 0 archived, 2 left\n"
            + "2026-W03\tWeek 3, 2026\tpending\t1 note: 0 kept, 0 archived, 1 left\n"
            + "2026-W07\tWeek 7, 2026\tpending\t1 note: 0 kept, 0 archived, 1 left\n", "\(status)")
        // Weekly: the oldest week first.
        let w02 = try v.run(["curate", "weekly", "--plain"], "keep\narchive\n")
        #expect(w02.stdout.contains("Weekly review of Week 2, 2026 (2026-W02): 2 notes") && w02.stdout.contains("is complete"), "\(w02)")
        #expect(try v.read("Insights/2026-01-05.md").contains("cycle: weekly\nreviewed: 2027-01-05\n"))
        #expect(try v.read("Insights/2026-01-07.md").contains("archived: true\nreviewed: 2027-01-05\n"))
        #expect(try v.run(["curate", "weekly", "--plain"], "k\n").status == 0)
        #expect(try v.run(["curate", "weekly", "2026-W07", "--plain"], "k\n").status == 0)
        status = try v.run(["curate", "status"]).stdout
        #expect(status == "2026-01\tJanuary 2026\tpending\t2 notes: 0 kept, 0 archived, 2 left\n"
            + "2026-02\tFebruary 2026\tpending\t1 note: 0 kept, 0 archived, 1 left\n", "\(status)")
        // Monthly: keep one, archive one; the archived keeps its cycle.
        #expect(try v.run(["curate", "monthly", "--plain"], "k\na\n").stdout.contains("is complete"))
        #expect(try v.read("Insights/2026-01-05.md").contains("cycle: monthly\n"))
        let archivedMonthly = try v.read("Insights/2026-01-14.md")
        #expect(archivedMonthly.contains("cycle: weekly\n") && archivedMonthly.contains("archived: true\n"))
        // Yearly, with February's month still open: a warning, then the evergreen note.
        let yearly = try v.run(["curate", "yearly", "--plain"], "keep\n")
        #expect(yearly.stdout.contains("warning: the monthly review of February 2026 (2026-02) is not complete: 1 left"), "\(yearly)")
        #expect(try v.read("Insights/2026-01-05.md").contains("cycle: yearly\n"))
        #expect(try v.run(["curate", "status"]).stdout.hasPrefix("2026-02\tFebruary 2026\tpending"))
        // The timelines: every note not archived by week; the evergreen one in the yearly view.
        let daily = try v.run(["notes"]).stdout
        #expect(daily.hasPrefix("Week 7, 2026 · weekly review completed (1 note: 1 kept, 0 archived, 0 left)\n"), "\(daily)")
        #expect(daily.contains("Week 2, 2026 · weekly review completed (2 notes: 1 kept, 1 archived, 0 left)\n  2026-01-05\tInsight 2026-01-05\t[Mindset]"))
        #expect(!daily.contains("2026-01-07"), "archived notes are left out")
        #expect(try v.run(["notes", "--cycle", "yearly"]).stdout == "2026\n  2026-01-05\tInsight 2026-01-05\t[Mindset]\t\t\n")
        let json = try v.run(["notes", "--cycle", "monthly", "--json"]).stdout
        #expect(json.contains("\"period\": \"2026\"") && json.contains("\"cycle\": \"yearly\""), "\(json)")
        let log = try v.read(".quire/curation/curate.log")
        #expect(log.hasPrefix("# quire curation log v1\n") && log.contains(" keep yearly 2026 id=") && log.contains(" session yearly 2026 end kept=1 archived=0 left=0 status=completed\n"))
    }

    @Test func skipUndoAndResume() throws {
        let v = try Vault(["2026-11-16", "2026-11-17", "2026-11-18"])
        defer { v.q.cleanUp() }
        let first = try v.read("Insights/2026-11-16.md")
        let now = "2026-11-22T12:00:00Z"
        let session = try v.run(["curate", "weekly", "--plain"], "keep\nundo\nskip\narchive\nquit\n", now: now)
        #expect(session.stdout.contains("↶ Undid the keep of Insights/2026-11-16.md."), "\(session)")
        #expect(try v.read("Insights/2026-11-16.md") == first, "the undo gives the note's bytes back")
        #expect(session.stdout.contains("Kept 0, archived 1, skipped 1; 2 left"), "\(session)")
        // Resumed: the notes still to decide, the skipped one first; input ending early is a quit.
        let resumed = try v.run(["curate", "weekly", "--plain"], "keep\n", now: now)
        #expect(resumed.stdout.contains("2 notes to decide") || resumed.stdout.contains("1 archived, 2 to decide"), "\(resumed)")
        #expect(resumed.stdout.contains("Note 1 of 2 · Insight 2026-11-16"))
        #expect(try v.run(["curate", "weekly", "--plain"], "keep\n", now: now).stdout.contains("is complete"))
        #expect(try v.run(["curate", "status"], now: now).stdout == "No curation review is due.\n")
        // Each event is stamped when it happens (the pinned clock moves a second per reading):
        // start, keep, undo, archive and end of the first session each at its own time, in order.
        let log = try v.read(".quire/curation/curate.log").split(separator: "\n").filter { !$0.hasPrefix("#") }
        let times = log.prefix(5).map { String($0.split(separator: " ")[0]) }
        #expect(log.prefix(5).map { String($0.split(separator: " ")[1]) } == ["session", "keep", "undo", "archive", "session"])
        #expect(Set(times).count == 5 && times == times.sorted(), "\(times)")
    }

    /// A grade's message counts its due time as its button did: `Good 10m` is due `in 10m` (a due
    /// time is stored to the second, so with the real clock's milliseconds it was `in 9m`).
    @Test func theMessageAfterAnAnswerAgreesWithItsButton() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("fresh.md", Data("Fresh? :: card\n".utf8))
        let listed = try q.run(["list", "--json", "path:fresh.md"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])?.first?["id"] as? String)
        let graded = try q.run(["grade", id, "good"])
        #expect(graded.status == 0 && graded.stdout.hasSuffix("(in 10m)\n"), "\(graded)")
    }

    @Test func reviewDaysAreConfigurable() throws {
        let v = try Vault(["2026-11-16"])
        defer { v.q.cleanUp() }
        let friday = "2026-11-20T12:00:00Z"
        #expect(try v.run(["curate", "status"], now: friday).stdout == "No curation review is due.\n")
        let config = try v.read(".quire/config.yaml").replacingOccurrences(of: "weekly: sunday", with: "weekly: friday")
        try v.write(".quire/config.yaml", config)
        #expect(try v.run(["curate", "status"], now: friday).stdout.hasPrefix("2026-W47\tWeek 47, 2026\tpending"))
        try v.write(".quire/config.yaml", config.replacingOccurrences(of: "weekly: friday", with: "weekly: someday"))
        #expect(try v.run(["check"], now: friday).stdout.contains("warning: 'weekly' must be a day of the week, like sunday"))
    }

    @Test func aRenamedNoteAndANoteWithoutCreated() throws {
        let v = try Vault(["2026-03-02"])
        defer { v.q.cleanUp() }
        try v.write("Insights/2026-03-04 Untitled thought.md", "No front matter at all.\n")
        let week = try v.run(["curate", "weekly", "2026-W10", "--plain"], "k\nk\n")
        #expect(week.stdout.contains("created 2026-03-04 (inferred)"), "\(week)")
        // The decision wrote the inferred date, so the note keeps it whatever its name becomes.
        #expect(try v.read("Insights/2026-03-04 Untitled thought.md") == "---\ncreated: 2026-03-04\ncycle: weekly\nreviewed: 2027-01-05\n---\nNo front matter at all.\n")
        try FileManager.default.moveItem(at: v.root.appendingPathComponent("Insights/2026-03-04 Untitled thought.md"),
                                         to: v.root.appendingPathComponent("Insights/renamed.md"))
        let month = try v.run(["curate", "monthly", "2026-03", "--plain"], "k\nk\n")
        #expect(month.stdout.contains("Insights/renamed.md") && month.stdout.contains("is complete"), "\(month)")
        #expect(try v.read("Insights/renamed.md").contains("cycle: monthly\n"))
        let bad = try v.run(["curate", "weekly", "2026-13", "--plain"])
        #expect(bad.status != 0 && bad.stderr.contains("is not a weekly period (like 2026-W47)"))
    }

    /// Which notes enter curation: the notes folder's, those with a category and those curated
    /// before — not a deck of cards imported from Anki; `curation_notes` (a query) says otherwise.
    /// Archiving a note with cards says what becomes of them.
    @Test func whichNotesEnterCuration() throws {
        let v = try Vault(["2026-11-16"])
        defer { v.q.cleanUp() }
        for folder in ["Misc", "Spanish"] {
            try FileManager.default.createDirectory(at: v.root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try v.write("Misc/idea.md", "---\ncreated: 2026-11-17\ncategory: Learning\n---\nListen first.\n")
        try v.write("Spanish/casa.md", "---\ncreated: 2026-11-17\nsource: spanish.apkg\n---\nla casa :: the house\nel gato :: the cat\n")
        let status = try v.run(["curate", "weekly", "2026-W47", "--plain"], "quit\n", now: "2026-11-23T12:00:00Z")
        #expect(status.stdout.hasPrefix("Weekly review of Week 47, 2026 (2026-W47): 2 notes"), "\(status)")
        #expect(!status.stdout.contains("casa"), "\(status)")
        // A query of the vault's settings decides instead.
        let config = try v.read(".quire/config.yaml")
        try v.write(".quire/config.yaml", config + "curation_notes: 'path:Spanish/**'\n")
        let decks = try v.run(["curate", "weekly", "2026-W47", "--plain"], "archive\n", now: "2026-11-23T12:00:00Z")
        #expect(decks.stdout.hasPrefix("Weekly review of Week 47, 2026 (2026-W47): 1 note") && decks.stdout.contains("Spanish/casa.md"), "\(decks)")
        #expect(decks.stdout.contains("Archived: its 2 cards no longer come up for review"), "\(decks)")
        #expect(try v.read("Spanish/casa.md").contains("archived: true"))
    }

    /// Back on a note decided in this session, `u` takes back that note's decision (it said so),
    /// not the session's last one.
    @Test func undoTakesBackTheNoteShown() throws {
        let v = try Vault(["2026-11-16", "2026-11-17", "2026-11-18"])
        defer { v.q.cleanUp() }
        let now = "2026-11-22T12:00:00Z"
        let session = try v.run(["curate", "weekly", "--plain"], "keep\narchive\nprev\nprev\nkeep\nundo\nquit\n", now: now)
        #expect(session.stdout.contains("Already kept in this session; u takes that back."), "\(session)")
        #expect(session.stdout.contains("Undid the keep of Insights/2026-11-16.md."), "\(session)")
        #expect(!(try v.read("Insights/2026-11-16.md")).contains("cycle:"))
        #expect(try v.read("Insights/2026-11-17.md").contains("archived: true"))
    }
}

/// `quire new`: a note from the command line or `$EDITOR`, named after its title, never over
/// another.
@Suite struct NewNoteTests {
    @Test func newNotes() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let now = ["--now", "2026-11-22T12:00:00Z"]
        let made = try q.run(["new", "Listen first: it works", "--category", "Communication", "--tag", "conversations", "--tag", "listening",
                              "--source", "Crucial Conversations", "--source-type", "Book"] + now)
        #expect(made.stdout == "wrote Notes/Listen first it works.md\n", "\(made)")
        #expect(String(decoding: try q.read("Notes/Listen first it works.md"), as: UTF8.self) == """
            ---
            title: "Listen first: it works"
            created: 2026-11-22T12:00:00Z
            category: Communication
            source: Crucial Conversations
            source_type: Book
            tags: [conversations, listening]
            ---

            """)
        #expect(try q.run(["new", "Listen first: it works"] + now).stdout == "wrote Notes/Listen first it works 2.md\n")
        // The second argument is the body, not more of the title.
        #expect(try q.run(["new", "Seek first", "Seek to understand, then to be understood.", "Then speak."] + now).stdout
                == "wrote Notes/Seek first.md\n")
        #expect(String(decoding: try q.read("Notes/Seek first.md"), as: UTF8.self)
                == "---\ntitle: Seek first\ncreated: 2026-11-22T12:00:00Z\n---\n\nSeek to understand, then to be understood.\n\nThen speak.\n")
        // In the editor: the first line is the title, the rest the body; the note is in the timeline.
        let script = q.vault.deletingLastPathComponent().appendingPathComponent("editor.sh")
        try Data("#!/bin/sh\nprintf '# Sleep is a skill\\n\\nA fixed wake-up time first.\\n' > \"$1\"\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        let edited = try q.run(["new", "--category", "Health"] + now, environment: ["VISUAL": script.path])
        #expect(edited.stdout == "wrote Notes/Sleep is a skill.md\n", "\(edited)")
        #expect(String(decoding: try q.read("Notes/Sleep is a skill.md"), as: UTF8.self).hasSuffix("category: Health\n---\n\nA fixed wake-up time first.\n"))
        let timeline = try q.run(["notes", "path:Notes/**"] + now).stdout
        #expect(timeline.hasPrefix("Week 47, 2026 · weekly review") && timeline.contains("Sleep is a skill\t[Health]"), "\(timeline)")
        let unknown = try q.run(["new", "Odd", "--category", "Nope"] + now)
        #expect(unknown.status == 0 && unknown.stderr.contains("'Nope' is not one of the categories"))
        #expect(try q.run(["new"] + now, environment: ["VISUAL": "true"]).stdout == "Nothing written: the note was left empty.\n")
    }
}
