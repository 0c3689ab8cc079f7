@testable import QuireReview
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// `quire tag` / `set` / `unset` as planned and applied edits on real files.
@Suite struct FrontMatterChangeTests {
    private func tag(_ t: String) -> QuireModel.Tag { Tag(t)! }

    /// Plans one change for one file with `text`, and returns the new text (nil when unchanged) and the diff.
    private func edit(_ text: String, _ change: FrontMatterChange) throws -> (text: String?, diff: String?) {
        try withTempDir { dir in
            try dir.write("n.md", text)
            let vault = try Vault(root: dir.path)
            let (edits, diagnostics) = vault.plan(change, paths: ["n.md"])
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            guard let e = edits.first else { return (nil, nil) }
            // Planning does not write.
            #expect(try dir.text("n.md") == text)
            let (written, failures) = vault.apply(edits)
            #expect(written == ["n.md"])
            #expect(failures.isEmpty)
            let after = try dir.text("n.md")
            #expect(Array(after.utf8) == e.edited)
            return (after, e.diff)
        }
    }

    @Test func addTagToBlockList() throws {
        let r = try edit("---\ntitle: T\ntags:\n  - bio\n# keep this comment\n---\nbody\n", .addTag(tag("exam")))
        #expect(r.text == "---\ntitle: T\ntags:\n  - bio\n  - exam\n# keep this comment\n---\nbody\n")
        #expect(r.diff == "--- a/n.md\n+++ b/n.md\n@@ -2,6 +2,7 @@\n title: T\n tags:\n   - bio\n+  - exam\n # keep this comment\n ---\n body\n")
    }

    @Test func addTagToFlowList() throws {
        #expect(try edit("---\ntags: [bio, 'x y']\n---\n", .addTag(tag("#exam"))).text == "---\ntags: [bio, 'x y', exam]\n---\n")
        #expect(try edit("---\ntags: []\n---\n", .addTag(tag("exam"))).text == "---\ntags: [exam]\n---\n")
    }

    @Test func addTagToCommaString() throws {
        #expect(try edit("---\ntags: bio, chem\n---\n", .addTag(tag("exam"))).text == "---\ntags: bio, chem, exam\n---\n")
        #expect(try edit("---\ntags: \"bio\"\n---\n", .addTag(tag("exam"))).text == "---\ntags: \"bio, exam\"\n---\n")
    }

    @Test func addTagWhenMissingOrWithoutFrontMatter() throws {
        #expect(try edit("---\ntitle: T\n---\nbody\n", .addTag(tag("exam"))).text == "---\ntitle: T\ntags: [exam]\n---\nbody\n")
        #expect(try edit("---\ntags:\n---\n", .addTag(tag("exam"))).text == "---\ntags: [exam]\n---\n")
        let r = try edit("# Title\n\nx :: y\n", .addTag(tag("exam")))
        #expect(r.text == "---\ntags: [exam]\n---\n# Title\n\nx :: y\n")
        #expect(r.diff == "--- a/n.md\n+++ b/n.md\n@@ -1,3 +1,6 @@\n+---\n+tags: [exam]\n+---\n # Title\n \n x :: y\n")
    }

