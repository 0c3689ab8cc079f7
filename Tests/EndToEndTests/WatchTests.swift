import Foundation
import Synchronization
import Testing

/// `quire watch --json` as another tool would use it: a long-running process whose lines follow
/// the edits made to the vault.
@Suite struct WatchTests {
    /// A running `quire watch --json` whose output lines are collected as they come.
    final class Watcher: @unchecked Sendable {
        let process: Process
        private let collected = Collected()

        final class Collected: Sendable {
            let lines = Mutex<[String]>([])
            let partial = Mutex<Data>(Data())
        }

        init(_ runner: QuireRunner, _ args: [String] = ["watch", "--json"]) throws {
            let p = Process()
            p.executableURL = QuireRunner.executable
            p.arguments = args
            p.currentDirectoryURL = runner.vault
            p.environment = ProcessInfo.processInfo.environment.merging(
                ["XDG_DATA_HOME": runner.vault.deletingLastPathComponent().appendingPathComponent("data").path]) { $1 }
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            process = p
            out.fileHandleForReading.readabilityHandler = { [collected] handle in
                let data = handle.availableData
                collected.partial.withLock { buffer in
                    buffer.append(data)
                    while let nl = buffer.firstIndex(of: 10) {
                        let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                        buffer.removeSubrange(buffer.startIndex...nl)
                        collected.lines.withLock { $0.append(line) }
                    }
                }
            }
            try p.run()
        }

        /// Waits up to five seconds for `count` lines in all.
        func waitForLines(_ count: Int) -> [String] {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                let now = collected.lines.withLock { $0 }
                if now.count >= count { return now }
                usleep(10_000)
            }
            return collected.lines.withLock { $0 }
        }

        /// Waits up to ten seconds for a line that `matches`.
        func waitFor(_ matches: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if collected.lines.withLock({ $0.contains(where: matches) }) { return true }
                usleep(10_000)
            }
            return false
        }

        /// Stops the process with SIGTERM (which it must honour), killing it after three seconds so a
        /// failure cannot hang the test run.
        func stop() {
            process.terminate()
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            let honoured = !process.isRunning
            if !honoured { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(honoured, "quire watch did not stop on SIGTERM")
        }
    }

    @Test func printsEachChangeAsItHappens() throws {
        let runner = try QuireRunner()
        defer { runner.cleanUp() }
        let watcher = try Watcher(runner)
        defer { watcher.stop() }
        let ready = watcher.waitForLines(1)
        #expect(ready.first == #"{"event":"ready","notes":33,"cards":161}"#)

        try runner.write("Inbox/new.md", Data("new :: card\n".utf8))
        var lines = watcher.waitForLines(2)
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix(#"{"event":"added","path":"Inbox/new.md","cards":{"added":[""#) == true)

        try runner.write("Inbox/new.md", Data("---\ntitle: [\n---\n".utf8))
        lines = watcher.waitForLines(3)
        #expect(lines.last?.contains(#""event":"removed","path":"Inbox/new.md""#) == true)
        #expect(lines.last?.contains(#""severity":"error""#) == true)
        #expect(lines.last?.contains(#""line":3,"column":1"#) == true)

        try FileManager.default.removeItem(at: runner.vault.appendingPathComponent("Inbox"))
        lines = watcher.waitForLines(4)
        #expect(lines.count == 4)
        #expect(lines.last?.hasPrefix(#"{"event":"removed","path":"Inbox/functional-groups.md""#) == true)
        // The index the watcher keeps agrees with a fresh read of the vault.
        let list = try runner.run(["list", "--count", "--no-cache"])
        #expect(list.stdout == "154\n")
    }
}
