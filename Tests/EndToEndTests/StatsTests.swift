import Foundation
import QuireMarkdown
import Testing

/// `quire stats` through the real binary, on SampleVault.
@Suite struct StatsTests {
    let now = ["--now", QuireRunner.now]

    @Test func dashboardAndJSON() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let dashboard = try q.run(["stats"] + now)
        #expect(dashboard.status == 0)
        for line in dashboard.stdout.split(separator: "\n") { #expect(TerminalText.width(String(line)) <= 80, "\(line)") }
        #expect(dashboard.stdout.hasPrefix("Streak: 16 days (longest 16)\nCards: 161 — "), "\(dashboard)")
        #expect(dashboard.stdout.contains("Milestones\n  ✓ First Review 2026-10-02"))
        let json = try q.run(["stats", "--json"] + now).stdout
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(parsed["reviews"] as? Int == 414)
        #expect((parsed["cards"] as? [String: Any])?["total"] as? Int == 161)
        #expect(((parsed["forecast"] as? [String: Any])?["days"] as? [Int])?.count == 30)
        #expect((parsed["calendar"] as? [Any])?.count == 365)
        let decks = try #require(parsed["decks"] as? [[String: Any]])
        let cells = try #require(decks.first { $0["deck"] as? String == "Biology/Cells" })
        // Due as `quire due` counts it.
        let due = try #require(try JSONSerialization.jsonObject(with: Data(try q.run(["due", "--json"] + now).stdout.utf8)) as? [String: Any])
        #expect(cells["cards"] as? Int == 25 && cells["due"] as? Int == (due["decks"] as? [String: Int])?["Biology/Cells"], "\(cells)")
        #expect(dashboard.stdout.contains("Decks (success, mastered, due, time)\n"))
        #expect(dashboard.stdout.contains("\nCuration: daily "), "\(dashboard)")
        let curation = try #require(parsed["curation"] as? [String: Any])
        #expect(curation["archived"] as? Int == 2 && (curation["categories"] as? [String: Int])?["Productivity"] == 2, "\(curation)")
        // A query's cards only.
        let biology = try q.run(["stats", "--json", "deck:Biology"] + now).stdout
        let b = try #require(try JSONSerialization.jsonObject(with: Data(biology.utf8)) as? [String: Any])
        #expect((b["cards"] as? [String: Any])?["total"] as? Int == 53)
        #expect(try q.run(["stats", "--days", "0"] + now).status != 0)
        let since = try q.run(["stats", "--json", "--since", "2026-11-22"] + now).stdout
        let s = try #require(try JSONSerialization.jsonObject(with: Data(since.utf8)) as? [String: Any])
        #expect((s["reviews"] as? Int ?? 0) < 414 && (s["reviews"] as? Int ?? 0) > 0, "\(s["reviews"] ?? "")")
        #expect(try q.run(["stats", "--since", "2026-11-22", "--until", "2026-11-01"] + now).status != 0)
        // The whole dashboard and JSON, golden (the sample vault's history is in scripts/rebuild-sample-history.sh).
        try Golden.check(dashboard.stdout + "--- json\n" + json, "stats")
    }

    /// A deck or category name holding escape sequences is shown, not obeyed — its colour
    /// sequences too — in the dashboard; the report escapes it as text.
    @Test func hostileNamesAreShownNotObeyed() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Hostile/n.md", Data("---\ntitle: x\ndeck: \"Evil\\e[31mRed\\e]0;title\\a\"\ncategory: \"Bad\\e[2J\"\n---\nWhat? :: <script>x</script>\n".utf8))
        let id = try #require(try q.run(["list", "path:Hostile/n.md"] + now).stdout.split(separator: "\t").first.map(String.init))
        #expect(try q.run(["grade", id, "good", "--ms", "2000"] + now).status == 0)
        let dashboard = try q.run(["stats", "path:Hostile/n.md"] + now)
        #expect(dashboard.status == 0)
        #expect(!dashboard.stdout.contains("\u{1B}") && !dashboard.stdout.contains("\u{7}"), "\(dashboard)")
        #expect(dashboard.stdout.contains("Evil^[[31mRed^[]0;title^G"), "\(dashboard)")
        #expect(dashboard.stdout.contains("Bad^[[2J"))
        let page = try q.run(["report"] + now).stdout
        #expect(!page.contains("\u{1B}") && !page.contains("<script>x") && page.contains("Evil[31mRed"))
    }
}
