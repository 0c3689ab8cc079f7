@testable import QuireSync
import QuireModel
import QuireSystem
import Testing
import Foundation

/// The note merge on its own, with git's real `merge-file` for the text.
@Suite struct NoteMergeTests {
    /// git merge-file on three texts, through temporary files.
    static func gitMerge(_ o: [UInt8], _ a: [UInt8], _ b: [UInt8]) -> (bytes: [UInt8], conflicts: Bool)? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("note-merge-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, bytes) in [("o", o), ("a", a), ("b", b)] { try? Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let run = ChildProcess.run(["git", "merge-file", "-p", folder + "/a", folder + "/o", folder + "/b"])
        guard run.status >= 0, run.status < 128 else { return nil }
        return (run.output, run.status > 0)
    }

    static func merge(_ o: String, _ a: String, _ b: String,
                      replay: (CardID, NoteMerge.Sides) -> SchedulingState? = { _, _ in nil }) throws -> (text: String, outcome: NoteMerge.Outcome) {
        let merged = NoteMerge.merge(base: Array(o.utf8), ours: Array(a.utf8), theirs: Array(b.utf8),
                                     mergeText: gitMerge, replay: replay)
        let outcome = try #require(merged)
        return (String(decoding: outcome.bytes, as: UTF8.self), outcome)
    }

    static let line1 = "{state: review, due: 2026-11-21T10:00:00Z, last: 2026-11-20T10:00:00Z, reps: 1, lapses: 0}"
    static let line2 = "{state: review, due: 2026-11-25T10:00:00Z, last: 2026-11-21T10:00:00Z, reps: 2, lapses: 0}"
    static let line3 = "{state: review, due: 2026-11-24T10:00:00Z, last: 2026-11-22T10:00:00Z, reps: 2, lapses: 0}"

    /// Lines of different cards added on both sides next to each other: no conflict, both kept.
    @Test func neighbouringLinesOfDifferentCards() throws {
        let base = "---\ntitle: T\n---\nbody\n"
        let ours = "---\ntitle: T\nquire:\n  aaaaaaaaaaaa: \(Self.line1)\n\n---\nbody\n"
        let theirs = "---\ntitle: T\nquire:\n  bbbbbbbbbbbb: \(Self.line2)\n\n---\nbody\n"
        let (text, outcome) = try Self.merge(base, ours, theirs)
        #expect(!outcome.hasConflicts)
        // The writer's layout: a blank line after each line.
        #expect(text == "---\ntitle: T\nquire:\n  aaaaaaaaaaaa: \(Self.line1)\n\n  bbbbbbbbbbbb: \(Self.line2)\n\n---\nbody\n")
    }

    /// A card changed on both sides takes what the replay gives; without events, the later review.
    @Test func aCardChangedOnBothSides() throws {
        let base = "---\nquire:\n  aaaaaaaaaaaa: \(Self.line1)\n---\nbody\n"
        let ours = "---\nquire:\n  aaaaaaaaaaaa: \(Self.line2)\n---\nbody\n"
        let theirs = "---\nquire:\n  aaaaaaaaaaaa: \(Self.line3)\n---\nbody\n"
        var replayed = SchedulingState()
        replayed.state = .review
        replayed.reps = 3
        let (text, outcome) = try Self.merge(base, ours, theirs) { id, sides in
            #expect(id.rawValue == "aaaaaaaaaaaa" && sides.ours?.reps == 2 && sides.base?.reps == 1)
            return replayed
        }
        #expect(outcome.replayedCards.map(\.rawValue) == ["aaaaaaaaaaaa"])
        #expect(text.contains("aaaaaaaaaaaa: {state: review, reps: 3"))
        let (later, unreplayed) = try Self.merge(base, ours, theirs)
        #expect(unreplayed.unreplayedCards.count == 1)
        #expect(later.contains(Self.line3), "their review (11-22) is later than ours (11-21)")
    }

    /// A card whose line one side removed (the card was reset) and the other left alone: removed.
    @Test func aLineRemovedOnOneSide() throws {
        let base = "---\nquire:\n  aaaaaaaaaaaa: \(Self.line1)\n  bbbbbbbbbbbb: \(Self.line1)\n---\nbody\n"
        let ours = "---\nquire:\n  bbbbbbbbbbbb: \(Self.line1)\n---\nbody\n"
        let theirs = "---\nquire:\n  aaaaaaaaaaaa: \(Self.line1)\n  bbbbbbbbbbbb: \(Self.line2)\n---\nbody changed\n"
        let (text, outcome) = try Self.merge(base, ours, theirs)
        #expect(!outcome.hasConflicts)
        #expect(text == "---\nquire:\n  bbbbbbbbbbbb: \(Self.line2)\n---\nbody changed\n")
    }

    /// CRLF and a BOM are kept; a note without front matter on one side gets the block it needs.
    @Test func lineEndingsAndANoteWithoutFrontMatter() throws {
        let base = "\u{FEFF}A :: b\r\n"
        let ours = "\u{FEFF}---\r\nquire:\r\n  aaaaaaaaaaaa: \(Self.line1)\r\n---\r\nA :: b\r\n"
        let theirs = "\u{FEFF}A :: b\r\n\r\nC :: d\r\n"
        let (text, outcome) = try Self.merge(base, ours, theirs)
        #expect(!outcome.hasConflicts)
        #expect(text == "\u{FEFF}---\r\nquire:\r\n  aaaaaaaaaaaa: \(Self.line1)\r\n---\r\nA :: b\r\n\r\nC :: d\r\n")
    }

    /// A conflict in the user's front-matter keys is left with markers; the block is outside them.
    @Test func aConflictInTheUsersKeys() throws {
        let base = "---\ntitle: T\nquire:\n  aaaaaaaaaaaa: \(Self.line1)\n---\nbody\n"
        let ours = "---\ntitle: Ours\nquire:\n  aaaaaaaaaaaa: \(Self.line2)\n---\nbody\n"
        let theirs = "---\ntitle: Theirs\nquire:\n  aaaaaaaaaaaa: \(Self.line1)\n---\nbody\n"
        let (text, outcome) = try Self.merge(base, ours, theirs)
        #expect(outcome.hasConflicts)
        #expect(text.contains("<<<<<<<") && text.contains("title: Ours") && text.contains("title: Theirs"))
        #expect(text.contains("quire:\n  aaaaaaaaaaaa: \(Self.line2)\n"))
        #expect(!text.contains(NoteMerge.placeholderValue))
    }

    /// A front matter git's text merge could not read is merged as text by the caller.
    @Test func unreadableFrontMatterIsLeftToText() {
        let bad = Array("---\ntitle: [unclosed\n---\nbody\n".utf8)
        #expect(NoteMerge.merge(base: bad, ours: bad, theirs: bad, mergeText: Self.gitMerge, replay: { _, _ in nil }) == nil)
    }
}
