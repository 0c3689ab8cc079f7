import Testing
@testable import QuireModel

@Suite struct CardKindTests {
    @Test func shapeBytes() {
        #expect(CardVariant.single.shape(.basic) == 0x00)
        #expect(CardVariant.single.shape(.definition) == 0x40)
        #expect(CardVariant.forward.shape(.reversed) == 0x81)
        #expect(CardVariant.backward.shape(.reversed) == 0x82)
        #expect(CardVariant.cloze(1).shape(.cloze) == 0xC1)
        #expect(CardVariant.cloze(63).shape(.cloze) == 0xFF)
        #expect(CardVariant.cloze(64).shape(.cloze) == 0xC0)
    }

    @Test func variantIdentityText() {
        #expect(CardVariant.single.identityText == "")
        #expect(CardVariant.forward.identityText == "forward")
        #expect(CardVariant.backward.identityText == "backward")
        #expect(CardVariant.cloze(12).identityText == "12")
        #expect(CardKind.allCases.map(\.rawValue) == ["basic", "definition", "reversed", "cloze"])
    }
}
