import Foundation
import Testing

/// `quire category`: the seeded categories, add, rename and remove, the notes rewritten in one
/// lossless bulk edit.
@Suite struct CategoryTests {
    let now = ["--now", QuireRunner.now]

    @Test func addRenameRemove() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        var listed = try q.run(["category"] + now).stdout
        #expect(listed.hasPrefix("Career  1 note\nCommunication  1 note\nconcept  6 notes  (not in the settings: quire category add concept COLOUR)\n"
                                 + "Finance  1 note\nHealth  1 note\n"), "\(listed)")
        #expect(try q.run(["category", "add", "Philosophy", "#123456"] + now).status == 0)
        #expect(try q.run(["category", "add", "concept", "--color", "#654321"] + now).status == 0)
        #expect(try q.run(["category"] + now).stdout.contains("concept  6 notes\n"))
        #expect(try q.run(["category", "add", "Twice", "#123456", "--color", "#123456"] + now).status != 0)
        let bad = try q.run(["category", "add", "a:b"] + now)
        #expect(bad.status != 0 && bad.stderr.contains("cannot be a category name"))
        let sleep = "Insights/2026-09-22 Sleep debt.md", growth = "Insights/2026-10-21 Fixed vs growth.md"
        let growthBefore = String(decoding: try q.read(growth), as: UTF8.self)
        #expect(try q.run(["category", "rename", "Mindset", "Outlook"] + now).status == 0)
        #expect(String(decoding: try q.read(growth), as: UTF8.self) == growthBefore.replacingOccurrences(of: "category: Mindset\n", with: "category: Outlook\n"))
        #expect(try q.run(["category", "remove", "Health"] + now).status == 0)
        #expect(!String(decoding: try q.read(sleep), as: UTF8.self).contains("category:"))
        listed = try q.run(["category", "--json"] + now).stdout
        #expect(listed.contains("\"name\": \"Outlook\",\n    \"color\": \"#ef4444\",\n    \"notes\": 1"), "\(listed)")
        #expect(listed.contains("\"name\": \"Philosophy\",\n    \"color\": \"#123456\"") && !listed.contains("\"Health\"") && !listed.contains("\"Mindset\""))
        let config = String(decoding: try q.read(".quire/config.yaml"), as: UTF8.self)
        #expect(config.contains("# Quire settings.") && config.contains("  Outlook: \"#ef4444\"\n"), "comments and colours kept: \(config)")
        #expect(try q.run(["check"] + now).status == 0)
        // Source types, the same way.
        #expect(try q.run(["source-type", "add", "Course"] + now).status == 0)
        #expect(try q.run(["source-type", "remove", "Link"] + now).status == 0)
        #expect(try q.run(["source-type"] + now).stdout == "Book\nVideo\nPodcast\nArticle\nPerson\nOther\nCourse\n")
    }
}
