import Foundation
import Synchronization
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

    /// Limits small enough for a test to reach: python starts in under 64 MB of address space.
    static func limits(memory: Int? = 256 << 20, cpu: Int = 30, file: Int = 1 << 20, openFiles: Int = 64) -> ChildProcess.Limits {
        ChildProcess.Limits(memoryBytes: memory, cpuSeconds: cpu, wallSeconds: 60, outputBytes: 1 << 20, fileBytes: file, openFiles: openFiles)
    }

    @Test func aLimitedProgramRunsAsAnyOther() {
        let run = ChildProcess.run(["sh", "-c", "cat; echo err >&2; exit 4"], limits: Self.limits(), input: Array("in".utf8),
                                   environment: ["X": "1"])
        #expect(run.status == 4 && run.text == "in" && run.errorText == "err")
        let missing = ChildProcess.run(["quire-no-such-program-\(UUID().uuidString)"], limits: Self.limits())
        #expect(missing.status == -1 && missing.errorText.contains("quire-no-such-program"))
    }

    @Test func aProgramOverItsMemoryIsStoppedAndSaysSo() {
        let run = ChildProcess.run(["python3", "-c", "x = bytearray(1 << 30); print('allocated')"], limits: Self.limits())
        #expect(run.status == -2 && run.output.isEmpty)
        #expect(run.errorText == "python3: stopped at its limit of 256 MB of memory")
        // Without the limit the same program allocates (the limit is what stopped it).
        let free = ChildProcess.run(["python3", "-c", "x = bytearray(1 << 28); print('allocated')"], limits: Self.limits(memory: 1 << 30))
        #expect(free.status == 0 && free.text == "allocated")
    }

    @Test func aProgramOverItsProcessorTimeIsStopped() {
        let start = Date()
        let run = ChildProcess.run(["python3", "-c", "while True: pass"], limits: Self.limits(cpu: 1))
        #expect(run.status == -2 && run.errorText == "python3: stopped at its limit of 1 s of processor time")
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test func aProgramWritingAFileOverItsLimitIsStopped() throws {
        try withTempDir { dir in
            let run = ChildProcess.run(["sh", "-c", "head -c 3000000 /dev/zero > \"$0\"", dir.path + "/big"], limits: Self.limits())
            #expect(run.status == -2 && run.errorText == "sh: stopped at its limit of 1 MB per file written")
            let size = (try? FileManager.default.attributesOfItem(atPath: dir.path + "/big")[.size] as? Int) ?? 0
            #expect(size <= 1 << 20)
        }
    }

    @Test func aProgramCannotHoldMoreFilesThanItsLimit() {
        let script = "import os\nfds = [os.open('/dev/null', os.O_RDONLY) for _ in range(100)]\nprint(len(fds))"
        #expect(ChildProcess.run(["python3", "-c", script], limits: Self.limits(openFiles: 32)).status != 0)
        #expect(ChildProcess.run(["python3", "-c", script], limits: Self.limits(openFiles: 256)).text == "100")
    }

    @Test func aLimitedProgramStillHasItsWallClock() {
        let start = Date()
        var limits = Self.limits()
        limits.wallSeconds = 1
        let run = ChildProcess.run(["sleep", "30"], limits: limits)
        #expect(run.status == -2 && run.errorText == "sleep: stopped after 1 s" && Date().timeIntervalSince(start) < 10, "\(run.status) \(run.errorText)")
    }

    @Test func manyLimitedProgramsAtOnceAllFinish() {
        // More runs than cores, from as many threads: the gate lets them through a few at a time.
        let done = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 12) { k in
            let run = ChildProcess.run(["sh", "-c", "sleep 0.1; echo \(k)"], limits: Self.limits())
            if run.text == String(k) { done.withLock { $0 += 1 } }
        }
        #expect(done.withLock { $0 } == 12)
    }

    @Test func aPathIsNeverTakenForAnOption() {
        #expect(ChildProcess.fileArgument("-rf") == "./-rf")
        #expect(ChildProcess.fileArgument("/tmp/-x") == "/tmp/-x")
        #expect(ChildProcess.fileArgument("notes/a.md") == "./notes/a.md")
    }
}
