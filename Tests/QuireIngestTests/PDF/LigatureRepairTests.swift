import Testing
@testable import QuireIngest

/// Ligatures a PDF's text layer lost, put back with a word list; nothing else touched.
@Suite struct LigatureRepairTests {
    static let repair = LigatureRepair(words: ["there", "are", "five", "key", "verbs", "that", "you", "need", "to", "learn", "filter",
                                              "notifies", "about", "i", "find", "these", "messages", "flow", "effect", "office", "and",
                                              "the", "of", "fiend", "a", "as", "is", "in", "it", "Nd", "There"])

    @Test func lostLigaturesComeBack() {
        #expect(Self.repair.repaired(line: "There are ve key dplyr verbs that you need to learn.") == "There are five key dplyr verbs that you need to learn.")
        #expect(Self.repair.repaired(line: "(lter), noti es you; I nd these messages") == "(filter), notifies you; I find these messages")
        #expect(Self.repair.repaired(line: "the e ect of the o ce") == "the effect of the office")
        // Unknown words no ligature makes known, names, capitals and words with digits stay.
        #expect(Self.repair.repaired(line: "dplyr ggplot2 Tidyverse xyz") == "dplyr ggplot2 Tidyverse xyz")
        // A quoted word is a name as written (the R package "cli", not "cliff").
        #expect(LigatureRepair(words: ["cliff", "the", "package"]).repaired(line: "the \"cli\" package `cli`") == "the \"cli\" package `cli`")
        // A word the list has only with a capital (`Nd`) is no word in lower case.
        #expect(Self.repair.repaired(line: "I nd it") == "I find it")
    }

    @Test func onlyEnglishPagesAreTouched() {
        let english = PDFLayout.Page(number: 1, height: 100, lines: [.init(top: 0, left: 0, width: 1, height: 1, size: 10, bold: false,
                                                                           text: "There are ve key verbs that you need to learn")])
        let other = PDFLayout.Page(number: 2, height: 100, lines: [.init(top: 0, left: 0, width: 1, height: 1, size: 10, bold: false,
                                                                         text: "Hay ve llaves en la mesa del comedor hoy")])
        let repaired = Self.repair.repaired(PDFLayout(pages: [english, other]))
        #expect(repaired.pages[0].lines[0].text == "There are five key verbs that you need to learn")
        #expect(repaired.pages[1].lines[0].text == "Hay ve llaves en la mesa del comedor hoy")
    }

    @Test func theSystemWordList() throws {
        let repair = try #require(LigatureRepair.installed(), "no word list: scripts/install-deps.sh installs wamerican")
        #expect(repair.repaired(line: "There are ve key dplyr verbs that you need to learn.") == "There are five key dplyr verbs that you need to learn.")
        #expect(repair.repaired(line: "dplyr 1.0.0 also noti es you; I nd these messages annoying") == "dplyr 1.0.0 also notifies you; I find these messages annoying")
    }
}
