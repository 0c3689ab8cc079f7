import Foundation
import Testing
@testable import QuireModel

@Suite struct CardIDTests {
    @Test func validation() {
        #expect(CardID("mito-def")?.rawValue == "mito-def")
        #expect(CardID("A_z-09") != nil)
        #expect(CardID(String(repeating: "a", count: 64)) != nil)
        #expect(CardID(String(repeating: "a", count: 65)) == nil)
        #expect(CardID("") == nil)
        #expect(CardID("a b") == nil)
        #expect(CardID("a.b") == nil)
        #expect(CardID("é") == nil)
        #expect(CardID("^x") == nil)
    }

    /// IDs computed independently (Python) from the recipe in FORMAT.md §3.5; a change in the
    /// algorithm would orphan every stored scheduling line, so it must fail here.
    @Test func derivedIDsArePinned() {
        #expect(CardID.derive(path: "Biology/Cells/mitochondria.md", kind: .definition, variant: "",
                              identityText: "Mitochondrion\u{1F}the powerhouse of the cell", occurrence: 0).rawValue
            == "qb2mk8ct6gg9")
        #expect(CardID.derive(path: "Biology/Cells/mitochondria.md", kind: .definition, variant: "",
                              identityText: "Mitochondrion\u{1F}the powerhouse of the cell", occurrence: 1).rawValue
            == "vyc9s1d2b8qk")
        #expect(CardID.derive(path: "notes.md", kind: .basic, variant: "",
                              identityText: "What does the mitochondrion produce?\u{1F}ATP", occurrence: 0).rawValue
            == "rcmnxzvdxmfc")
        #expect(CardID.derive(path: "notes.md", kind: .reversed, variant: "forward",
                              identityText: "Hund's rule\u{1F}electrons fill orbitals singly", occurrence: 0).rawValue
            == "w8nkh3bqne2a")
        #expect(CardID.derive(path: "notes.md", kind: .reversed, variant: "backward",
                              identityText: "Hund's rule\u{1F}electrons fill orbitals singly", occurrence: 0).rawValue
            == "p4q055cawaek")
        #expect(CardID.derive(path: "notes.md", kind: .cloze, variant: "2",
                              identityText: "The {{c1::mitochondrion}} produces {{c2::ATP}}.", occurrence: 0).rawValue
            == "je54wx78sgax")
    }

    /// The hashing shortcut must feed exactly the bytes of the normalized text, whatever the white
    /// space, its place relative to 8-byte words, or non-ASCII text in it.
    @Test func normalizedTextFedToAHashEqualsTheNormalizedString() {
        var rng = SplitMix(seed: 7)
        let pieces = ["a", "bc", "defgh", " ", "  ", "\t", "\n", "\r\n", "é", "\u{00A0}", "e\u{301}", "xyz12345", ":"]
        var samples = ["", " ", "   ", "abc", " abc", "abc ", "a  b", "abcdefg  hijk", "abcdefgh ijklmnop", "abcdefg\th"]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<rng.next(upTo: 24) { text += pieces[rng.next(upTo: pieces.count)] }
            samples.append(text)
        }
        for text in samples {
            var fast = SipHash24(), slow = SipHash24()
            CardID.combineNormalizedIdentityText(text, into: &fast)
            slow.combine(CardID.normalizeIdentityText(text))
            #expect(fast.finalize() == slow.finalize(), "\(text.debugDescription)")
        }
    }

    @Test func textShapes() {
        func shape(_ text: String) -> CardID.TextShape {
            var text = text
            return text.withUTF8 { CardID.shape(of: $0) }
        }
        #expect(shape("one two three four five") == .normal)
        #expect(shape("") == .normal)
        #expect(shape("abcdefg  hijk") == .otherASCII)
        #expect(shape("abcdefg hijklmn") == .normal)
        #expect(shape("abcdefg  ") == .otherASCII)
        #expect(shape("abcdefgh\nijk") == .otherASCII)
        #expect(shape("abcdefghijklmno\u{7F}") == .normal)
        #expect(shape("abcdefghijklmnop café") == .notASCII)
    }

    @Test func derivedIDShape() {
        let id = CardID.derive(path: "a.md", kind: .basic, variant: "", identityText: "q\u{1F}a", occurrence: 0)
        #expect(id.rawValue.count == 12)
        #expect(id.rawValue.allSatisfy { Base32.alphabet.contains($0) })
        #expect(CardID(id.rawValue) == id)
    }

    @Test func everyInputChangesTheID() {
        let base = CardID.derive(path: "a.md", kind: .basic, variant: "", identityText: "q\u{1F}a", occurrence: 0)
        #expect(CardID.derive(path: "b.md", kind: .basic, variant: "", identityText: "q\u{1F}a", occurrence: 0) != base)
        #expect(CardID.derive(path: "a.md", kind: .definition, variant: "", identityText: "q\u{1F}a", occurrence: 0) != base)
        #expect(CardID.derive(path: "a.md", kind: .basic, variant: "1", identityText: "q\u{1F}a", occurrence: 0) != base)
        #expect(CardID.derive(path: "a.md", kind: .basic, variant: "", identityText: "q\u{1F}b", occurrence: 0) != base)
        #expect(CardID.derive(path: "a.md", kind: .basic, variant: "", identityText: "q\u{1F}a", occurrence: 1) != base)
        #expect(CardID.derive(path: "a.md", kind: .basic, variant: "", identityText: "q\u{1F}a", occurrence: 0) == base)
    }

    @Test func fieldsAreSeparatedSoBoundariesMatter() {
        // "ab" + "" and "a" + "b" must not collide: the NUL separators keep the parts apart.
        let x = CardID.derive(path: "ab", kind: .basic, variant: "", identityText: "t", occurrence: 0)
        let y = CardID.derive(path: "a", kind: .basic, variant: "b", identityText: "t", occurrence: 0)
        #expect(x != y)
    }

    /// ASCII text against a plain reference: the words between ASCII white space, joined by one
    /// space.
    @Test func normalizingASCIIJoinsTheWordsWithOneSpace() {
        var rng = SplitMix(seed: 11)
        let pieces = ["a", "bc", "defgh", "xyz12345", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", ":", "\u{1F}"]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<rng.next(upTo: 24) { text += pieces[rng.next(upTo: pieces.count)] }
            let words = text.utf8.split(whereSeparator: { $0 == 32 || ($0 >= 9 && $0 <= 13) })
            let reference = words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            #expect(CardID.normalizeIdentityText(text) == reference, "\(text.debugDescription)")
        }
    }

    @Test func whiteSpaceIsUnicodesWhiteSpace() {
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            #expect(CardID.isWhiteSpace(v) == scalar.properties.isWhitespace, "U+\(String(v, radix: 16))")
        }
    }

    /// Any text against a plain reference: the words between Unicode white space, joined by one
    /// space, in NFC.
    @Test func normalizingAnyTextJoinsTheWordsInNFC() {
        var rng = SplitMix(seed: 13)
        let pieces = ["a", "Kraków", "résumé", "e\u{301}", "Å", "\u{00A0}", "\u{2003}", "\u{3000}", "\u{85}", " ", "\n",
                      "Ελληνικά", "日本語", "🙂", "\u{200B}", "x\u{0308}", "ﬁ", "Ω", "\u{1F}"]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<rng.next(upTo: 16) { text += pieces[rng.next(upTo: pieces.count)] }
            let words = text.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace })
            let reference = words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
                .precomposedStringWithCanonicalMapping
            let normalized = CardID.normalizeIdentityText(text)
            #expect(normalized == reference, "\(text.debugDescription)")
            #expect(Array(normalized.utf8) == Array(reference.utf8), "\(text.debugDescription)")
        }
    }

    @Test func normalizeCollapsesWhiteSpaceAndTrims() {
        #expect(CardID.normalizeIdentityText("  What\t is \n\n ATP?  ") == "What is ATP?")
        #expect(CardID.normalizeIdentityText("a\u{1F}b") == "a\u{1F}b")
        #expect(CardID.normalizeIdentityText("a \u{1F} b") == "a \u{1F} b")
        #expect(CardID.normalizeIdentityText("") == "")
        #expect(CardID.normalizeIdentityText(" \n\t ") == "")
        #expect(CardID.normalizeIdentityText("a\u{00A0}\u{2003}b") == "a b")
    }

    @Test func normalizeAppliesNFC() {
        // Compare bytes: Swift's String == already treats canonically equivalent strings as equal.
        let decomposed = "cafe\u{301}"
        #expect(Array(CardID.normalizeIdentityText(decomposed).utf8) == Array("caf\u{E9}".utf8))
        #expect(Array(CardID.normalizeIdentityText("  cafe\u{301}   au lait ").utf8) == Array("caf\u{E9} au lait".utf8))
        // And so both spellings give one ID.
        let a = CardID.derive(path: "a.md", kind: .definition, variant: "",
                              identityText: CardID.normalizeIdentityText("cafe\u{301}") + "\u{1F}coffee", occurrence: 0)
        #expect(a.rawValue == "dhaj0y2mq4yb")
    }

    @Test func suffixedKeepsSixtyFourCharacters() {
        #expect(CardID("mito")?.suffixed("r").rawValue == "mito-r")
        #expect(CardID("mito")?.suffixed("c2").rawValue == "mito-c2")
        let long = CardID(String(repeating: "x", count: 63))
        #expect(long?.suffixed("c2").rawValue.count == 64)
    }

    @Test func orderingAndDescription() {
        #expect(CardID("abc")! < CardID("abd")!)
        #expect(CardID("abc")?.description == "abc")
    }
}

/// A small deterministic generator for test inputs.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
