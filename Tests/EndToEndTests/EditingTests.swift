import Foundation
import Testing

/// Bulk front-matter edits through the real binary: dry runs, lossless writes, failures.
@Suite struct EditingTests {
    let now = ["--now", QuireRunner.now]

    /// Every file of the vault with its bytes.
    func snapshot(_ q: QuireRunner) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let root = q.vault.path
        let e = FileManager.default.enumerator(atPath: root)
        while let rel = e?.nextObject() as? String {
            // The index cache is Quire's own derived file, rewritten whenever a note changes, and
            // the write lock's file names the last writer.
            if rel.hasPrefix(".quire/cache/") || rel == ".quire/lock" { continue }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + rel, isDirectory: &isDir), !isDir.boolValue {
                out[rel] = try q.read(rel)
            }
        }
        return out
    }

    @Test func dryRunShowsDiffAndWritesNothing() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = try snapshot(q)
        let r = try q.run(["tag", "add", "--dry-run", "exam", "deck:Chemistry"] + now)
        try Golden.check(r.description, "tag-add-dry-run")
        #expect(try snapshot(q) == before)
    }

    @Test func tagAddChangesOnlyTagLines() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = try snapshot(q)
        let r = try q.run(["tag", "add", "week-3", "deck:Chemistry"] + now)
        try Golden.check(r.description, "tag-add")
        let after = try snapshot(q)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        #expect(changed == Set(["Chemistry/acids-and-bases.md", "Chemistry/bonding.md", "Chemistry/periodic-table.md",
                                "Inbox/functional-groups.md"]))
        // Every changed file differs only inside its front matter, and keeps its line endings and BOM.
        for path in changed {
            let old = String(decoding: before[path] ?? Data(), as: UTF8.self)
            let new = String(decoding: after[path] ?? Data(), as: UTF8.self)
            let oldBody = old.components(separatedBy: "\n---").dropFirst().joined(separator: "\n---")
            let newBody = new.components(separatedBy: "\n---").dropFirst().joined(separator: "\n---")
            #expect(oldBody == newBody, "body of \(path) changed")
            #expect(old.hasPrefix("\u{FEFF}") == new.hasPrefix("\u{FEFF}"))
            #expect(old.contains("\r\n") == new.contains("\r\n"))
        }
        let tagged = try q.run(["list", "--notes", "--count", "tag:week-3", "deck:Chemistry"] + now)
        #expect(tagged.stdout == "4\n")
        // Running it again changes nothing.
        let again = try q.run(["tag", "add", "week-3", "deck:Chemistry"] + now)
        #expect(again.stdout.isEmpty)
        #expect(try snapshot(q) == after)
        // Removing restores the original bytes where the tag was appended to an existing list.
        _ = try q.run(["tag", "remove", "week-3", "deck:Chemistry"] + now)
        let restored = try snapshot(q)
        for path in changed {
            let old = String(decoding: before[path] ?? Data(), as: UTF8.self)
            if old.contains("tags:") { #expect(restored[path] == before[path], "\(path) not restored") }
        }
    }

    @Test func setAndUnset() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = try snapshot(q)
        let set = try q.run(["set", "cycle=monthly", "deck:History"] + now)
        #expect(set.status == 0)
        #expect(try q.run(["list", "--notes", "--count", "cycle:monthly", "deck:History"] + now).stdout == "3\n")
        let unset = try q.run(["unset", "cycle", "deck:History"] + now)
        #expect(unset.status == 0)
        let after = try snapshot(q)
        // Notes that had no cycle come back byte-identical.
        for (path, data) in before where path.hasPrefix("History/") {
            let text = String(decoding: data, as: UTF8.self)
            if !text.contains("cycle:") { #expect(after[path] == data, "\(path) not restored") }
        }
        let bad = try q.run(["set", "cycle=fortnightly"] + now)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("'cycle' must be daily, weekly, monthly or yearly"))
        let reserved = try q.run(["set", "quire=x"] + now)
        #expect(reserved.status != 0)
        #expect(try snapshot(q) == after)
    }

    /// Regression: `quire set` dropped the quotes of a quoted value and wrote `a, b` plain.
    @Test func setKeepsTheQuotingAValueNeeds() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("S/s.md", Data("---\nsource: \"Campbell, ch. 6\"\nnote: 'it''s'\nplain: word\n---\nA :: b\n".utf8))
        for args in [["set", "source=Campbell, ch. 7"], ["set", "note=that's it"], ["set", "plain=other word"],
                     ["set", "where=Paris, France"], ["set", "ratio=3:4"], ["set", "created=2026-11-22T09:00:00Z"]] {
            #expect(try q.run(args + ["path:S/s.md"] + now).status == 0)
        }
        let text = String(decoding: try q.read("S/s.md"), as: UTF8.self)
        #expect(text == "---\nsource: \"Campbell, ch. 7\"\nnote: 'that''s it'\nplain: other word\nwhere: \"Paris, France\"\nratio: \"3:4\"\ncreated: 2026-11-22T09:00:00Z\n---\nA :: b\n", "\(text)")
        let json = try q.run(["list", "--notes", "--json", "path:S/s.md"] + now).stdout
        #expect(json.contains("\"source\": \"Campbell, ch. 7\"") && json.contains("\"created\": \"2026-11-22T09:00:00Z\""), "\(json)")
    }

    @Test func oneBadFileDoesNotStopTheRun() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Chemistry/broken.md", Data("---\ntitle: [unclosed\n---\nx :: y\n".utf8))
        try q.write("Chemistry/dup.md", Data("---\ntitle: a\ntitle: b\n---\nx :: y\n".utf8))
        let r = try q.run(["tag", "add", "exam", "deck:Chemistry"] + now)
        try Golden.check(r.description, "tag-add-with-bad-files")
        #expect(r.status == 1)
        #expect(try q.run(["list", "--notes", "--count", "tag:exam", "deck:Chemistry"] + now).stdout == "4\n")
    }
}
