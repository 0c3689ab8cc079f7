/// The text a cloze card's answer reveals, marked for the renderer to highlight.
///
/// A cloze card's front is its back with the hidden deletions shown as `[...]` or `[hint]`; the
/// back is found again around those gaps, and what fills each gap is put between
/// ``start`` and ``end`` (characters of Unicode's private use area). ``MarkdownRenderer`` shows the
/// marked text bold and coloured, or between brackets without colour.
enum ClozeReveal {
    static let start: Character = "\u{E000}"
    static let end: Character = "\u{E001}"
    /// Longer cards are shown without marks (the search below is quadratic at worst).
    static let maximumCharacters = 2048

    /// `back` with each gap's text marked; `back` unchanged when the two do not line up.
    static func marking(front: String, back: String) -> String {
        let f = Array(front), b = Array(back)
        guard f.count <= maximumCharacters, b.count <= maximumCharacters,
              true else { return back }
        var out = ""
        var i = 0, j = 0
        var marked = false
        while i < f.count {
            if f[i] == "[", let close = gapEnd(f, i), !b[j...].starts(with: f[i..<close]) {
                // The front's text up to the next gap must follow the revealed text in the back.
                var next = close
                while next < f.count, !(f[next] == "[" && gapEnd(f, next) != nil) { next += 1 }
                let segment = f[close..<next]
                let resume: Int
                if segment.isEmpty {
                    guard next == f.count else { return back }
                    resume = b.count
                } else {
                    guard let found = (j...b.count).first(where: { b[$0...].starts(with: segment) }) else { return back }
                    resume = found
                }
                guard resume > j else { return back }
                out.append(start)
                out += String(b[j..<resume])
                out.append(end)
                marked = true
                j = resume
                i = close
                continue
            }
            guard j < b.count, f[i] == b[j] else { return back }
            out.append(b[j])
            i += 1
            j += 1
        }
        guard j == b.count, marked else { return back }
        return out
    }

    /// `text` without the two mark characters (a note's own text never marks anything).
    static func withoutMarks(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value == 0xE000 || $0.value == 0xE001 }) else { return text }
        return String(text.filter { $0 != start && $0 != end })
    }

    /// The index after the `]` of a gap (`[...]` or `[hint]`) opening at `i`.
    private static func gapEnd(_ f: [Character], _ i: Int) -> Int? {
        var k = i + 1
        while k < f.count, k - i <= 256 {
            if f[k] == "]" { return k > i + 1 ? k + 1 : nil }
            if f[k] == "[" || f[k] == "\n" { return nil }
            k += 1
        }
        return nil
    }
}

extension MarkdownHTMLRenderer {
    /// A cloze card's back with the text its front hides between `start` and `end` (two
    /// private-use characters the note's own text never holds, taken out of it first), for a
    /// page to mark once the Markdown is rendered; the back unmarked when front and back do not
    /// line up.
    /// - Parameters:
    ///   - back: the card's back.
    ///   - front: the card's front, where `[...]` or `[hint]` stands for each hidden deletion.
    public static func revealMarks(back: String, hiddenIn front: String) -> (markdown: String, start: Character, end: Character) {
        (ClozeReveal.marking(front: ClozeReveal.withoutMarks(front), back: ClozeReveal.withoutMarks(back)), ClozeReveal.start, ClozeReveal.end)
    }
}
