@testable import QuireSync
import Testing

/// Keeping one side of git's conflicts, byte for byte elsewhere.
@Suite struct ConflictResolutionTests {
    static let conflicted = "a\r\n<<<<<<< HEAD\r\nours 1\r\nours 2\r\n||||||| base\r\nold\r\n=======\r\ntheirs\r\n>>>>>>> origin/main\r\nb\r\n"
        + "<<<<<<< HEAD\nx\n=======\n>>>>>>> other\nc"

    @Test func keepsOneSideOfEveryConflict() {
        let ours = ConflictResolution.keeping(.ours, in: Array(Self.conflicted.utf8))
        #expect(String(decoding: ours, as: UTF8.self) == "a\r\nours 1\r\nours 2\r\nb\r\nx\nc")
        let theirs = ConflictResolution.keeping(.theirs, in: Array(Self.conflicted.utf8))
        #expect(String(decoding: theirs, as: UTF8.self) == "a\r\ntheirs\r\nb\r\nc")
    }

    /// Lines that only look like markers (a longer run, text after `=======`) are text.
    @Test func notEveryRunOfMarkerCharactersIsAMarker() {
        let text = "<<<<<<<< eight\n======= text\n>>>>>>>x\n"
        #expect(ConflictResolution.keeping(.ours, in: Array(text.utf8)) == Array(text.utf8))
    }
}
