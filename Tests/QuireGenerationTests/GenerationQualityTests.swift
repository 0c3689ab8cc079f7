import QuireSupport
import Foundation
import Testing
import QuireModel
import QuireParsing
import QuireTestSupport
@testable import QuireGeneration

/// The cards proposed for 40 sections of OpenStax textbooks (CC BY 4.0, Fixtures/GenerationSet/
/// ATTRIBUTION.md), each judged by a reader who did not write the generator against RUBRIC.md:
/// every card must have a judgement (a change that proposes new cards needs them judged), the
/// share judged good per format must not fall below floors.tsv, and no card may break a hard rule.
@Suite(.tags(.slow)) struct GenerationQualityTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// The OpenStax sections (prose), and real course material imported by Quire (cheat sheets, a
    /// slide deck, a scanned brochure, a textbook chapter converted to Markdown: RealNotes/ATTRIBUTION.md).
    static let sets = ["GenerationSet", "RealNotes"]

    /// The set's notes, by path, read as the vault reads them.
    static func notes(_ set: String) throws -> [(note: Note, bytes: [UInt8])] {
        let folder = fixtures.appendingPathComponent(set)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("notes").path).filter { $0.hasSuffix(".md") }.sorted()
        return try names.map { name in
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent("notes/" + name)))
            guard let note = NoteParser.parse(bytes, path: name).note else { throw TestFailure("\(name) does not parse") }
            return (note, bytes)
        }
    }

    /// The proposals for the set, each with its note's path.
    static func proposals(_ set: String) throws -> [(path: String, card: CardProposal, bytes: [UInt8])] {
        let notes = try notes(set)
        let statistics = TermStatistics(texts: notes.map { String(decoding: $0.bytes, as: UTF8.self) })
        let proposed = CardGenerator.propose(notes: notes, statistics: statistics)
        return zip(notes, proposed).flatMap { note, cards in cards.map { (note.note.path, $0, note.bytes) } }
    }

    static func table(_ set: String, _ name: String) throws -> [[String]] {
        let text = try String(contentsOf: fixtures.appendingPathComponent(set).appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test(arguments: sets) func everyCardIsJudgedAndPrecisionHoldsItsFloor(_ set: String) throws {
        var verdicts: [String: Bool] = [:]
        for row in try Self.table(set, "judgements.tsv") where row.count >= 4 { verdicts[row[0] + "\t" + row[2]] = row[3] == "good" }
        let floors = Dictionary(try Self.table(set, "floors.tsv").compactMap { row in row.count == 2 ? Double(row[1]).map { (row[0], $0) } : nil }) { a, _ in a }
        let proposals = try Self.proposals(set)
        let unjudged = proposals.filter { verdicts[$0.path + "\t" + $0.card.markdown] == nil }
        let list: [String] = unjudged.map { item in item.path + "\t" + item.card.format.rawValue + "\t" + item.card.markdown }
        #expect(list.isEmpty, "judge these against RUBRIC.md in judgements.tsv:\n\(list.joined(separator: "\n"))")
        var report: [String] = []
        for format in CardProposal.Format.allCases {
            let judged = proposals.filter { $0.card.format == format }.compactMap { verdicts[$0.path + "\t" + $0.card.markdown] }
            let precision = judged.isEmpty ? 1 : Double(judged.filter { $0 }.count) / Double(judged.count)
            report.append("\(format.rawValue): \(judged.filter { $0 }.count)/\(judged.count) good (\(Int((precision * 100).rounded())) %)")
            if let floor = floors[format.rawValue] {
                #expect(precision >= floor - 1e-9, "\(format.rawValue): precision \(precision) below its floor \(floor)")
            }
        }
        print("generation quality (\(set)): " + report.joined(separator: "; "))
    }

    @Test(arguments: sets) func noCardBreaksAHardRule(_ set: String) throws {
        for (path, card, bytes) in try Self.proposals(set) {
            #expect(CardGenerator.passesHardRules(card), "\(path): \(card.markdown)")
            // Grounded: the answer's words are the note's.
            let noteWords = Set(EnglishWords.words(String(decoding: bytes, as: UTF8.self)))
            let missing = EnglishWords.words(card.back).filter { !noteWords.contains($0) }
            #expect(missing.allSatisfy { $0 == "because" }, "\(path): \(card.markdown) — not in the note: \(missing)")
            // Written, it is exactly one card of its kind, with no warning.
            let (note, found) = NoteParser.parse(Array(("# T\n\n" + card.markdown + "\n").utf8), path: "T.md")
            let kind: CardKind = card.format == .cloze ? .cloze : card.format == .qa ? .basic : .definition
            #expect(note?.cards.map(\.kind) == [kind] && found.isEmpty, "\(path): \(card.markdown) → \(String(describing: note?.cards.map(\.kind))) \(found)")
        }
    }
}
