import Foundation
import Testing
import QuireTestSupport

/// What `make install` puts on a machine, used as a shell user uses it: bash completing a query's
/// decks and tags from the vault it is in, and the manual page read by man's own formatter.
@Suite(.serialized, .tags(.slow)) struct InstallTests {
    @Test func bashCompletesDecksAndTags() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let script = try QuireRunner.execute(QuireRunner.executable, ["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let folder = q.vault.deletingLastPathComponent()
        let file = folder.appendingPathComponent("quire.bash")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        // quire on the PATH, as installed; bash with nothing but the completion script.
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("quire"), withDestinationURL: QuireRunner.executable)
        let rc = folder.appendingPathComponent("bashrc")
        try "PS1='$ '\nexport PATH='\(bin.path)':$PATH\nsource '\(file.path)'\ncd '\(q.vault.path)'\n".write(to: rc, atomically: true, encoding: .utf8)
        let socket = "quire-install-\(UUID().uuidString.prefix(8))"
        func tmux(_ args: [String]) throws -> String { try ReviewScreenTests.Pane.tmux(socket: socket, args) }
        _ = try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "30", "bash --noprofile --rcfile '\(rc.path)' -i"])
        defer { _ = try? tmux(["kill-server"]) }
        func screen(after keys: [String], until: (String) -> Bool) throws -> String {
            for k in keys { _ = try tmux(["send-keys", k]) }
            var last = ""
            for _ in 0..<100 {
                last = try tmux(["capture-pane", "-p"])
                if until(last) { break }
                usleep(50_000)
            }
            return last
        }
        _ = try screen(after: [], until: { $0.contains("$ ") })
        // bash splits words at `:`: it completes `deck:His` to the decks' common start, then lists the decks.
        _ = try screen(after: ["-l", "quire list deck:His", "Tab"], until: { $0.contains("deck:History") })
        let decks = try screen(after: ["Tab", "Tab"], until: { $0.contains("Ancient-Rome") })
        #expect(decks.contains("$ quire list deck:History") && decks.contains("Ancient-Rome"), "\(decks)")
        _ = try tmux(["send-keys", "C-u"])
        let tags = try screen(after: ["-l", "quire list tag:bio", "Tab"], until: { $0.contains("tag:biology") })
        #expect(tags.contains("quire list tag:biology"), "\(tags)")
        _ = try tmux(["send-keys", "C-u"])
        _ = try screen(after: ["-l", "quire list is:"], until: { $0.contains("quire list is:") })
        _ = try screen(after: ["Tab"], until: { _ in false })
        let keys = try screen(after: ["Tab"], until: { $0.contains("learning") })
        let listed = keys.split(separator: "\n").dropFirst().joined(separator: " ").split(separator: " ").map(String.init)
        #expect(listed.contains("due") && listed.contains("new") && listed.contains("learning"), "\(keys)")
    }

    @Test func helpTopicsFromTheDocs() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let list = try q.run(["help", "topics"])
        #expect(list.status == 0 && list.stdout.contains("curation    weekly, monthly and yearly"))
        let curation = try q.run(["help", "curation"])
        #expect(curation.status == 0 && curation.stdout.contains("Curation: weekly, monthly and yearly keep-or-archive reviews"))
        #expect(!curation.stdout.contains("## 3. Cards"), "one section, not the whole file")
        let queries = try q.run(["help", "queries"])
        #expect(queries.stdout.contains("deck:"))
        // A command's help still answers as before.
        #expect(try q.run(["help", "review"]).stdout.contains("OVERVIEW: Study"))
    }

    @Test func everyCommandHelpHasAnExample() throws {
        let dump = try QuireRunner.execute(QuireRunner.executable, ["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var lacking: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                if !((sub["discussion"] as? String) ?? "").contains("Example") { lacking.append((path + [name]).joined(separator: " ")) }
                walk(sub, path + [name])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), ["quire"])
        #expect(lacking.isEmpty, "no example in the help of: \(lacking.joined(separator: ", "))")
    }

    /// A command without a `commandName` makes the argument parser derive one from the type's
    /// name at every start, through a dynamic cast that scans every protocol conformance in the
    /// binary (about 5 ms of each command's start, measured with perf on `quire --version`).
    @Test func everyCommandNamesItself() throws {
        let folder = QuireRunner.repositoryRoot.appendingPathComponent("Sources/quire")
        var unnamed: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            var rest = Substring(text)
            while let start = rest.range(of: "CommandConfiguration(") {
                rest = rest[start.upperBound...]
                if !rest.drop(while: { $0 == " " || $0 == "\n" }).hasPrefix("commandName:") { unnamed.append(file) }
            }
        }
        #expect(unnamed.isEmpty, "a CommandConfiguration without commandName in: \(unnamed.joined(separator: ", "))")
    }

    @Test func theManualPageReads() throws {
        let page = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["python3", QuireRunner.repositoryRoot.appendingPathComponent("scripts/manpage.py").path, QuireRunner.executable.path])
        #expect(page.status == 0 && page.stdout.hasPrefix(".TH QUIRE 1"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quire-\(UUID().uuidString).1")
        defer { try? FileManager.default.removeItem(at: file) }
        try page.stdout.write(to: file, atomically: true, encoding: .utf8)
        // groff with every warning on: none, and every command is there.
        let shown = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["groff", "-man", "-Tutf8", "-ww", "-z", file.path])
        #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown.stderr)")
        let text = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["groff", "-man", "-Tutf8", "-P-cbou", file.path]).stdout
        for command in ["quire review", "quire serve", "quire doctor", "quire config set", "quire remind install"] {
            #expect(text.contains(command), "\(command)")
        }
    }
}
