import Foundation
import Testing

/// The bar a long index build draws: on a terminal (tmux) it shows the files read with their rate
/// and is gone before the command's answer; through a pipe nothing is added.
@Suite(.serialized) struct ProgressBarTests {
    @Test func aFirstIndexOfManyFilesShowsABarAndClearsIt() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        // 36,000 notes in 360 folders: well over the half second after which the bar is drawn,
        // in a debug build (12,000 came to take 0.36 s here).
        for folder in 0..<360 {
            for n in 0..<100 {
                try q.write("Many/\(folder)/note-\(n).md", Data("# Note \(n)\n\nQuestion \(folder)-\(n) :: answer \(n)\n".utf8))
            }
        }
        try? FileManager.default.removeItem(at: q.vault.appendingPathComponent(".quire/cache"))
        let socket = "quire-progress-\(UUID().uuidString.prefix(8))"
        func tmux(_ args: [String]) throws -> String { try ReviewScreenTests.Pane.tmux(socket: socket, args) }
        let command = "cd '\(q.vault.path)' && '\(QuireRunner.executable.path)' list --count; echo END; sleep 60"
        _ = try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "10", command])
        defer { _ = try? tmux(["kill-server"]) }
        var sawBar = false
        var last = ""
        for _ in 0..<600 {
            last = try tmux(["capture-pane", "-p"])
            if last.contains("Indexing ") && last.contains("/36") { sawBar = true }
            if last.contains("END") { break }
            usleep(20_000)
        }
        #expect(sawBar, "\(last)")
        // The answer on a line of its own: the bar was taken off first.
        let lines = last.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let count = try #require(lines.firstIndex(of: "END")).advanced(by: -1)
        #expect(count >= 0 && Int(lines[count]) ?? 0 > 36_000, "\(last)")
        #expect(!last.contains("Indexing"), "\(last)")

        // Through a pipe (a script, a log): nothing on standard error.
        try? FileManager.default.removeItem(at: q.vault.appendingPathComponent(".quire/cache"))
        let piped = try q.run(["list", "--count"])
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }
}
