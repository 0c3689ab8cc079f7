import Testing
@testable import QuireModel

/// The table of plain-valued front-matter keys (`NoteKey.all`).
@Suite struct NoteKeyTests {
    static let samples: [String: NoteKey.Value] = [
        "created": .date(Timestamp(iso8601: "2026-11-22")!),
        "cycle": .choice("monthly"),
        "archived": .flag(true),
        "category": .text("concept"),
        "source": .text("https://example.org/a"),
        "source_type": .text("article"),
        "reviewed": .date(Timestamp(iso8601: "2026-11-23T08:00:00Z")!),
        "type": .flag(true),
    ]

    @Test func namesAreUniqueAndDocumented() {
        let names = NoteKey.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names == ["created", "cycle", "archived", "category", "source", "source_type", "reviewed", "type"])
        #expect(!names.contains("title") && !names.contains("deck") && !names.contains("tags") && !names.contains("quire"))
        #expect(NoteKey.named("cycle")?.kind == .choice(["daily", "weekly", "monthly", "yearly"]))
        #expect(NoteKey.named("nope") == nil)
    }

    /// Each key's value set in a note is the value read back, and lands in the note's own property.
    @Test func everyKeySetsItsProperty() throws {
        var note = Note(path: "a.md", title: "A", deck: DeckPath("Default")!)
        let empty = note
        for key in NoteKey.all {
            let value = try #require(Self.samples[key.name], "no sample for \(key.name)")
            key.set(value, in: &note)
            #expect(key.value(in: note) == value)
        }
        #expect(note.created == Timestamp(iso8601: "2026-11-22"))
        #expect(note.cycle == .monthly)
        #expect(note.archived)
        #expect(note.category == "concept")
        #expect(note.sourceType == "article")
        #expect(note.typeAnswer)
        #expect(note != empty)
        for key in NoteKey.all { key.set(nil, in: &note) }
        #expect(note == empty)
        #expect(NoteKey.named("archived")?.value(in: note) == .flag(false))
    }

    /// A value of another kind than the key's removes the key instead of being stored wrongly.
    @Test func aValueOfAnotherKindRemovesTheKey() {
        var note = Note(path: "a.md", title: "A", deck: DeckPath("Default")!, cycle: .daily)
        NoteKey.named("cycle")?.set(.text("daily"), in: &note)
        #expect(note.cycle == nil)
        NoteKey.named("cycle")?.set(.choice("hourly"), in: &note)
        #expect(note.cycle == nil)
    }

    @Test func argumentsAreReadStrictly() {
        let cycle = NoteKey.named("cycle")!, archived = NoteKey.named("archived")!, created = NoteKey.named("created")!
        #expect(cycle.value(fromArgument: "weekly") == .choice("weekly"))
        #expect(cycle.value(fromArgument: "Weekly") == nil)
        #expect(archived.value(fromArgument: "true") == .flag(true))
        #expect(archived.value(fromArgument: "yes") == nil)
        #expect(created.value(fromArgument: "2026-13-01") == nil)
        #expect(NoteKey.named("category")!.value(fromArgument: "anything") == .text("anything"))
        #expect(cycle.expectation == "daily, weekly, monthly or yearly")
        #expect(created.expectation == "a date like 2026-11-22")
    }

    /// Equality sees every field, and `readsTheSame` all but the file's size and digest.
    @Test func equality() {
        let a = Note(path: "a.md", title: "A", deck: DeckPath("Default")!, byteCount: 10)
        var b = a
        b.byteCount = 11
        b.contentDigest = 99
        #expect(a != b)
        #expect(a.readsTheSame(as: b))
        b.title = "B"
        #expect(!a.readsTheSame(as: b))
    }
}
