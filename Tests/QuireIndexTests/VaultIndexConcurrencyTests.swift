@testable import QuireIndex
import Synchronization
import Testing
import QuireModel
@testable import QuireSupport
@testable import QuireTestSupport

/// The parallel index must equal the serial one. cmark-gfm 0.29 keeps its inline parser's
/// special-character tables in process globals that each parse's extensions (strikethrough, tables)
/// switch on and off, so concurrent parses can see each other's settings: strikethrough and table
/// nodes may come out differently. Card extraction relies only on core syntax (code spans, inline
/// HTML, blocks), which those tables never switch off; this test holds that line.
@Suite struct VaultIndexConcurrencyTests {
    /// Notes mixing every card syntax with the constructs whose characters the extensions toggle.
    static func note(_ i: Int) -> String {
        var s = "---\ntitle: Note \(i)\ntags: [t\(i % 7)]\n---\n\n# Note \(i)\n\n"
        for k in 0..<(6 + i % 5) {
            switch (i + k) % 8 {
            case 0: s += "Q: What is ~~struck~~ \(k) and `a :: b` in note \(i)?\nA: Answer with ~tilde~ and | pipe \(k).\n\n"
            case 1: s += "| a | b :: c |\n|---|---|\n| ~~x~~ | y \(k) |\n\n"
            case 2: s += "Term \(k) ~~old~~ :: definition with `code :: span` and www.example.com \(i)\n\n"
            case 3: s += "The {{c1::answer \(k)}} with ~~strike~~ and {{c2::second::hint}} | here.\n\n"
            case 4: s += "Front \(k) ::: back \(i) ~~x~~ https://example.org/a:b\n\n"
            case 5: s += "Multi \(k) *em* ~~s~~\n?\nAnswer | \(i)\n\n"
            case 6: s += "A ==highlight \(k)== and <span>a :: b</span> and ~~z~~.\n\n"
            default: s += "```\nQ: not a card \(k)\nx :: y\n```\n\nPlain prose with ~~strike~~, | pipes | and *emphasis* \(k).\n\n"
            }
        }
        return s
    }

    /// Everything about the cards that extraction decides.
    static func fingerprint(_ index: VaultIndex) -> [String] {
        index.notes.flatMap { note in
            note.cards.map { c in
                "\(note.path) \(c.id) \(c.kind) \(c.variant) \(c.lines) \(c.column) \(c.headingPath) \(c.front)\u{1}\(c.back)"
            } + ["\(note.path) tags \(note.tags.map(\.name))"]
        }
    }

    @Test func parallelIndexEqualsSerialIndex() throws {
        try withTempDir { dir in
            for i in 0..<600 { try dir.write("d\(i % 9)/n\(i).md", Self.note(i)) }
            let serial = Self.fingerprint(VaultIndex.build(root: dir.path, concurrency: 1))
            #expect(serial.count > 4_000)
            for _ in 0..<4 {
                let parallel = Self.fingerprint(VaultIndex.build(root: dir.path, concurrency: 2))
                #expect(parallel == serial)
                if parallel != serial {
                    let first = zip(parallel, serial).first { $0.0 != $0.1 }
                    Issue.record("first difference: \(String(describing: first))")
                    break
                }
            }
        }
    }

    /// The card table a build takes in while the files are read, chunk by chunk in path order,
    /// is the one made from the same notes afterwards: every ID's place, the cards left out as
    /// duplicates and their diagnostics, also for IDs repeated across chunks and within a note.
    @Test func cardTableTakenInWhileReadingEqualsOneMadeAfter() throws {
        try withTempDir { dir in
            for i in 0..<600 {
                var text = Self.note(i)
                if i % 97 == 5 { text += "Copied :: card ^dup-a\n\nCopied again :: card ^dup-a\n" }
                if i % 151 == 3 { text += "Other :: card ^dup-b\n" }
                try dir.write("d\(i % 9)/n\(i).md", text)
            }
            for concurrency in [1, 2] {
                let built = VaultIndex.build(root: dir.path, concurrency: concurrency)
                let cross = Set(built.crossFileDiagnostics)
                let after = VaultIndex(root: dir.path, notes: built.notes, stamps: built.stamps,
                                       diagnostics: built.diagnostics.filter { !cross.contains($0) })
                #expect(built.crossFileDiagnostics.count > 5)
                #expect(built.crossFileDiagnostics == after.crossFileDiagnostics)
                #expect(built.diagnostics == after.diagnostics)
                #expect(built.cardCount == after.cardCount)
                #expect(built.cards(matching: .all, now: fixedNow, dayEnd: fixedNow) == after.cards(matching: .all, now: fixedNow, dayEnd: fixedNow))
                for note in built.notes {
                    for card in note.cards {
                        #expect(built.location(exactly: card.id) == after.location(exactly: card.id))
                    }
                }
            }
        }
    }
}