    @Test func addTagKeepsCRLF() throws {
        #expect(try edit("---\r\ntags:\r\n  - bio\r\n---\r\nbody\r\n", .addTag(tag("exam"))).text
            == "---\r\ntags:\r\n  - bio\r\n  - exam\r\n---\r\nbody\r\n")
    }

    @Test func addingAPresentTagChangesNothing() throws {
        #expect(try edit("---\ntags: [exam]\n---\n", .addTag(tag("exam"))).text == nil)
        // Tags compare case-insensitively (FORMAT.md §2.1), so `Exam` is already there.
        #expect(try edit("---\ntags: [exam]\n---\n", .addTag(tag("Exam"))).text == nil)
        #expect(try edit("---\ntags:\n  - '#exam'\n---\n", .addTag(tag("exam"))).text == nil)
    }

    @Test func removeTag() throws {
        #expect(try edit("---\ntags:\n  - bio\n  - exam\n---\n", .removeTag(tag("exam"))).text == "---\ntags:\n  - bio\n---\n")
        #expect(try edit("---\ntags: [bio, exam, chem]\n---\n", .removeTag(tag("exam"))).text == "---\ntags: [bio, chem]\n---\n")
        #expect(try edit("---\ntags: bio, exam\n---\n", .removeTag(tag("exam"))).text == "---\ntags: bio\n---\n")
        // The last tag gone, the key goes; a front matter left empty goes too.
        #expect(try edit("---\ntitle: T\ntags: [exam]\n---\n", .removeTag(tag("exam"))).text == "---\ntitle: T\n---\n")
        #expect(try edit("---\ntitle: T\ntags:\n  - Exam\nn: 1\n---\n", .removeTag(tag("exam"))).text == "---\ntitle: T\nn: 1\n---\n")
        #expect(try edit("---\ntags: exam\n---\nbody\n", .removeTag(tag("exam"))).text == "body\n")
        #expect(try edit("---\ntags: [exam, '#Exam']\n---\n", .removeTag(tag("exam"))).text == "")
        #expect(try edit("---\n# a comment stays\ntags: [exam]\n---\n", .removeTag(tag("exam"))).text == "---\n# a comment stays\n---\n")
        #expect(try edit("---\ntags: [bio]\n---\n", .removeTag(tag("exam"))).text == nil)
        #expect(try edit("no front matter\n", .removeTag(tag("exam"))).text == nil)
        // Case-insensitively, and with a leading `#` in the file.
        #expect(try edit("---\ntags: [bio, EXAM]\n---\n", .removeTag(tag("exam"))).text == "---\ntags: [bio]\n---\n")
        #expect(try edit("---\ntags: ['#exam', bio]\n---\n", .removeTag(tag("exam"))).text == "---\ntags: [bio]\n---\n")
    }

    @Test func setAndUnset() throws {
        #expect(try edit("---\ntitle: T\ncycle: daily # how often\n---\n", .set(key: "cycle", value: "weekly")).text
            == "---\ntitle: T\ncycle: weekly # how often\n---\n")
        #expect(try edit("---\ntitle: T\n---\n", .set(key: "category", value: "concept")).text
            == "---\ntitle: T\ncategory: concept\n---\n")
        let source = try edit("---\ntitle: T\n---\n", .set(key: "source", value: "Book: part 1")).text
        #expect(source == "---\ntitle: T\nsource: \"Book: part 1\"\n---\n")
        #expect(try edit("---\ntitle: T\n---\n", .set(key: "aliases", value: "[a, b]")).text
            == "---\ntitle: T\naliases: [a, b]\n---\n")
        #expect(try edit("---\ntitle: T\ncycle: daily\n---\n", .unset(key: "cycle")).text == "---\ntitle: T\n---\n")
        #expect(try edit("---\ntitle: T\n---\n", .unset(key: "cycle")).text == nil)
        #expect(try edit("\u{FEFF}---\r\ncycle: daily\r\n---\r\nbody\r\n", .unset(key: "cycle")).text == "\u{FEFF}body\r\n")
    }

    /// `tag add` or `set` on notes of every shape, then `tag remove` or `unset`: the bytes come back.
    @Test func addingThenRemovingGivesTheBytesBack() throws {
        let notes = ["Q: a?\nA: b\n", "\u{FEFF}body\n", "---\r\ntitle: t # c\r\n---\r\nbody\r\n", "---\ntags:\n  - bio\n---\n",
                     "---\ntags: \"bio, chem\"\n---\nx", "", "---\ntitle: 'x'\n...\nbody\n"]
        for note in notes {
            let tagged = try #require(try edit(note, .addTag(tag("exam"))).text, "\(note)")
            #expect(try edit(tagged, .removeTag(tag("exam"))).text == note, "\(note)")
            let set = try #require(try edit(note, .set(key: "cycle", value: "weekly")).text, "\(note)")
            #expect(try edit(set, .unset(key: "cycle")).text == note, "\(note)")
        }
    }

    @Test func validate() {
        #expect(throws: Never.self) { try FrontMatterChange.set(key: "cycle", value: "weekly").validate() }
        #expect(throws: Never.self) { try FrontMatterChange.set(key: "custom", value: "anything").validate() }
        #expect(throws: Never.self) { try FrontMatterChange.addTag(Tag("x")!).validate() }
        let cases: [(FrontMatterChange, String)] = [
            (.set(key: "cycle", value: "hourly"), "'cycle' must be daily, weekly, monthly or yearly"),
            (.set(key: "archived", value: "yes"), "'archived' must be true or false"),
            (.set(key: "created", value: "yesterday"), "'created' must be a date like 2026-11-22"),
            (.set(key: "reviewed", value: "2026-13-01"), "'reviewed' must be a date like 2026-11-22"),
            (.set(key: "deck", value: " / "), "'deck' cannot be empty"),
            (.set(key: "x", value: "two\nlines"), "a value cannot span lines"),
            (.set(key: "", value: "v"), "'' is not a usable key"),
            (.set(key: "a:b", value: "v"), "'a:b' is not a usable key"),
            (.set(key: " padded", value: "v"), "' padded' is not a usable key"),
            (.set(key: "quire", value: "{}"), "'quire' holds scheduling state; it is written by reviews, not by hand"),
            (.unset(key: "quire"), "'quire' holds scheduling state; it is written by reviews, not by hand"),
            (.set(key: "tags", value: "a"), "use 'quire tag add|remove' to change tags"),
            (.unset(key: "tags"), "use 'quire tag add|remove' to change tags"),
        ]
        for (change, message) in cases {
            #expect(throws: EditError.invalid(message)) { try change.validate() }
        }
    }

    @Test func planReportsUneditableFilesAndGoesOn() throws {
        try withTempDir { dir in
            try dir.write("bad.md", "---\ntags: {a: 1}\n---\n")
            try dir.write("good.md", "---\ntags: [a]\n---\n")
            let vault = try Vault(root: dir.path)
            let (edits, diagnostics) = vault.plan(.addTag(Tag("exam")!), paths: ["bad.md", "missing.md", "good.md"])
            #expect(edits.map(\.path) == ["good.md"])
            #expect(diagnostics.map(\.path) == ["bad.md", "missing.md"])
            #expect(diagnostics.map(\.severity) == [.error, .error])
            #expect(diagnostics.first?.line == 2)
        }
    }

    @Test func applyRefusesFilesChangedSincePlanning() throws {
        try withTempDir { dir in
            try dir.write("a.md", "---\ntags: [a]\n---\n")
            try dir.write("b.md", "---\ntags: [b]\n---\n")
            let vault = try Vault(root: dir.path)
            let (edits, _) = vault.plan(.addTag(Tag("exam")!), paths: ["a.md", "b.md"])
            try dir.write("a.md", "---\ntags: [changed]\n---\n")
            let (written, diagnostics) = vault.apply(edits)
            #expect(written == ["b.md"])
            #expect(printed(diagnostics) == [
                "a.md: error: the file changed on disk since it was read; not overwritten (run the command again)",
            ])
            #expect(try dir.text("a.md") == "---\ntags: [changed]\n---\n")
            #expect(try dir.text("b.md") == "---\ntags: [b, exam]\n---\n")
        }
    }
}
