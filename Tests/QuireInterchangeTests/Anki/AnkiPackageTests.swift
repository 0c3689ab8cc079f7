import Foundation
@testable import QuireInterchange
import Testing
@testable import QuireTestSupport

/// Anki packages made by Anki's own library (`anki` from PyPI), in both formats, read back.
@Suite(.requires(.anki)) struct AnkiPackageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/anki-package.py").path

    /// Runs the fixture script into `dir`; returns what the library says the collection holds.
    static func makePackages(_ dir: TempDir) throws -> [String: Any] {
        _ = try runPython("import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')", [script, dir.path])
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.full("expected.json")))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test(arguments: ["current.apkg", "legacy.apkg", "collection.colpkg"])
    func readsWhatAnkiWrote(_ file: String) throws {
        try withTempDir { dir in
            let expected = try Self.makePackages(dir)
            let package = try AnkiPackage.read(path: dir.full(file), name: file)
            #expect(package.format == (file == "legacy.apkg" ? .legacy21 : .current))
            #expect(package.created == expected["created"] as? Int64)
            // Notes: fields and tags as Anki has them, and each one's note type by name.
            let notes = try #require(expected["notes"] as? [[String: Any]])
            #expect(package.notes.count == notes.count)
            for n in notes {
                let id = try #require(n["id"] as? Int64)
                let note = try #require(package.notes.first { $0.id == id })
                #expect(note.fields == n["fields"] as? [String])
                #expect(note.tags == n["tags"] as? [String])
                #expect(package.notetypes[note.notetype]?.name == n["notetype"] as? String)
            }
            #expect(package.notetypes.values.first { $0.name == "Cloze" }?.isCloze == true)
            #expect(package.notetypes.values.first { $0.name == "Basic (and reversed card)" }?.templates.count == 2)
            #expect(package.notetypes.values.first { $0.name == "Vocabulary" }?.fields == ["Front", "Back", "Example"])
            // Cards: deck, template, scheduling, FSRS memory.
            let cards = try #require(expected["cards"] as? [[String: Any]])
            #expect(package.cards.count == cards.count)
            for c in cards {
                let id = try #require(c["id"] as? Int64)
                let card = try #require(package.cards.first { $0.id == id })
                #expect(card.note == c["note"] as? Int64)
                #expect(package.decks[card.deck] == c["deck"] as? String)
                #expect(card.ordinal == c["ord"] as? Int && card.type == c["type"] as? Int && card.queue == c["queue"] as? Int)
                #expect(card.due == c["due"] as? Int64 && card.interval == c["ivl"] as? Int64)
                #expect(card.reps == c["reps"] as? Int64 && card.lapses == c["lapses"] as? Int64)
                if let memory = c["memory"] as? [Double] {
                    let data = try JSONSerialization.jsonObject(with: Data(card.data.utf8)) as? [String: Any]
                    #expect(abs((data?["s"] as? Double ?? -1) - memory[0]) < 0.001, "\(card.data)")
                    #expect(abs((data?["d"] as? Double ?? -1) - memory[1]) < 0.001)
                }
            }
            #expect(package.cards.contains { $0.queue == -1 } && package.cards.contains { $0.queue == -3 })
            // The review log, answer by answer.
            let reviews = try #require(expected["reviews"] as? [[Int64]])
            #expect(package.reviews.map { [$0.id, $0.card, Int64($0.ease), $0.time, Int64($0.type)] } == reviews)
            #expect(package.reviews.contains { $0.ease == 1 })
            // Media: the names notes use.
            #expect(package.media.map(\.name).sorted() == expected["media"] as? [String])
        }
    }

    @Test func notAPackage() throws {
        try withTempDir { dir in
            try dir.write("x.apkg", "not a zip")
            #expect(throws: InterchangeError.self) { try AnkiPackage.read(path: dir.full("x.apkg"), name: "x.apkg") }
            _ = try runPython("import zipfile, sys; zipfile.ZipFile(sys.argv[1], 'w').writestr('readme.txt', 'hi')", [dir.full("empty.apkg")])
            #expect(throws: InterchangeError.invalid(.init(.error, path: "empty.apkg", message:
                "no Anki collection in the package (collection.anki21b, collection.anki21 or collection.anki2)"))) {
                try AnkiPackage.read(path: dir.full("empty.apkg"), name: "empty.apkg")
            }
            // A package cut short (a download stopped halfway).
            let whole = try AnkiPackageTests.makePackages(dir)
            #expect(!whole.isEmpty)
            let bytes = try dir.read("legacy.apkg")
            try dir.write("cut.apkg", bytes: Array(bytes.prefix(bytes.count / 2)))
            #expect(throws: InterchangeError.self) { try AnkiPackage.read(path: dir.full("cut.apkg"), name: "cut.apkg") }
            _ = try runPython("import zipfile, sys; zipfile.ZipFile(sys.argv[1], 'w').writestr('collection.anki21', b'SQLite format 3\\x00' + bytes(4000))",
                              [dir.full("broken.apkg")])
            #expect(throws: InterchangeError.self) { try AnkiPackage.read(path: dir.full("broken.apkg"), name: "broken.apkg") }
        }
    }
}
