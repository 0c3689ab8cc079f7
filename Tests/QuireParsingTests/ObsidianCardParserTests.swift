@testable import QuireParsing
import Foundation
import Testing
import QuireModel
@testable import QuireTestSupport

/// `card_syntax: obsidian-sr` (FORMAT.md §3.8) against the Obsidian spaced-repetition plugin's own
/// tests and documentation (MIT; Fixtures/Corpus/obsidian-sr/ATTRIBUTION.md).
@Suite struct ObsidianCardParserTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Corpus")

    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appendingPathComponent(path)))
    }

    static func settings(_ options: [String: Any]) throws -> ObsidianSRSettings {
        let data = try JSONSerialization.data(withJSONObject: ["settings": options])
        let (settings, diagnostics) = ObsidianSRSettings.read(Array(data), path: "data.json")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return settings
    }

    /// Every `parse(...)` case of the plugin's tests/unit/parser.test.ts: type, text and lines.
    @Test func theParserCasesOfThePluginsTests() throws {
        let file = try #require(Self.json("obsidian-sr/parser-cases.json") as? [String: Any])
        let cases = try #require(file["cases"] as? [[String: Any]])
        #expect(cases.count == 98)
        for c in cases {
            let id = c["id"] as? String ?? "?"
            let input = try #require(c["input"] as? String)
            let settings = try Self.settings(try #require(c["options"] as? [String: Any]))
            let lines = input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var diagnostics: [Diagnostic] = []
            let found = ObsidianCardParser.questions(lines, settings: settings, diagnostics: &diagnostics, path: "t.md")
            let expected = try #require(c["expected"] as? [[Any]])
            let want = expected.map { "\($0[0]) \(($0[1] as? String ?? "").debugDescription) \($0[2])-\($0[3])" }
            let got = found.map { "\($0.type.rawValue) \($0.text.debugDescription) \($0.firstLine)-\($0.lastLine)" }
            #expect(got == want, "\(id)")
        }
    }

    /// Every fixture note: the card counts the plugin's tests and docs give (or, for the notes
    /// marked so, that its source gives).
    @Test func cardCountsOfTheFixtureNotes() throws {
        let file = try #require(Self.json("obsidian-sr/expected.json") as? [String: Any])
        let fixtures = try #require(file["fixtures"] as? [[String: Any]])
        #expect(fixtures.count > 50)
        for fixture in fixtures {
            let name = try #require(fixture["file"] as? String)
            let bytes = Array(try Data(contentsOf: Self.corpus.appendingPathComponent("obsidian-sr/" + name)))
            var settings = ObsidianSRSettings()
            if let options = fixture["settings"] as? [String: Any] { settings = try Self.settings(options) }
            let (note, _) = NoteParser.parse(bytes, path: "notes/" + name.split(separator: "/").last.map(String.init)!,
                                             syntax: .obsidianSR(settings))
            let cards = note?.cards ?? []
            // The plugin's test harness finds tags with a regex; Obsidian (and Quire) do not take
            // a tag inside an indented code block for a tag, so these notes are not flashcard
            // notes (Fixtures/Corpus/obsidian-sr/EXPECTED.md, "Harness caveat").
            let tagOnlyInCode = ["nqp-first-topic-after-question.md", "nqp-last-topic-before-question.md",
                                 "nqp-leading-whitespace-topic.md", "deck-question-specific-tags-indented.md"]
            let want = tagOnlyInCode.contains { name.hasSuffix($0) } ? 0 : try #require(fixture["cards"] as? Int)
            #expect(cards.count == want, "\(name): \(cards.map(\.front))")
        }
    }

    @Test func settingsAreReadFromThePluginsDataFile() {
        let json = """
            {"settings": {"flashcardTags": ["#cards", "#srs"], "singleLineCardSeparator": ";;",
             "multilineCardEndMarker": "+++", "convertFoldersToDecks": true,
             "clozePatterns": ["{{[123::]answer[::hint]}}", "no pattern here"]}, "buryDate": "2024-07-29"}
            """
        let (settings, diagnostics) = ObsidianSRSettings.read(Array(json.utf8), path: "data.json")
        #expect(settings.flashcardTags == ["#cards", "#srs"])
        #expect(settings.singleLineSeparator == ";;")
        #expect(settings.singleLineReversedSeparator == ":::")
        #expect(settings.multiLineEndMarker == "+++")
        #expect(settings.foldersToDecks)
        #expect(settings.clozePatternSources == ["{{[123::]answer[::hint]}}"])
        #expect(printed(diagnostics) == ["data.json: warning: cloze pattern 'no pattern here' needs 'answer', a number group like [123;;] and a hint group like [;;hint]; ignored"])
        let legacy = ObsidianSRSettings.read(Array(#"{"settings": {"convertBoldTextToClozes": true}}"#.utf8), path: "d").settings
        #expect(legacy.clozePatternSources == ["==[123;;]answer[;;hint]==", "**[123;;]answer[;;hint]**"])
        let broken = ObsidianSRSettings.read(Array("{\n  \"settings\": [".utf8), path: "data.json")
        #expect(printed(broken.diagnostics) == ["data.json:2:16: warning: invalid JSON: unexpected end; the plugin's default settings are used"])
    }

    @Test func clozePatternsOfEveryKind() throws {
        let pattern = try #require(ObsidianClozePattern("==[123;;]answer[;;hint]=="))
        func kinds(_ text: String) -> [ObsidianClozePattern.Kind] {
            ObsidianClozePattern.Kind.allCases.filter { !pattern.matches($0, in: Array(text.utf8)[...]).isEmpty }
        }
        #expect(kinds("The ==Paris== one") == [.simple])
        #expect(kinds("==Paris;;capital==") == [.simple])
        #expect(kinds("==1;;Paris==") == [.classic, .simple])
        #expect(kinds("==ash;;Paris==") == [.overlapping, .simple])
        #expect(kinds("====") == [])
        #expect(kinds("srdf ==") == [])
        #expect(kinds("==dolor won=") == [])
        let settings = ObsidianSRSettings()
        let simple = ObsidianCardParser.clozeCards(
            ObsidianCardParser.ClozeScan("The ==first== and ==second;;hint== one", settings: settings))
        #expect(simple.map(\.front) == ["The [...] and second one", "The first and [hint] one"])
        #expect(simple.map(\.back) == ["The first and second one", "The first and second one"])
        let classic = ObsidianCardParser.clozeCards(
            ObsidianCardParser.ClozeScan("==1;;a== ==1;;b== ==2;;c==", settings: settings))
        #expect(classic.map(\.front) == ["[...] [...] c", "a b [...]"])
    }

    /// A hostile line: a backtracking matcher of these expressions is cubic on it (hours); the
    /// Pike machine reads it once per start.
    @Test func hostileLineIsMatchedWhole() throws {
        let pattern = try #require(ObsidianClozePattern("==[123;;]answer[;;hint]=="))
        let line = Array(("==" + String(repeating: ";;=", count: 20_000) + "x==").utf8)
        let found = pattern.matches(.simple, in: line[...])
        #expect(found.count == 1)
        #expect(found.first?.range == 0..<line.count)
    }
}

/// Markdown with cards that nobody here wrote (the Obsidian plugin's and hashcards' fixtures, under
/// their licences in Fixtures/Corpus): read in Quire's own syntax, nothing crashes and no line
/// with Quire card syntax is left without a card or a diagnostic in its paragraph.
@Suite struct CardCorpusTests {
    static func files() throws -> [URL] {
        let root = ObsidianCardParserTests.corpus
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" && $0.lastPathComponent != "EXPECTED.md"
            && $0.lastPathComponent != "ATTRIBUTION.md" }.sorted { $0.path < $1.path }
    }

    /// Whether a line holds Quire card syntax (FORMAT.md §3.7).
    static func hasCardSyntax(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        return CardExtractor.cardSyntax(in: bytes) != nil
            || ["?", "??"].contains(line.trimmingCharacters(in: .whitespaces))
    }

    @Test func noCardLineIsLostInSilence() throws {
        let files = try Self.files()
        #expect(files.count > 100)
        var cards = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let (note, diagnostics) = parse(text, path: file.lastPathComponent)
            cards += note?.cards.count ?? 0
            guard let note else {
                #expect(diagnostics.contains { $0.severity == .error }, "\(file.lastPathComponent)")
                continue
            }
            // Paragraph-like runs of non-blank lines outside fences; skip front matter.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var inFence = false, start = 0
            var frontMatterEnd = 0
            if lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") { frontMatterEnd = close + 1 }
            for (i, line) in lines.enumerated() {
                let number = i + 1
                if line.isEmpty { start = number + 1 }
                if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle(); continue }
                guard !inFence, number > frontMatterEnd, !line.hasPrefix("    "), !line.hasPrefix("<"),
                      Self.hasCardSyntax(line) else { continue }
                let covered = note.cards.contains { $0.lines.contains(number) }
                let reported = diagnostics.contains { ($0.line ?? 0) >= min(start, number) && ($0.line ?? 0) <= number + 1 }
                #expect(covered || reported, "\(file.lastPathComponent):\(number): \(line)")
            }
        }
        #expect(cards > 50)
    }
}

