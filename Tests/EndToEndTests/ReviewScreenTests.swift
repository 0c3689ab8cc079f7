import Foundation
import Testing

/// The full-screen review driven through a real terminal: tmux runs `quire review` in a pane of a
/// given size, keys are sent with `send-keys`, and the screen is read back with `capture-pane`.
@Suite(.serialized) struct ReviewScreenTests {
    /// A tmux server of its own (its own socket), with one pane running `quire review`.
    final class Pane {
        let socket: String
        let q: QuireRunner

        init(size: (Int, Int) = (80, 24), environment: [String: String] = [:], arguments: [String] = []) throws {
            q = try QuireRunner()
            socket = "quire-test-\(UUID().uuidString.prefix(8))"
            try q.write(".quire/device", Data("tmuxtest\n".utf8))
            var env = ["TERM=xterm-256color", "EDITOR=true"]
            env += environment.map { "\($0.key)=\($0.value)" }
            let command = ([QuireRunner.executable.path, "review", "--now", QuireRunner.now] + arguments)
                .map { "'" + $0 + "'" }.joined(separator: " ")
            let shell = "cd '\(q.vault.path)' && env -u NO_COLOR \(env.map { "'" + $0 + "'" }.joined(separator: " ")) \(command); echo EXIT=$?; sleep 60"
            try tmux(["-f", "/dev/null", "new-session", "-d", "-x", String(size.0), "-y", String(size.1), shell])
            try waitFor { $0.contains("to study") || $0.contains("Nothing to study") }
        }

        /// Runs `tmux ARGS` on this pane's server and returns what it printed.
        ///
        /// Spawned directly, waited for by its process ID: the server that `new-session`
        /// starts keeps what it inherits open, and Foundation's `Process` waits for those to close.
        @discardableResult
        func tmux(_ args: [String]) throws -> String {
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
        #expect(s.contains("22 cards to study (19 new, 2 learning, 1 review)"))
        #expect(s.split(separator: "\n").count <= 24)
        try pane.keys("Space")
        s = try pane.waitFor { $0.contains("Space show answer") }
        #expect(s.contains("What is the worst case of quicksort"))
        #expect(s.contains("card 1"))
        try pane.keys("Enter")
        s = try pane.waitFor { $0.contains("1 Again") }
        #expect(s.contains("O(n²)"))
        #expect(s.contains("1 Again 1m   2 Hard 5m   3 Good 10m   4 Easy 2d"))
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
        try pane.keys("s")
        s = try pane.waitFor { $0.contains("Skipped.") }
        #expect(s.contains("Chloroplast"))
        try pane.keys("b")
        s = try pane.waitFor { $0.contains("Buried until tomorrow.") }
        try pane.keys("!")
        s = try pane.waitFor { $0.contains("Suspended.") }
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
}
