import Testing
@testable import QuireMarkdown

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnEach() {
        #expect(DisplayWidth.of("hello") == 5)
    }

    @Test func eastAsianWideCountsTwo() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("ｱ") == 1)  // halfwidth katakana
        #expect(DisplayWidth.of("Ａ") == 2)  // fullwidth Latin
    }

    @Test func combiningMarksCountZero() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("naïve") == 5)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
    }
}