/// Hostile notes in `card_syntax: obsidian-sr`: costs stay linear.
@Suite struct ObsidianHostileTests {
    @Test func manyClozeNumbersInALongQuestionMakeNoCardsAndSayWhy() {
        let line = (1...4000).map { "==\($0);;x==" }.joined(separator: " ")
        let text = "#flashcards\n\n" + String(repeating: line + "\n", count: 8)
        let (note, diagnostics) = NoteParser.parse(Array(text.utf8), path: "n.md", syntax: .obsidianSR(ObsidianSRSettings()))
        #expect(note?.cards.isEmpty == true)
        #expect(diagnostics.contains { $0.severity == .error && $0.message.hasPrefix("4000 cloze cards in a question") })
    }

    @Test func aClassicClozeNumberPastIntsRangeOfCardsMakesNoCardsAndSaysWhy() {
        // Found by the long fuzz trial: the number times the question's size overflowed.
        let text = "#flashcards\n\nThe capital of ==995108448976298893;;France==?\n"
        let (note, diagnostics) = NoteParser.parse(Array(text.utf8), path: "n.md", syntax: .obsidianSR(ObsidianSRSettings()))
        #expect(note?.cards.isEmpty == true)
        #expect(diagnostics.contains { $0.severity == .error && $0.message.contains("more cards than memory holds") })
    }

