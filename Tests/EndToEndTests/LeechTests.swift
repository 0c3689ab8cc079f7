import Foundation
import Testing

/// Leeches through the real binary: a card that lapses `leech_threshold` times is marked `leech:
/// true` in its own line (its note's other cards are not leeches) and, by default, is suspended by
/// an event of its own; `is:leech` finds it; undoing the grade takes the suspension back too; the
/// log and the note agree throughout.
@Suite struct LeechTests {
    private func vault(_ config: String) throws -> (QuireRunner, String) {
        let q = try QuireRunner()
        try q.write(".quire/device", Data("leech\n".utf8))
        try q.write("Leech/l.md", Data("---\ntags: [hard]\n---\nStubborn :: fact\n\nEasy :: one\n".utf8))
        let old = String(decoding: try q.read(".quire/config.yaml"), as: UTF8.self)
        try q.write(".quire/config.yaml", Data((old + config).utf8))
        let listed = try q.run(["list", "path:Leech/l.md", "--now", QuireRunner.now]).stdout
        let id = String(listed.split(separator: "\n").first { $0.contains("Stubborn") }?.prefix { $0 != "\t" && $0 != " " } ?? "")
        return (q, id)
    }

    @Test func aLeechIsMarkedAndSuspendedAndUndoTakesBothBack() throws {
        let (q, id) = try vault("leech_threshold: 2\n")
        defer { q.cleanUp() }
        // The note's other card lapses once: no leech, before or after its sibling becomes one.
        let other = String(try q.run(["list", "path:Leech/l.md", "Easy", "--now", QuireRunner.now]).stdout.prefix { $0 != "\t" })
        #expect(try q.run(["grade", other, "easy", "--at", "2026-11-01T10:00:00Z"]).status == 0)
        #expect(try q.run(["grade", other, "again", "--at", "2026-11-05T11:00:00Z"]).status == 0)
        #expect(try q.run(["grade", id, "easy", "--at", "2026-11-01T10:00:00Z"]).status == 0)
        #expect(try q.run(["grade", id, "again", "--at", "2026-11-05T10:00:00Z"]).status == 0)
        #expect(try q.run(["grade", id, "easy", "--at", "2026-11-05T10:20:00Z"]).status == 0)
        let before = try q.read("Leech/l.md")
        // The second lapse makes it a leech.
        let graded = try q.run(["grade", id, "again", "--at", "2026-11-15T10:00:00Z"])
        #expect(graded.stdout.contains("Leech: lapsed 2 times, marked in its line (is:leech finds it); the card is suspended"), "\(graded)")
        let note = String(decoding: try q.read("Leech/l.md"), as: UTF8.self)
        #expect(note.contains("tags: [hard]\n"), "the note is not tagged: \(note)")
        let line = note.split(separator: "\n").first { $0.contains(id + ":") } ?? ""
        #expect(line.contains("suspended: true") && line.contains("leech: true"), "\(note)")
        let log = String(decoding: try q.read(".quire/log/leech.log"), as: UTF8.self)
        #expect(log.contains(" suspend \(id) id=") && log.contains(" why=leech "), "\(log)")
        let listed = try q.run(["list", "is:leech", "--now", QuireRunner.now])
        #expect(listed.stdout.contains("Stubborn") && !listed.stdout.contains("Easy"), "\(listed)")
        #expect(try q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
        // Undo: the grade and the suspension it brought go; the note's bytes come back.
        #expect(try q.run(["undo"]).status == 0)
        #expect(try q.read("Leech/l.md") == before)
        #expect(try q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
    }

    /// `leech_action: tag` marks the card and leaves it to study.
    @Test func leechActionTagOnlyMarks() throws {
        let (q, id) = try vault("leech_threshold: 1\nleech_action: tag\n")
        defer { q.cleanUp() }
        #expect(try q.run(["grade", id, "easy", "--at", "2026-11-01T10:00:00Z"]).status == 0)
        let graded = try q.run(["grade", id, "again", "--at", "2026-11-05T10:00:00Z"])
        #expect(graded.stdout.contains("marked in its line") && !graded.stdout.contains("suspended"), "\(graded)")
        let note = String(decoding: try q.read("Leech/l.md"), as: UTF8.self)
        #expect(note.contains("leech: true") && note.contains("tags: [hard]\n") && !note.contains("suspended: true"))
        #expect(try q.run(["list", "is:leech", "--count", "--now", QuireRunner.now]).stdout == "1\n")
        #expect(try q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
        // A bad value is a located warning, and the default holds.
        try q.write(".quire/config.yaml", Data("leech_action: explode\n".utf8))
        let check = try q.run(["check", "--now", QuireRunner.now])
        #expect(check.stdout.contains(".quire/config.yaml:1:15: warning: 'leech_action' must be suspend or tag"), "\(check)")
    }

    /// A note whose `tags:` could not take another tag (an anchored list an alias copies) gets
    /// the grade, the mark and the suspension: no tag is needed any more.
    @Test func aNoteThatCannotBeTaggedStillGetsTheGrade() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write(".quire/device", Data("leech\n".utf8))
        try q.write("Leech/l.md", Data("---\ntags: &t [a]\nother: *t\n---\nStubborn :: fact\n".utf8))
        let old = String(decoding: try q.read(".quire/config.yaml"), as: UTF8.self)
        try q.write(".quire/config.yaml", Data((old + "leech_threshold: 1\n").utf8))
        let id = String(try q.run(["list", "path:Leech/l.md"]).stdout.prefix { $0 != "\t" })
        #expect(try q.run(["grade", id, "easy", "--at", "2026-11-01T10:00:00Z"]).status == 0)
        let graded = try q.run(["grade", id, "again", "--at", "2026-11-05T10:00:00Z"])
        #expect(graded.status == 0 && graded.stdout.contains("Leech: lapsed 1 time, marked in its line (is:leech finds it); the card is suspended"), "\(graded)")
        #expect(!graded.stdout.contains("tagged"))
        #expect(String(decoding: try q.read("Leech/l.md"), as: UTF8.self).contains("suspended: true"))
        #expect(try q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
    }
}
