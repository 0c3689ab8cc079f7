@testable import QuireInterchange
import Testing

/// `AnkiTemplate`: which fields a card template shows on each side.
@Suite struct AnkiTemplateTests {
    let fields = ["Hanzi", "Pinyin", "Meaning", "Notes", "Add Reverse"]

    @Test func questionAndAnswerFieldsInOrder() {
        let t = AnkiTemplate(question: "<div>{{Hanzi}}</div>{{hint:Notes}}",
                             answer: "{{FrontSide}}<hr id=answer>{{Meaning}} {{ Pinyin }} {{Hanzi}} {{Meaning}}", fields: fields)
        #expect(t.question == [0, 3])
        #expect(t.answer == [2, 1])
        #expect(!t.typed && t.latex.isEmpty)
    }

    @Test func conditionalsFiltersAndSpecialNames() {
        let t = AnkiTemplate(question: "{{#Add Reverse}}{{Meaning}}{{/Add Reverse}}{{^Notes}}none{{/Notes}}{{Tags}}{{Deck}}{{!comment}}",
                             answer: "{{FrontSide}}{{tts zh_CN voices=x:Hanzi}}{{furigana:Pinyin}}{{Unknown}}", fields: fields)
        #expect(t.question == [2])
        #expect(t.answer == [0, 1])
    }

    @Test func typedAnswerBelongsToTheAnswer() {
        let t = AnkiTemplate(question: "{{Hanzi}}\n\n{{type:Meaning}}", answer: "{{Hanzi}}<hr id=answer>{{type:Meaning}}", fields: fields)
        #expect(t.question == [0])
        #expect(t.answer == [2])
        #expect(t.typed)
    }

    @Test func latexFields() {
        let t = AnkiTemplate(question: " [latex]{{Hanzi}}[/latex] ", answer: "{{FrontSide}}<hr id=answer>[latex]{{Pinyin}}[/latex]{{Notes}}",
                             fields: fields)
        #expect(t.latex == [0, 1])
    }

    @Test func anUnclosedReferenceEndsTheScan() {
        #expect(AnkiTemplate.references("{{Hanzi}} {{Pinyin", fields: fields) == [0])
        #expect(AnkiTemplate.references(String(repeating: "{{", count: 10000), fields: fields).isEmpty)
    }
}
