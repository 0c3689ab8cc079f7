/// Where sentences end in prose, one rule for every reader of the notes (search's chunks, ask's
/// answers, generation's sentences, a transcript's sections).
///
/// A sentence ends after `.`, `?`, `!` or `…` (maybe before closing quotes or brackets) followed
/// by white space and a word that does not start in lower case, and right after a CJK full stop,
/// question or exclamation mark. A full stop ends no sentence after a common abbreviation
/// (`e.g.`, `Fig.`, `et al.`; `No.` and `p.` only before a number), an initial (`J. Smith`) or
/// letters with dots (`U.S.A.`). Linear in the text: each character is looked at a bounded
/// number of times (an abbreviation's word is read back at most ``longestWord`` characters).
public enum SentenceSplitter {
    /// Words a full stop follows inside a sentence (lower-cased, without their last stop).
    static let abbreviations: Set<String> = [
        "e.g", "i.e", "etc", "vs", "cf", "al", "fig", "figs", "eq", "eqs", "vol", "ch", "sec", "approx", "resp", "ca", "viz",
        "ibid", "cit", "eds", "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "inc", "ltd", "corp", "dept", "co", "mt",
        "gen", "col", "lt", "sgt", "rev", "est", "u.s", "u.k", "a.m", "p.m",
    ]
    /// Abbreviations only before a number (`No. 5`, `p. 12`): elsewhere the words end sentences.
    static let numberingAbbreviations: Set<String> = ["no", "nos", "p", "pp"]
    /// The longest word read back to decide whether a full stop ends an abbreviation.
    static let longestWord = 12

    /// The sentences of `text` with the offset (in UTF-8 bytes from the text's start) each starts
    /// at, each on one line (runs of white space as one space).
    public static func split(_ text: String) -> [(offset: Int, sentence: String)] {
        let scalars = Array(text.unicodeScalars)
        var offsets = [Int](repeating: 0, count: scalars.count + 1)
        for k in scalars.indices { offsets[k + 1] = offsets[k] + UTF8.width(scalars[k]) }
        return ranges(scalars).map { range in
            let words = String(String.UnicodeScalarView(scalars[range])).split(whereSeparator: \.isWhitespace)
            return (offsets[range.lowerBound], words.joined(separator: " "))
        }
    }

    /// The sentences of `text`, each without white space at either end (inner white space kept).
    public static func sentences<S: StringProtocol>(_ text: S) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return ranges(scalars).map { String(String.UnicodeScalarView(scalars[$0])) }
    }

    /// Whether a sentence ends with `word` (a token of a transcript: its text, punctuation
    /// attached), `next` the word after it (nil at the end).
    public static func ends(with word: Substring, before next: Substring?) -> Bool {
        let scalars = Array(word.unicodeScalars)
        var last = scalars.count - 1
        while last >= 0, isClosing(scalars[last]) { last -= 1 }
        guard last >= 0 else { return false }
        if isWideStop(scalars[last]) { return true }
        guard isStop(scalars[last]) else { return false }
        guard let next, let first = next.unicodeScalars.first else { return true }
        return endsAfter(scalars, stop: last, next: first, digitNext: next.unicodeScalars.first.map(isDigit) ?? false)
    }

    /// The sentences' ranges in `scalars`, white space at either end left out, none empty.
    static func ranges(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        func emit(_ end: Int) {
            var low = start, high = end
            while low < high, scalars[low].properties.isWhitespace { low += 1 }
            while high > low, scalars[high - 1].properties.isWhitespace { high -= 1 }
            if low < high { out.append(low..<high) }
            start = end
        }
        var k = 0
        while k < scalars.count {
            let c = scalars[k]
            guard isStop(c) || isWideStop(c) else { k += 1; continue }
            var end = k + 1
            while end < scalars.count, isClosing(scalars[end]) { end += 1 }
            if isWideStop(c) {
                emit(end)
                k = end
                continue
            }
            guard end < scalars.count, scalars[end].properties.isWhitespace else { k += 1; continue }
            var next = end
            while next < scalars.count, scalars[next].properties.isWhitespace { next += 1 }
            guard next < scalars.count else { break }
            if endsAfter(scalars, stop: k, next: scalars[next], digitNext: isDigit(scalars[next])) {
                emit(end)
                k = end
            } else {
                k += 1
            }
        }
        emit(scalars.count)
        return out
    }

    /// Whether the stop at `stop` ends a sentence when the next word starts with `next`.
    static func endsAfter(_ scalars: [Unicode.Scalar], stop: Int, next: Unicode.Scalar, digitNext: Bool) -> Bool {
        if next.properties.isLowercase { return false }
        guard scalars[stop] == "." else { return true }
        return !isAbbreviation(scalars, before: stop, digitNext: digitNext)
    }

    /// Whether the word before the full stop at `dot` is an abbreviation, an initial or letters
    /// with dots.
    static func isAbbreviation(_ scalars: [Unicode.Scalar], before dot: Int, digitNext: Bool) -> Bool {
        var begin = dot
        while begin > 0, dot - begin < longestWord, !scalars[begin - 1].properties.isWhitespace, !"([\"'“‘".unicodeScalars.contains(scalars[begin - 1]) {
            begin -= 1
        }
        guard begin < dot, dot - begin < longestWord else { return false }
        let word = String(String.UnicodeScalarView(scalars[begin..<dot])).lowercased()
        if abbreviations.contains(word) || (digitNext && numberingAbbreviations.contains(word)) { return true }
        // An initial (J. Smith), or single letters with dots (U.S.A).
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 1 { return word.count == 1 && scalars[begin].properties.isUppercase }
        return parts.allSatisfy { $0.count == 1 && $0.first?.isLetter == true }
    }

    /// `.`, `?`, `!` or `…`: a stop a space must follow.
    static func isStop(_ c: Unicode.Scalar) -> Bool { c == "." || c == "?" || c == "!" || c == "…" }
    /// A CJK full stop, question or exclamation mark: a stop of its own.
    static func isWideStop(_ c: Unicode.Scalar) -> Bool { c == "。" || c == "！" || c == "？" }
    /// A closing quote or bracket a stop may stand before.
    static func isClosing(_ c: Unicode.Scalar) -> Bool { "\"')]”’」』）".unicodeScalars.contains(c) }
    /// An ASCII digit.
    static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
}
