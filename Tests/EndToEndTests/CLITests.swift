import Foundation
import Testing

/// A CLI that never surprises (issue 18), through the real binary: typos in options are errors,
/// not queries; ID prefixes in queries; tags that cannot be tags; times that would rewrite history.
@Suite struct CLITests {
    let now = ["--now", QuireRunner.now]

    @Test func anUnknownOptionIsAnErrorWithASuggestion() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        for (args, option, suggestion) in [(["list", "--jsn"], "--jsn", "--json"), (["suspend", "--dryrun", "all"], "--dryrun", "--dry-run"),
                                           (["tag", "add", "x", "--dry-rn"], "--dry-rn", "--dry-run"), (["review", "--ahaed", "3"], "--ahaed", "--ahead"),
                                           (["set", "cycle=weekly", "--dryrun"], "--dryrun", "--dry-run"), (["unset", "cycle", "--jason"], "--jason", "--json")] {
            let r = try q.run(args + now)
            #expect(r.status == 64, "\(args): \(r)")
            if suggestion == "--json" && args[0] == "unset" {
                #expect(r.stderr.contains("unknown option '\(option)'"), "\(r)")
            } else {
                #expect(r.stderr.contains("unknown option '\(option)'; did you mean '\(suggestion)'?"), "\(r)")
            }
        }
        #expect(try q.run(["list", "--completely-unknown"] + now).stderr.contains("unknown option '--completely-unknown' (a query word"))
        // After `--`, a word with dashes is a query word; a leading '-' still negates.
        #expect(try q.run(["list", "--count"] + now + ["--", "--json"]).stdout == "0\n")
        #expect(try q.run(["list", "--count", "-tag:exam"] + now).status == 0)
    }

    @Test func idPrefixesInQueries() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let full = try q.run(["list", "id:h9wx0pmjhph4"] + now).stdout
        #expect(full.contains("Chloroplast"))
        #expect(try q.run(["list", "id:h9wx"] + now).stdout == full)
        #expect(try q.run(["list", "id:h9"] + now).stderr.contains("too short"))
    }

    @Test func aTagThatCannotBeATagIsRefused() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = try snapshot(q)
        let swapped = try q.run(["tag", "add", "deck:Math", "algebra"] + now)
        #expect(swapped.status != 0 && swapped.stderr.contains("'deck:Math' cannot be a tag") && swapped.stderr.contains("quire tag add TAG [QUERY]"), "\(swapped)")
        #expect(try q.run(["tag", "add", "two words"] + now).status != 0)
        #expect(try snapshot(q) == before)
    }

    @Test func timesThatWouldRewriteHistoryAreRefused() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = try snapshot(q)
        // Chloroplast's last review is 2026-11-22T11:40:00Z.
        let early = try q.run(["grade", "h9wx0pmjhph4", "good", "--at", "2026-11-21T09:00:00Z"])
        #expect(early.status != 0 && early.stderr.contains("was last reviewed at 2026-11-22T11:40:00Z"), "\(early)")
        let past = try q.run(["bury", "h9wx", "--until", "2026-11-20T00:00:00Z"] + now)
        #expect(past.status == 64 && past.stderr.contains("is not in the future"), "\(past)")
        #expect(try snapshot(q) == before)
        #expect(try q.run(["replay", "--check"] + now).status == 0)
        #expect(try q.run(["grade", "h9wx0pmjhph4", "good", "--at", "2026-11-22T12:00:00Z"]).status == 0)
    }

    /// Every file of the vault, by path.
    private func snapshot(_ q: QuireRunner) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = q.vault.path
        guard let e = FileManager.default.enumerator(atPath: root) else { return files }
        // The cache, the lock and the device ID a first write makes are the clone's own bookkeeping.
        for case let path as String in e where !path.hasPrefix(".quire/cache") && path != ".quire/device" && path != ".quire/lock" {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDir), !isDir.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
        }
        return files
    }
}
