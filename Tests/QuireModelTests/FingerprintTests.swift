import Testing
@testable import QuireModel

@Suite struct FingerprintTests {
    let original = "The mitochondrion is the powerhouse of the cell\u{1F}it produces most of the cell's ATP"

    @Test func pinnedValues() {
        // Computed independently from FORMAT.md §3.5; stored fingerprints must not change between versions.
        #expect(Fingerprint(text: "Mitochondrion\u{1F}the powerhouse of the cell", shape: 0x40).description
            == "c0a55ad2136fa040")
        #expect(Fingerprint(text: "What does the mitochondrion produce?\u{1F}ATP", shape: 0).description
            == "0026c49240abe200")
        #expect(Fingerprint(text: "ab", shape: 0xC3).description == "da3465efad5e28c3")
    }

    @Test func similarTextsAreClose() throws {
        let typo = "The mitochondrion is the powerhouse of the cell\u{1F}it produces most of the cell's ATP."
        let edited = "The mitochondria is the powerhouse of the cell\u{1F}it produces most of the cells ATP"
        let a = Fingerprint(text: original, shape: 0)
        let d1 = try #require(a.distance(to: Fingerprint(text: typo, shape: 0)))
        let d2 = try #require(a.distance(to: Fingerprint(text: edited, shape: 0)))
        #expect(d1 <= 8)
        #expect(d2 <= 16)
    }

    @Test func differentTextsAreFar() throws {
        let other = "Hund's rule\u{1F}electrons fill degenerate orbitals singly before pairing up"
        let d = try #require(Fingerprint(text: original, shape: 0).distance(to: Fingerprint(text: other, shape: 0)))
        #expect(d > 16)
    }

    @Test func caseDoesNotMatter() {
        #expect(Fingerprint(text: "ATP Synthase", shape: 1) == Fingerprint(text: "atp synthase", shape: 1))
    }

    @Test func shapeIsTheLowByteAndSeparatesSiblings() {
        let a = Fingerprint(text: original, shape: CardVariant.cloze(1).shape(.cloze))
        let b = Fingerprint(text: original, shape: CardVariant.cloze(2).shape(.cloze))
        #expect(a.shape == 0xC1)
        #expect(b.shape == 0xC2)
        #expect(a.bits >> 8 == b.bits >> 8)
        #expect(a.distance(to: b) == nil)
        #expect(a.distance(to: a) == 0)
    }

    @Test func hexParsing() {
        #expect(Fingerprint(hex: "3c9e0f51aa72d418")?.bits == 0x3c9e_0f51_aa72_d418)
        #expect(Fingerprint(hex: "3C9E0F51AA72D418")?.bits == 0x3c9e_0f51_aa72_d418)
        #expect(Fingerprint(hex: "3c9e0f51aa72d41") == nil)
        #expect(Fingerprint(hex: "3c9e0f51aa72d4180") == nil)
        #expect(Fingerprint(hex: "3c9e0f51aa72d41g") == nil)
        #expect(Fingerprint(hex: "") == nil)
    }

    @Test func descriptionIsSixteenPaddedDigits() {
        #expect(Fingerprint(bits: 0x2a).description == "000000000000002a")
        #expect(Fingerprint(bits: .max).description == "ffffffffffffffff")
        let f = Fingerprint(text: original, shape: 7)
        #expect(Fingerprint(hex: Substring(f.description)) == f)
    }

    @Test func shortAndEmptyTextsHash() {
        let empty = Fingerprint(text: "", shape: 0)
        let one = Fingerprint(text: "a", shape: 0)
        #expect(empty.shape == 0 && one.shape == 0)
        #expect(empty != one)
    }
}