    @Test func aClassicClozeNumberPastTheCardLimitMakesNoCardsAndSaysWhy() {
        // Found by the long fuzz trial: `==92222;;x==` in a short question is within the budget in
        // bytes (8 MB) but asks for 92,222 cards.
        func parse(_ number: Int) -> (cards: Int?, errors: [String]) {
            let text = "#flashcards\n\nThe capital of ==\(number);;France==?\n"
            let (note, diagnostics) = NoteParser.parse(Array(text.utf8), path: "n.md", syntax: .obsidianSR(ObsidianSRSettings()))
            return (note?.cards.count, diagnostics.filter { $0.severity == .error }.map(\.message))
        }
        let atLimit = parse(ObsidianCardParser.clozeCardLimit)
        #expect(atLimit.cards == ObsidianCardParser.clozeCardLimit)
        #expect(atLimit.errors.isEmpty)
        let past = parse(ObsidianCardParser.clozeCardLimit + 1)
        #expect(past.cards == 0)
        #expect(past.errors == ["1001 cloze cards in a question of 32 bytes would make more than the 1000 cards one question may make; no cards made from it (split it)"])
    }

    @Test func aHugeClozePatternIsRefused() {
        let pattern = "==[123;;]answer[;;hint]" + String(repeating: "x", count: 300) + "=="
        let json = #"{"settings": {"clozePatterns": [""# + pattern + #""]}}"#
        let (settings, diagnostics) = ObsidianSRSettings.read(Array(json.utf8), path: "data.json")
        #expect(settings.clozePatternSources.isEmpty)
        #expect(diagnostics.count == 1)
    }

    @Test func deeplyNestedJSONIsAnError() {
        let json = String(repeating: "[", count: 100_000)
        let (_, diagnostics) = ObsidianSRSettings.read(Array(json.utf8), path: "data.json")
        #expect(printed(diagnostics).first?.contains("nested too deeply") == true)
    }
}
