import Testing
@testable import QuireModel

@Suite struct TagTests {
    @Test func parsing() {
        #expect(Tag("exam")?.name == "exam")
        #expect(Tag("#Exam")?.name == "Exam")
        #expect(Tag("#Exam")?.key == "exam")
        #expect(Tag("  exam/week-3 ")?.name == "exam/week-3")
        #expect(Tag("") == nil)
        #expect(Tag("#") == nil)
        #expect(Tag("two words") == nil)
        #expect(Tag("a,b") == nil)
    }

    @Test func equalityIgnoresCase() throws {
        let a = try #require(Tag("Exam")), b = try #require(Tag("#exam"))
        #expect(a == b)
        #expect(a.isSame(as: b))
        #expect(Set([a, b]).count == 1)
        #expect(a.description == "Exam")
    }

    @Test func hierarchy() throws {
        let parent = try #require(Tag("exam"))
        #expect(try #require(Tag("Exam/Week-3")).isDescendant(of: parent))
        #expect(try #require(Tag("exam/a/b")).isDescendant(of: try #require(Tag("exam/a"))))
        #expect(!(try #require(Tag("exams")).isDescendant(of: parent)))
        #expect(!parent.isDescendant(of: parent))
        #expect(!parent.isDescendant(of: try #require(Tag("exam/a"))))
    }

    @Test func noteHasTagIncludesChildren() throws {
        let note = Note(path: "a.md", title: "a", deck: .defaultDeck, tags: [try #require(Tag("Exam/week-3"))])
        #expect(note.hasTag(try #require(Tag("exam"))))
        #expect(note.hasTag(try #require(Tag("exam/WEEK-3"))))
        #expect(!note.hasTag(try #require(Tag("exam/week"))))
        #expect(!note.hasTag(try #require(Tag("week-3"))))
    }
}
