import Testing
@testable import QuireTerminal

/// Keys decoded from the bytes a terminal sends, several keys per read.
struct KeyDecoderTests {
    private func keys(_ bytes: [UInt8], atEnd: Bool = true) -> [Key] {
        var decoder = KeyDecoder()
        decoder.feed(bytes)
        var out: [Key] = []
        while let key = decoder.next(atEnd: atEnd) { out.append(key) }
        return out
    }

    @Test func keysTypedAheadAreAllKept() {
        // Space then 3, arriving in one read while the screen was busy.
        #expect(keys(Array(" 3".utf8)) == [.space, .character("3")])
        #expect(keys(Array("\r1q".utf8)) == [.enter, .character("1"), .character("q")])
        #expect(keys([3, 4, 127, 8]) == [.interrupt, .endOfInput, .backspace, .backspace])
    }

    @Test func escapeSequencesAreOneKeyEach() {
        // Up arrow, F5 (CSI with parameters), F1 (SS3), then a key.
        let arrows: [UInt8] = [27, 91, 65] + [27, 91, 49, 53, 126] + [27, 79, 80] + Array("3".utf8)
        #expect(keys(arrows) == [.up, .other, .other, .character("3")])
        // The scrolling keys, in both the CSI and the SS3 forms.
        let scrolling: [UInt8] = [27, 91, 66, 27, 79, 65, 27, 91, 53, 126, 27, 91, 54, 126, 27, 91, 72, 27, 79, 70, 27, 91, 52, 126]
        #expect(keys(scrolling) == [.down, .up, .pageUp, .pageDown, .home, .end, .end])
        // Right and left (the curation screen's next and previous).
        #expect(keys([27, 91, 67, 27, 91, 68]) == [.right, .left])
        // Escape followed by a key that is not the start of a sequence: two keys.
        #expect(keys([27] + Array("q".utf8)) == [.escape, .character("q")])
        #expect(keys([27]) == [.escape])
    }

    @Test func multiByteCharactersAreOneKey() {
        #expect(keys(Array("é3ü".utf8)) == [.character("é"), .character("3"), .character("ü")])
        #expect(keys(Array("😀".utf8)) == [.character("😀")])
        // Bytes that are not UTF-8: one key each, and the next key survives.
        #expect(keys([0xFF, 0xC3, 0x28]) == [.other, .other, .character("(")])
    }

    @Test func aKeyCutShortWaitsForTheRest() {
        var decoder = KeyDecoder()
        decoder.feed([0xC3])
        #expect(decoder.next(atEnd: false) == nil)
        decoder.feed([0xA9, 27, 91])
        let first = decoder.next(atEnd: false)
        #expect(first == .character("é"))
        // Half an escape sequence: nothing yet, then the rest.
        let waiting = decoder.next(atEnd: false)
        #expect(waiting == nil)
        decoder.feed([66, 32])
        let arrow = decoder.next(atEnd: false)
        let space = decoder.next(atEnd: false)
        #expect(arrow == .down)
        #expect(space == .space)
        #expect(decoder.isEmpty)
        // Nothing more is coming: a lone Escape is the Escape key.
        decoder.feed([27])
        let pendingEscape = decoder.next(atEnd: false)
        let escape = decoder.next(atEnd: true)
        #expect(pendingEscape == nil)
        #expect(escape == .escape)
        #expect(decoder.isEmpty)
    }
}
