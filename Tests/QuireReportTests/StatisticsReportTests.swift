import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import QuireCuration
import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy
@testable import QuireReport
import QuireVault

/// The HTML report: well-formed, self-contained, the dashboard's numbers, hostile names escaped.
@Suite struct StatisticsReportTests {
    static func t(_ s: String) -> Timestamp { Timestamp(iso8601: s)! }

    /// Counts the elements of an XML document by name (with their `class`), and its text.
    final class Census: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var classes: [String: Int] = [:]
        var text = ""
        var attributes: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements[name, default: 0] += 1
            if let c = attributes["class"] { classes[c, default: 0] += 1 }
            self.attributes += attributes.values
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }

    static func statistics(deck: String) -> VaultStatistics {
        let a = CardID("aaaaaaaaaaaa")!
        let events = [
            ReviewEvent(time: t("2026-11-01T10:00:00Z"), card: a, action: .grade(.easy), fields: [("ms", "4000")]),
            ReviewEvent(time: t("2026-11-12T10:00:00Z"), card: a, action: .grade(.good), fields: [("ms", "6000")]),
            ReviewEvent(time: t("2026-11-20T10:00:00Z"), card: a, action: .grade(.again), fields: [("ms", "3000")]),
        ]
        var review = SchedulingState()
        review.state = .review
        review.interval = 30
        review.stability = 30
        review.difficulty = 4.5
        review.due = t("2026-11-24T10:00:00Z")
        let card = Card(id: a, kind: .basic, variant: .single, front: "f", back: "b", lines: 1...1, column: 1, headingPath: [],
                        identityText: "f", hasExplicitID: false, schedule: review)
        return VaultStatistics(cards: [(card, false)], log: StatisticsLog(events), now: t("2026-11-22T12:00:00Z"),
                               calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0), days: 14, deck: { _ in DeckPath(deck) })
    }

    @Test func wellFormedAndSelfContained() throws {
        let hostile = "Evil<script>alert(1)</script>&\"'\u{1B}[31m"
        let s = Self.statistics(deck: hostile)
        var curation = Curation.Summary()
        curation.byCycle = [.daily: 3, .weekly: 1]
        curation.byCategory = ["<b>bold</b>": 2]
        let html = StatisticsReport(statistics: s, curation: curation, title: "My <Vault>", query: "deck:\"a&b\"",
                                    generated: "2026-11-22T12:00 UTC").html()
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        // Nothing to run and nothing to fetch: no script, no stylesheet or image from elsewhere.
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("\u{1B}"))
        let withoutNamespace = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!withoutNamespace.contains("http:") && !withoutNamespace.contains("https:") && !withoutNamespace.contains("url("))
        #expect(html.contains("@media (prefers-color-scheme: dark)") && html.contains("content=\"light dark\""))
        // Well-formed XML throughout (the SVG charts and the page), parsed for real.
        let parser = XMLParser(data: Data(html.utf8))
        let census = Census()
        parser.delegate = census
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(census.elements["script"] == nil)
        // The heatmap: a square for each of the 365 days; the forecast and the last 30 days' reviews
        // mark today; the hours, 24 bars twice; the retrievability, 10.
        #expect(census.classes.filter { $0.key.hasPrefix("day l") }.values.reduce(0, +) == 365)
        #expect(census.classes["bar today"] == 2)
        #expect(census.elements["svg"] ?? 0 >= 14)
        #expect(census.text.contains("Reviews by hour of day") && census.text.contains("Retention by hour of day, percent"))
        #expect(census.text.contains("Minutes of answering per day") && census.text.contains("Cards added per day"))
        #expect(census.text.contains("Cards by retrievability now"))
        // The names arrive as text, escaped, not as markup.
        #expect(census.text.contains("Evil<script>alert(1)</script>&\"'[31m"))
        #expect(census.text.contains("<b>bold</b>") && census.text.contains("My <Vault>") && census.text.contains("deck:\"a&b\""))
        #expect(census.elements["b"] == nil)
        // The dashboard's numbers: 3 reviews, success 67 %, streak, the calibration point.
        #expect(census.text.contains("Reviews") && census.text.contains("success 67%"))
        #expect(census.text.contains("FSRS: predicted recall and the actual pass rate"))
        #expect(census.elements["circle"] == s.calibration.filter { $0.reviews > 0 }.count)
        for section in ["key-figures", "mastery", "due-forecast", "reviews-past-year", "retention", "answer-buttons",
                        "intervals-stability-and-difficulty", "decks", "milestones", "curation", "activity", "hours"] {
            #expect(html.contains("<section id=\"\(section)\">"), "\(section)")
        }
    }

    @Test func emptyVault() throws {
        let s = VaultStatistics(cards: [], log: StatisticsLog([]), now: Self.t("2026-11-22T12:00:00Z"), calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0))
        let html = StatisticsReport(statistics: s, curation: nil, title: "Empty", query: "", generated: "now").html()
        let parser = XMLParser(data: Data(html.utf8))
        #expect(parser.parse())
        #expect(html.contains("No review of a card with an FSRS memory yet.") && !html.contains("id=\"curation\""))
    }

    @Test func escaping() {
        #expect(SVGChart.escape("a<b>&\"'\u{7}\u{9B}c") == "a&lt;b&gt;&amp;&quot;&#39;c")
        #expect(SVGChart.f(12.34) == "12.3" && SVGChart.f(5) == "5" && SVGChart.f(.nan) == "0")
    }
}
