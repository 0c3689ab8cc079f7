import Foundation
import Testing
import QuireTestSupport

/// The full-screen review driven through a real terminal: tmux runs `quire review` in a pane of a
/// given size, keys are sent with `send-keys`, and the screen is read back with `capture-pane`.
@Suite(.serialized, .requires(.tmux), .tags(.slow)) struct ReviewScreenTests {
    /// A tmux server of its own (its own socket), with one pane running `quire review`.
    final class Pane {
        let socket: String
        let q: QuireRunner

        init(size: (Int, Int) = (80, 24), environment: [String: String] = [:], arguments: [String] = [],
             before: (QuireRunner) throws -> Void = { _ in }) throws {
            q = try QuireRunner()
            socket = "quire-test-\(UUID().uuidString.prefix(8))"
            try q.write(".quire/device", Data("tmuxtest\n".utf8))
            try before(q)
            var env = ["TERM=xterm-256color", "EDITOR=true"]
            env += environment.map { "\($0.key)=\($0.value)" }
            let command = ([QuireRunner.executable.path] + (["curate", "quiz", "serve"].contains(arguments.first ?? "") ? [] : ["review", "--now", QuireRunner.now])
                           + arguments)
                .map { "'" + $0 + "'" }.joined(separator: " ")
            let shell = "cd '\(q.vault.path)' && env -u NO_COLOR \(env.map { "'" + $0 + "'" }.joined(separator: " ")) \(command); echo EXIT=$?; sleep 60"
            try tmux(["-f", "/dev/null", "new-session", "-d", "-x", String(size.0), "-y", String(size.1), shell])
            try waitFor { $0.contains("to study") || $0.contains("Nothing to study") || $0.contains("review ·") || $0.contains("Nothing to decide")
                || $0.contains("Quiz ·") || $0.contains("Ctrl-C stops") }
        }

        /// Runs `tmux ARGS` on this pane's server and returns what it printed.
        ///
        /// Spawned directly, waited for by its process ID: the server that `new-session`
        /// starts keeps what it inherits open, and Foundation's `Process` waits for those to close.
        @discardableResult
        func tmux(_ args: [String]) throws -> String { try Self.tmux(socket: socket, args) }

        /// Runs `tmux -L SOCKET ARGS` and returns what it printed (see ``tmux(_:)``).
        @discardableResult
        static func tmux(socket: String, _ args: [String]) throws -> String {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("quire-tmux-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = (["tmux", "-L", socket] + args).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            // Test threads block signals, and a child inherits that mask: start tmux (and so quire)
            // with none blocked, as a shell would.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            var pid: pid_t = 0
            let rc = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ)
            guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        }

        /// The screen as text (`escapes`: with colour codes).
        func screen(escapes: Bool = false) throws -> String {
            try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
        }

        func keys(_ keys: String...) throws {
            for k in keys { try tmux(["send-keys", k]) }
        }

        /// Sends `text` to the pane in one write, as a paste or fast typing ahead brings it.
        func type(_ text: String) throws {
            try tmux(["send-keys", "-l", text])
        }

        /// Waits (up to 10 s: the machine may be busy with other tests) until the screen satisfies `condition`.
        @discardableResult
        func waitFor(_ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            var last = ""
            for _ in 0..<200 {
                last = try screen()
                if condition(last) { return last }
                usleep(50_000)
            }
            Issue.record("timed out; the screen was:\n\(last)", sourceLocation: sourceLocation)
            return last
        }

        /// Whether the pane is on the alternate screen (a full-screen program is running).
        func alternateScreen() throws -> Bool {
            try tmux(["display-message", "-p", "#{alternate_on}"]).hasPrefix("1")
        }

        func close() {
            _ = try? tmux(["kill-server"])
            q.cleanUp()
        }
    }

    @Test func studyWithEveryKey() throws {
        let pane = try Pane()
        defer { pane.close() }
        var s = try pane.screen()
        #expect(s.contains("27 cards to study (19 new, 2 learning, 6 review)"))
        #expect(s.split(separator: "\n").count <= 24)
        try pane.keys("Space")
        s = try pane.waitFor { $0.contains("Space show answer") }
        #expect(s.contains("What is the worst case of quicksort"))
        #expect(s.contains("card 1"))
        // The card's heading path, as quire show gives it.
        #expect(s.contains("Sorting algorithms › Questions"), "\(s)")
        try pane.keys("Enter")
        s = try pane.waitFor { $0.contains("1 Again") }
        #expect(s.contains("O(n²)"))
        #expect(s.contains("1 Again 1m   2 Hard 6m   3 Good 10m   4 Easy 2d"))  // Hard: 5.5m, rounded as Anki does
        try pane.keys("3")
        s = try pane.waitFor { $0.contains("card 2") }
        #expect(s.contains("Good: learning"))
        // Undo brings the card back, and the note's bytes are restored.
        try pane.keys("u")
        s = try pane.waitFor { $0.contains("Undid the answer") }
        #expect(s.contains("What is the worst case of quicksort"))
        try pane.keys("?")
        try pane.waitFor { $0.contains("Keys") && $0.contains("bury until tomorrow") }
        try pane.keys("x")
        try pane.waitFor { $0.contains("Space show answer") }
        // Help while the answer shows comes back to the answer, not the question.
        try pane.keys("Enter")
        try pane.waitFor { $0.contains("1 Again") && $0.contains("O(n²)") }
        try pane.keys("?")
        try pane.waitFor { $0.contains("Keys") && $0.contains("bury until tomorrow") }
        try pane.keys("x")
        s = try pane.waitFor { $0.contains("1 Again") }
        #expect(s.contains("O(n²)"), "\(s)")
        // x shows the text the card was made from below the answer, and hides it again.
        try pane.keys("x")
        s = try pane.waitFor { $0.contains("From its section:") || $0.contains("From line") }
        try pane.keys("x")
        try pane.waitFor { !$0.contains("From its section:") && !$0.contains("From line") && $0.contains("1 Again") }
        try pane.keys("s")
        s = try pane.waitFor { $0.contains("Skipped: the card comes back at the end.") }
        #expect(s.contains("Chloroplast"))
        try pane.keys("b")
        s = try pane.waitFor { $0.contains("Buried until tomorrow.") }
        try pane.keys("!")
        s = try pane.waitFor { $0.contains("Suspended: 'quire unsuspend' brings it back.") }
        try pane.keys("Space", "1")
        s = try pane.waitFor { $0.contains("Again:") }
        try pane.keys("q")
        s = try pane.waitFor { $0.contains("EXIT=0") }
        #expect(try !pane.alternateScreen())
        #expect(s.contains("Session done: 1 card, 1 answer"))
        #expect(s.contains("Accuracy: 0% — Needs Work"))
        #expect(s.contains("1 card failed"))
        let log = String(decoding: try pane.q.read(".quire/log/tmuxtest.log"), as: UTF8.self)
        let events = log.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ")[1] }
        #expect(events == ["grade", "undo", "bury", "suspend", "grade"])
        #expect(try pane.q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
    }

    /// Regression: the message after an answer counted the card's next due time from a second
    /// reading of the clock, taken after the answer's, so a 10-minute step showed as `in 9m`.
    @Test func theAnswersIntervalIsCountedFromTheAnswer() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Space show answer") }
        try pane.keys("Enter")
        try pane.waitFor { $0.contains("3 Good 10m") }
        try pane.keys("3")
        let s = try pane.waitFor { $0.contains("Good: learning") }
        #expect(s.contains("(in 10m)"), "\(s)")
        try pane.keys("q")
    }

    @Test func editingACardShowsItsNewText() throws {
        // The "editor" rewrites the card's question, as a user would.
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("quire-editor-\(UUID().uuidString).sh")
        try Data("#!/bin/sh\nfor last; do :; done\nsed -i 's/What is the worst case of quicksort/What is the WORST case of quicksort/' \"$last\"\n".utf8)
            .write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        chmod(script.path, 0o755)
        let pane = try Pane(environment: ["EDITOR": script.path, "VISUAL": script.path])
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("What is the worst case") }
        try pane.keys("e")
        let s = try pane.waitFor { $0.contains("What is the WORST case") }
        #expect(s.contains("Read Computer-Science/Algorithms/sorting.md again."))
        try pane.keys("Space", "3")
        try pane.waitFor { $0.contains("Good: learning") }
    }

    /// A new card's ID comes from its text: fixing a typo in it makes it another ID, and the
    /// session goes on with the edited card (it said "no longer in …; skipped" and dropped it).
    @Test func editingANewCardKeepsItInTheSession() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("quire-editor-\(UUID().uuidString).sh")
        try Data("#!/bin/sh\nline=${1#+}\nsed -i \"${line}s/\\$/ typofixed/\" \"$2\"\n".utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        chmod(script.path, 0o755)
        let pane = try Pane(environment: ["EDITOR": script.path, "VISUAL": script.path], arguments: ["--mode", "new"])
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Space show answer") && $0.contains("· new") }
        try pane.keys("Enter")
        try pane.waitFor { $0.contains("1 Again") }
        try pane.keys("e")
        let s = try pane.waitFor { $0.contains("typofixed") }
        #expect(s.contains(" again.") && !s.contains("no longer"), "\(s)")
        #expect(s.contains("card 1 of"), "\(s)")
        try pane.keys("3")
        try pane.waitFor { $0.contains("Good: learning") }
        #expect(try pane.q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
    }

    @Test func aCardEditedInAnotherEditorShowsItsNewTextWithoutAKey() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("What is the worst case of quicksort") }
        // Another editor saves the note the way many do: a temporary file renamed over it.
        let path = "Computer-Science/Algorithms/sorting.md"
        let text = String(decoding: try pane.q.read(path), as: UTF8.self)
            .replacingOccurrences(of: "What is the worst case of quicksort", with: "What is the WORST case of quicksort")
        try pane.q.write("Computer-Science/Algorithms/.sorting.md.swp", Data(text.utf8))
        #expect(rename(pane.q.vault.appendingPathComponent("Computer-Science/Algorithms/.sorting.md.swp").path,
                       pane.q.vault.appendingPathComponent(path).path) == 0)
        // No key is pressed: the screen redraws by itself.
        let s = try pane.waitFor { $0.contains("What is the WORST case of quicksort") }
        #expect(s.contains("Read \(path) again."))
        try pane.keys("Space", "3")
        try pane.waitFor { $0.contains("Good: learning") }
        #expect(try pane.q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
    }

    @Test func keysTypedAheadAreAllHandled() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Space show answer") }
        // Show the answer and grade it in one go: both keys arrive in one read.
        try pane.type(" 3")
        let s = try pane.waitFor { $0.contains("Good: learning") }
        #expect(s.contains("card 2"))
    }

    @Test func aDeletedCardIsSkippedAndANewDueCardJoins() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("What is the worst case of quicksort") }
        var s = try pane.screen()
        // The note holding the card on screen is deleted.
        try FileManager.default.removeItem(at: pane.q.vault.appendingPathComponent("Computer-Science/Algorithms/sorting.md"))
        s = try pane.waitFor { $0.contains("no longer in the vault; skipped") }
        #expect(!s.contains("What is the worst case of quicksort"))
        // A new note comes (its card is new: it does not join), then a sync tool brings its
        // review state, which makes the card due now.
        let body = "Synced question :: synced answer\n"
        try pane.q.write("Inbox/synced.md", Data(body.utf8))
        let id = try pane.q.run(["list", "path:Inbox/synced.md"]).stdout.prefix { $0 != "\t" && $0 != " " }
        let due = "---\nquire:\n  \(id): {state: review, due: 2026-11-20T09:00:00Z, last: 2026-11-10T09:00:00Z, stability: 10, difficulty: 5, interval: 10, reps: 3, lapses: 0}\n---\n" + body
        try pane.q.write("Inbox/synced.md", Data(due.utf8))
        s = try pane.waitFor { $0.contains("now due joined the session") }
        #expect(s.contains("1 card now due joined the session."))
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Space show answer") }
        #expect(try pane.alternateScreen())
        let pid = try pane.tmux(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        // The pane runs a shell; quire is its only child.
        let children = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        let quire = try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
        #expect(kill(quire, SIGTERM) == 0)
        let s = try pane.waitFor { $0.contains("EXIT=") }
        #expect(s.contains("EXIT=143"))
        #expect(try !pane.alternateScreen())
    }

    @Test func noColorAndResize() throws {
        let pane = try Pane(environment: ["NO_COLOR": "1"])
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Space show answer") }
        #expect(try !pane.screen(escapes: true).contains("\u{1B}[1m"))
        try pane.tmux(["resize-window", "-x", "120", "-y", "30"])
        let wide = try pane.waitFor { ($0.split(separator: "\n").first?.count ?? 0) > 100 }
        #expect(wide.contains("card 1"))
    }

    @Test func coloursWithoutNoColor() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Space show answer") }
        let e = try pane.screen(escapes: true)
        #expect(e.contains("\u{1B}[1m"))
    }

    /// A note whose answer is longer than a small screen: eight list items and a code block.
    static let longNote = """
        Q: What does the long answer hold?
        A: Eight items and some code:

        1. first item
        2. second item
        3. third item
        4. fourth item
        5. fifth item
        6. sixth item
        7. seventh item
        8. eighth item
        ```swift
        let answer = 42
        print("the very last line")
        ```

        """

    /// A pane studying only the long note, at `size`.
    private func longPane(_ size: (Int, Int)) throws -> Pane {
        let pane = try Pane(size: size, arguments: ["path:Long.md"], before: { q in
            try q.write("Long.md", Data(Self.longNote.utf8))
        })
        try pane.keys("Space")
        try pane.waitFor { $0.contains("What does the long answer hold?") }
        return pane
    }

    /// Regression: on 80×16 the answer was cut at "…", and on 40×10 it was not seen at all.
    @Test(arguments: [(80, 16), (40, 10)])
    func aLongAnswerScrolls(_ size: (Int, Int)) throws {
        let pane = try longPane(size)
        defer { pane.close() }
        try pane.keys("Space")
        var s = try pane.waitFor { $0.contains("more line") && $0.contains("below") }
        #expect(!s.contains("the very last line"))
        for line in s.split(separator: "\n") { #expect(line.count <= size.0, "no line wraps: \(line)") }
        // Every grade button shows, however narrow the screen; so do the card's position and help.
        #expect(s.contains("4 ") && !s.contains("4…") && s.contains("card 1 of 1") && s.contains("? help"), "\(s)")
        // Down to the end, a line at a time and a page at a time.
        for _ in 0..<3 { try pane.keys("j") }
        try pane.keys("PgDn", "PgDn", "PgDn", "PgDn", "Down")
        s = try pane.waitFor { $0.contains("the very last line") }
        #expect(s.contains("above"))
        #expect(!s.contains("below"))
        // And back up to the question.
        try pane.keys("PgUp", "PgUp", "PgUp", "PgUp", "PgUp", "k", "Up", "Home")
        s = try pane.waitFor { $0.contains("What does the long answer hold?") }
        try pane.keys("3")
        try pane.waitFor { $0.contains("Good:") }
    }

    /// Space first scrolls a front longer than the screen, then shows the answer.
    @Test func spaceScrollsThenReveals() throws {
        let pane = try Pane(size: (40, 10), arguments: ["path:Long.md"], before: { q in
            let words = (1...40).map { "word\($0)" }.joined(separator: " ")
            try q.write("Long.md", Data("Q: Which word is last? \(words) lastword\nA: the seventh.\n".utf8))
        })
        defer { pane.close() }
        try pane.keys("Space")
        var s = try pane.waitFor { $0.contains("Which word is last?") }
        #expect(s.contains("below"))
        // Each Space moves a page down until the end of the question shows; the answer stays hidden.
        for _ in 0..<10 where !s.contains("lastword") {
            try pane.keys("Space")
            usleep(100_000)
            s = try pane.screen()
        }
        #expect(s.contains("lastword"))
        #expect(!s.contains("the seventh."))
        try pane.keys("Space")
        s = try pane.waitFor { $0.contains("the seventh.") }
    }

    /// As in Anki, a number key does nothing before the answer is shown.
    @Test func gradesOnlyOnceTheAnswerShows() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Space show answer") }
        try pane.keys("3")
        let s = try pane.waitFor { $0.contains("Show the answer first") }
        #expect(s.contains("card 1 of"))
        #expect(!FileManager.default.fileExists(atPath: pane.q.vault.appendingPathComponent(".quire/log/tmuxtest.log").path))
        try pane.keys("Space", "3")
        try pane.waitFor { $0.contains("Good: learning") }
    }

    /// `u` takes back a bury and a suspension too, not only answers; the card comes back.
    @Test func undoTakesBackAnyAction() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("What is the worst case of quicksort") }
        try pane.keys("b")
        try pane.waitFor { $0.contains("Buried until tomorrow.") }
        try pane.keys("u")
        var s = try pane.waitFor { $0.contains("Undid the bury of") }
        #expect(s.contains("What is the worst case of quicksort"))
        try pane.keys("!")
        try pane.waitFor { $0.contains("Suspended: 'quire unsuspend' brings it back.") }
        try pane.keys("u")
        s = try pane.waitFor { $0.contains("Undid the suspension of") }
        #expect(s.contains("What is the worst case of quicksort"))
        try pane.keys("q")
        try pane.waitFor { $0.contains("EXIT=0") }
        let log = String(decoding: try pane.q.read(".quire/log/tmuxtest.log"), as: UTF8.self)
        let events = log.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ")[1] }
        #expect(events == ["bury", "undo", "suspend", "undo"])
        let note = String(decoding: try pane.q.read("Computer-Science/Algorithms/sorting.md"), as: UTF8.self)
        #expect(!note.contains("suspended: true") && !note.contains("buried:"))
        #expect(try pane.q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
    }

    /// StudyFlow's p/P are offered only for cards the flow scheduler schedules.
    @Test func studyFlowKeysOnlyForFlowCards() throws {
        let pane = try Pane()
        defer { pane.close() }
        try pane.keys("Space")
        var s = try pane.waitFor { $0.contains("Space show answer") }
        #expect(!s.contains("promote"))
        try pane.keys("p")
        s = try pane.waitFor { $0.contains("p and P promote and demote StudyFlow cards") }
        #expect(s.contains("card 1 of"))
        #expect(!FileManager.default.fileExists(atPath: pane.q.vault.appendingPathComponent(".quire/log/tmuxtest.log").path))
    }

    /// The retry is offered in the screen; after it closes, the summary names a command instead
    /// of a key that would land in the shell.
    @Test func theRetryIsOfferedWhileTheScreenIsOpen() throws {
        let pane = try Pane(arguments: ["path:Long.md"], before: { q in
            try q.write("Long.md", Data("Q: Retry me?\nA: yes\n".utf8))
        })
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Retry me?") }
        try pane.keys("Space", "1")
        try pane.waitFor { $0.contains("Again:") && $0.contains("Retry me?") }
        try pane.keys("Space", "4")
        // Failed once, then right: the session is done and offers the retry.
        var s = try pane.waitFor { $0.contains("press r to go over it again") }
        #expect(s.contains("r retry the failed cards"))
        try pane.keys("r")
        s = try pane.waitFor { $0.contains("Retry me?") }
        #expect(s.contains("Long.md:6 · review"), "the card's own state, not the retry's learning section: \(s)")
        try pane.keys("q")
        s = try pane.waitFor { $0.contains("EXIT=0") }
        #expect(s.contains("'quire review --failed-today' goes over it again"))
        #expect(!s.contains("press r"))
    }

    /// Wikilinks, embeds and math read as text; `o` opens an embedded image with xdg-open; a
    /// cloze's answer shows what it revealed (in brackets without colour).
    @Test func renderingAndOpeningEmbeds() throws {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("quire-opener-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let opened = bin.appendingPathComponent("opened.txt")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(opened.path)'\n".utf8).write(to: bin.appendingPathComponent("xdg-open"))
        chmod(bin.appendingPathComponent("xdg-open").path, 0o755)
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let pane = try Pane(environment: ["NO_COLOR": "1", "PATH": bin.path + ":" + path], arguments: ["path:Render/**"], before: { q in
            try q.write("Render/a.md", Data("Q: What does [[Cell|the cell]] hold? ![[cell.png]]\nA: $E = mc^2$ and $\\alpha \\leq \\frac{1}{2}$\n".utf8))
            try q.write("Render/cell.png", Data("png".utf8))
            try q.write("Render/b.md", Data("The {{c1::nucleus}} holds the DNA.\n".utf8))
        })
        defer { pane.close() }
        try pane.keys("Space")
        var s = try pane.waitFor { $0.contains("What does the cell hold?") }
        #expect(s.contains("[embed: cell.png]") && s.contains("o open image"), "\(s)")
        try pane.keys("o")
        s = try pane.waitFor { $0.contains("Opened cell.png.") }
        let args = String(decoding: (try? Data(contentsOf: opened)) ?? Data(), as: UTF8.self)
        #expect(args == pane.q.vault.appendingPathComponent("Render/cell.png").path + "\n", "\(args)")
        try pane.keys("Space")
        s = try pane.waitFor { $0.contains("E = mc²") }
        #expect(s.contains("α ≤ 1/2"), "\(s)")
        try pane.keys("4")
        s = try pane.waitFor { $0.contains("The [...] holds the DNA.") }
        try pane.keys("Space")
        s = try pane.waitFor { $0.contains("The [nucleus] holds the DNA.") }
    }

    /// A note with `type: true` asks for the answer to be typed and shows how it differs; keys
    /// are text while typing (q does not quit); `--type` asks it of every card.
    @Test func typingTheAnswer() throws {
        let pane = try Pane(environment: ["NO_COLOR": "1"], arguments: ["path:Typed/**"], before: { q in
            try q.write("Typed/a.md", Data("---\ntype: true\n---\nQ: The powerhouse of the cell?\nA: mitochondrion\n".utf8))
        })
        defer { pane.close() }
        try pane.keys("Space")
        var s = try pane.waitFor { $0.contains("Type the answer:") }
        #expect(s.contains("Enter check the answer"))
        try pane.type("mitocqondrio")
        try pane.keys("BSpace", "BSpace")
        s = try pane.waitFor { $0.contains("Type the answer: mitocqondr") }
        try pane.keys("Enter")
        s = try pane.waitFor { $0.contains("✗ ") }
        #expect(s.contains("✗ mitoc{+h+}[-q-]ondr{+ion+}") || s.contains("✗ mitoc[-q-]{+h+}ondr{+ion+}"), "\(s)")
        #expect(s.contains("1 Again"))
        try pane.keys("3")
        try pane.waitFor { $0.contains("Good:") }
        // The wrong answer typed goes into the log with the grade (a quiz offers it again).
        let log = try String(contentsOf: pane.q.vault.appendingPathComponent(".quire/log/tmuxtest.log"), encoding: .utf8)
        #expect(log.contains(" good id=") && log.contains(" typed=mitocqondr "), "\(log)")
    }

    @Test func typeEveryAnswerAndQuitWhileTyping() throws {
        let pane = try Pane(environment: ["NO_COLOR": "1"], arguments: ["--type", "path:Typed/**"], before: { q in
            try q.write("Typed/b.md", Data("Q: Two and two?\nA: four\n".utf8))
        })
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("Type the answer:") }
        try pane.type("four q")
        try pane.keys("BSpace", "BSpace")
        try pane.keys("Enter")
        let s = try pane.waitFor { $0.contains("✓ four") }
        #expect(s.contains("Two and two?"))
        try pane.keys("3")
        try pane.waitFor { $0.contains("Good:") || $0.contains("EXIT=0") || $0.contains("Session done") }
        // A right answer typed is not logged.
        let log = try String(contentsOf: pane.q.vault.appendingPathComponent(".quire/log/tmuxtest.log"), encoding: .utf8)
        #expect(log.contains(" good id=") && !log.contains("typed="), "\(log)")
    }

    /// With the kitty graphics protocol (forced here: tmux drops its commands), an embedded PNG
    /// gets rows of its own under the card's text; the rest of the screen is as without it.
    @Test func roomForAnEmbeddedImage() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 64)
        let pane = try Pane(environment: ["QUIRE_IMAGES": "kitty", "NO_COLOR": "1"], arguments: ["path:Pic/**"], before: { q in
            try q.write("Pic/a.md", Data("Q: What is drawn? ![[pic.png]]\nA: A square.\n".utf8))
            try q.write("Pic/pic.png", Data(png))
        })
        defer { pane.close() }
        try pane.keys("Space")
        try pane.waitFor { $0.contains("What is drawn?") }
        try pane.keys("Space")
        let s = try pane.waitFor { $0.contains("A square.") }
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
        let question = try #require(lines.firstIndex { $0.contains("What is drawn?") })
        let separator = try #require(lines.firstIndex { $0.contains("╌╌╌") })
        // The rows kept for the image (8 of a 24-row screen) lie between the question and the answer.
        #expect(separator - question >= 9, "\(s)")
        #expect(lines[(question + 1)..<separator].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "\(s)")
    }

    /// The curation screen: keep, archive, previous and next, undo, skip; the summary after it closes.
    @Test func curationOnTheScreen() throws {
        let pane = try Pane(environment: ["NO_COLOR": "1"], arguments: ["curate", "weekly", "2026-W49", "--now", "2026-11-22T12:00:00Z"], before: { q in
            try Self.pinModificationTimes(q)
            for d in ["01", "02", "03"] {
                try q.write("Insights/2026-12-\(d).md", Data("---\ntitle: Insight \(d)\ncategory: Mindset\ncreated: 2026-12-\(d)\n---\n# Heading \(d)\n\nA thought of the \(d)th.\n".utf8))
            }
        })
        defer { pane.close() }
        var s = try pane.waitFor { $0.contains("1 of 3") }
        #expect(s.contains("Insight 01 · [Mindset]") && s.contains("A thought of the 01th.") && s.contains("k keep · a archive · s skip · q quit"), "\(s)")
        try pane.keys("k")
        s = try pane.waitFor { $0.contains("2 of 3") && $0.contains("Kept: cycle weekly.") }
        try pane.keys("a")
        s = try pane.waitFor { $0.contains("3 of 3") }
        try pane.keys("Left")
        s = try pane.waitFor { $0.contains("2 of 3") && $0.contains("· archived") }
        try pane.keys("u")
        s = try pane.waitFor { $0.contains("Undid the archive of Insights/2026-12-02.md.") }
        try pane.keys("s", "k")
        s = try pane.waitFor { $0.contains("done") && $0.contains("Every note of Week 49, 2026 gone through.") }
        try pane.keys("q")
        s = try pane.waitFor { $0.contains("EXIT=0") }
        #expect(s.contains("Kept 2, archived 0, skipped 1; 1 left"), "\(s)")
        #expect(String(decoding: try pane.q.read("Insights/2026-12-02.md"), as: UTF8.self).contains("cycle") == false)
        #expect(String(decoding: try pane.q.read("Insights/2026-12-03.md"), as: UTF8.self).contains("cycle: weekly"))
    }

    /// The sample vault's notes without a creation day are dated by their modification time: the
    /// copy's, today's, which falls in the week a test reviews one week a year. Pinned to a day
    /// before it.
    static func pinModificationTimes(_ q: QuireRunner) throws {
        let day = Date(timeIntervalSince1970: 1_761_998_400) // 2025-11-01T12:00:00Z
        let files = FileManager.default.enumerator(at: q.vault, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "md" else { continue }
            try FileManager.default.setAttributes([.modificationDate: day], ofItemAtPath: file.path)
        }
    }

    /// A curation session killed outright (`kill -9`: no chance to write its end) goes on where it
    /// stopped: the decisions made are in the notes, and the next session takes the rest.
    @Test func curationResumesAfterKill9() throws {
        let pane = try Pane(environment: ["NO_COLOR": "1"], arguments: ["curate", "weekly", "2026-W49", "--now", "2026-11-22T12:00:00Z"], before: { q in
            try Self.pinModificationTimes(q)
            for d in ["01", "02", "03"] {
                try q.write("Insights/2026-12-\(d).md", Data("---\ntitle: Insight \(d)\ncategory: Mindset\ncreated: 2026-12-\(d)\n---\nA thought.\n".utf8))
            }
        })
        defer { pane.close() }
        try pane.waitFor { $0.contains("1 of 3") }
        try pane.keys("k")
        try pane.waitFor { $0.contains("2 of 3") }
        let pid = try pane.tmux(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        let quire = try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
        #expect(kill(quire, SIGKILL) == 0)
        try pane.waitFor { $0.contains("EXIT=137") }
        let resumed = try pane.q.run(["curate", "weekly", "2026-W49", "--plain", "--now", "2026-11-22T12:00:00Z"], stdin: "a\nk\n")
        #expect(resumed.stdout.contains("3 notes, 1 kept, 0 archived, 2 to decide.") && resumed.stdout.contains("Note 1 of 2 · Insight 02"), "\(resumed)")
        #expect(resumed.stdout.contains("is complete"))
        let log = String(decoding: try pane.q.read(".quire/curation/tmuxtest.log"), as: UTF8.self)
        #expect(log.components(separatedBy: " session weekly 2026-W49 start").count == 3, "two sessions started: \(log)")
    }
}
