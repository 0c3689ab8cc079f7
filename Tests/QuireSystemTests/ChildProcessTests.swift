import Foundation
import Testing
@testable import QuireSystem
@testable import QuireTestSupport

/// Programs run with argument arrays (no shell between), their input given and both outputs read
/// whole, under time and output limits.
@Suite struct ChildProcessTests {
    @Test func wordsReachTheProgramAsTheyAre() {
        let words = ["a b", "$HOME", "'q'", "\"d\"", "; rm -rf /", "é", ""]
        let run = ChildProcess.run(["printf", "%s\\n"] + words)
        #expect(run.status == 0)
        #expect(String(decoding: run.output, as: UTF8.self) == words.joined(separator: "\n") + "\n")
    }

    @Test func inputOutputAndErrors() {
        let echo = ChildProcess.run(["cat"], input: Array("hello\nworld".utf8))
        #expect(echo.status == 0 && echo.output == Array("hello\nworld".utf8))
        let failing = ChildProcess.run(["sh", "-c", "echo oops >&2; exit 3"])
        #expect(failing.status == 3 && failing.errorText == "oops")
        let missing = ChildProcess.run(["quire-no-such-program-\(UUID().uuidString)"])
        #expect(missing.status == -1 && missing.errorText.contains("quire-no-such-program"))
        #expect(ChildProcess.run([]).status == -1)
    }

    @Test func environmentIsAdded() {
        let run = ChildProcess.run(["sh", "-c", "printf %s \"$QUIRE_TEST_VALUE\""], environment: ["QUIRE_TEST_VALUE": "it works"])
        #expect(run.text == "it works")
    }

    @Test func bigOutputsOnBothStreamsDoNotDeadlock() {
        // More than a pipe's buffer on each stream at once: both are drained together.
        let run = ChildProcess.run(["sh", "-c", "head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2"], timeoutSeconds: 30)
        #expect(run.status == 0 && run.output.count == 1_000_000 && run.errorOutput.count == 1_000_000)
    }

    @Test func limitsStopARunawayProgram() {
        let start = Date()
        let slow = ChildProcess.run(["sleep", "30"], timeoutSeconds: 1)
        #expect(slow.status != 0 && Date().timeIntervalSince(start) < 10)
        let chatty = ChildProcess.run(["sh", "-c", "yes"], timeoutSeconds: 20, outputLimit: 100_000)
        #expect(chatty.status != 0 && chatty.output.count <= 200_000)
    }

    @Test func aPathIsNeverTakenForAnOption() {
        #expect(ChildProcess.fileArgument("-rf") == "./-rf")
        #expect(ChildProcess.fileArgument("/tmp/-x") == "/tmp/-x")
        #expect(ChildProcess.fileArgument("notes/a.md") == "./notes/a.md")
    }
}
