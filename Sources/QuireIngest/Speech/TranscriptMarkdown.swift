import Foundation
import QuireModel
import QuireSupport

/// A transcript as the body of a note: live notes (a sentence or two that says most of each few
/// minutes) at the top, then the transcript in sections of about 100 words, each opened by a time
/// anchor and headed by its time range (FORMAT.md §8).
public enum TranscriptMarkdown {
    /// The words a section aims at, and the most it takes.
    static let sectionWords = 100, longestSection = 140
    /// Words whisper was less sure of than this are followed by `(?)`.
    public static let uncertain = 0.4

    /// The Markdown body (after the title) and its counts.
    public struct Result: Sendable, Equatable {
        public var body: String
        public var sections: Int
        public var liveNotes: Int
    }

    /// The body for `transcript`, heard by `engine`; `recording` is the Markdown that links the
    /// kept recording, written first.
    public static func convert(_ transcript: Transcript, engine: SpeechEngine, recording: String) -> Result {
        var body = "\n" + recording + " · " + TimeAnchor.clock(Int(transcript.duration.rounded())) + "\n\n"
        if transcript.words.isEmpty {
            body += "*No speech was recognized (\(engine.name)).*\n"
            return Result(body: body, sections: 0, liveNotes: 0)
        }
        body += engine.isRough
            ? "*Transcribed by \(engine.name): a rough transcript, many words may be wrong; the times are right.*\n"
            : "*Transcribed by \(engine.name)" + (transcript.words.contains { ($0.probability ?? 1) < uncertain }
                ? "; words followed by (?) are uncertain.*\n" : ".*\n")
        let notes = liveNotes(transcript, sureOnly: !engine.isRough)
        if !notes.isEmpty {
            body += "\n## Live notes\n\n"
            for note in notes {
                body += "- **" + TimeAnchor.clock(Int(note.start)) + "** " + text(of: transcript.words[note.words], engine: engine) + "\n"
            }
        }
        body += "\n## Transcript\n"
        let parts = sections(transcript.words)
        for (k, part) in parts.enumerated() {
            let first = transcript.words[part.lowerBound], last = transcript.words[part.upperBound - 1]
            // A section ends where the next begins (its anchor's second), the last at its last word.
            let next = k + 1 < parts.count ? Int(transcript.words[parts[k + 1].lowerBound].start) : nil
            let start = Int(first.start), end = max(start, next ?? Int(last.end.rounded(.up)))
            body += "\n" + TimeAnchor.line(start) + "\n\n### " + TimeAnchor.clock(start) + "–" + TimeAnchor.clock(end) + "\n\n"
                + text(of: transcript.words[part], engine: engine) + "\n"
        }
        return Result(body: body, sections: parts.count, liveNotes: notes.count)
    }

    /// Words as a line of Markdown: escaped so that they read as the same text and never as a
    /// card, an uncertain word (whisper's) followed by `(?)`.
    static func text(of words: ArraySlice<Transcript.Word>, engine: SpeechEngine) -> String {
        PDFMarkdown.safe(words.map { word in
            word.text + (!engine.isRough && (word.probability ?? 1) < uncertain ? " (?)" : "")
        }.joined(separator: " "))
    }

    /// The transcript cut into sections of about ``sectionWords`` words: from there on, after the
    /// first word that ends a sentence, else before the first pause of half a second; never more
    /// than ``longestSection``.
    static func sections(_ words: [Transcript.Word]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for k in words.indices {
            let count = k - start + 1
            let pause = k + 1 < words.count ? words[k + 1].start - words[k].end : .infinity
            if k + 1 == words.count || count >= longestSection
                || (count >= sectionWords && (words[k].endsSentence(before: k + 1 < words.count ? words[k + 1] : nil) || pause >= 0.5)) {
                out.append(start..<(k + 1))
                start = k + 1
            }
        }
        // A last section of a few words joins the one before.
        if out.count > 1, out[out.count - 1].count < sectionWords / 4 {
            let last = out.removeLast()
            out[out.count - 1] = out[out.count - 1].lowerBound..<last.upperBound
        }
        return out
    }

    /// A sentence of the live notes: its words and its start.
    struct LiveNote: Equatable {
        var words: Range<Int>
        var start: Double
    }

    /// The window of a live note: a minute for recordings up to ten minutes, five beyond.
    static func window(_ duration: Double) -> Double { duration <= 600 ? 60 : 300 }

    /// For each window of the recording, its most telling sentence (two for a window of more than
    /// 500 words): the one whose content words are most frequent in the window and rarest in the
    /// rest of the recording, per square root of its length. Sentences end at `.`, `?` or `!`
    /// (whisper's) or at a pause of 0.6 s, and hold 6 to 40 words.
    /// With `sureOnly` (an engine whose probabilities mean something), a sentence of which more
    /// than a quarter of the words are uncertain is never chosen.
    static func liveNotes(_ transcript: Transcript, sureOnly: Bool = false) -> [LiveNote] {
        let words = transcript.words
        let units = sentences(words)
        guard !units.isEmpty else { return [] }
        let keys = words.map { key($0.text) }
        // In how many sentences each word is (idf).
        var df: [String: Int] = [:]
        for unit in units { for w in Set(unit.compactMap { keys[$0] }) { df[w, default: 0] += 1 } }
        let n = Double(units.count)
        let span = window(transcript.duration)
        var byWindow: [Int: [Range<Int>]] = [:]
        for unit in units { byWindow[Int(words[unit.lowerBound].start / span), default: []].append(unit) }
        var notes: [LiveNote] = []
        for w in byWindow.keys.sorted() {
            guard let members = byWindow[w] else { continue }
            var tf: [String: Int] = [:]
            var total = 0
            for unit in members {
                total += unit.count
                for k in unit { if let key = keys[k] { tf[key, default: 0] += 1 } }
            }
            func score(_ unit: Range<Int>) -> Double {
                guard unit.count >= 6 else { return 0 }
                if sureOnly, words[unit].filter({ ($0.probability ?? 1) < uncertain }).count * 4 > unit.count { return 0 }
                var s = 0.0
                for key in Set(unit.compactMap { keys[$0] }) {
                    s += Double(tf[key] ?? 0) * log(1 + n / Double(df[key] ?? 1))
                }
                return s / Double(unit.count).squareRoot()
            }
            let scored: [(unit: Range<Int>, score: Double)] = members.map { ($0, score($0)) }.filter { $0.score > 0 }
            let ranked = scored.sorted { a, b in a.score != b.score ? a.score > b.score : a.unit.lowerBound < b.unit.lowerBound }
            let chosen = ranked.prefix(total > 500 ? 2 : 1).map(\.unit).sorted { $0.lowerBound < $1.lowerBound }
            for unit in chosen { notes.append(LiveNote(words: unit, start: words[unit.lowerBound].start)) }
        }
        return notes
    }

    /// The transcript's sentences as ranges of words (see ``liveNotes(_:)``).
    static func sentences(_ words: [Transcript.Word]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for k in words.indices {
            let count = k - start + 1
            let pause = k + 1 < words.count ? words[k + 1].start - words[k].end : .infinity
            if k + 1 == words.count || count >= 40 || ((words[k].endsSentence(before: k + 1 < words.count ? words[k + 1] : nil) || pause >= 0.6) && count >= 6) {
                out.append(start..<(k + 1))
                start = k + 1
            }
        }
        return out
    }

    /// A word as the live notes count it: lower-cased letters and digits, nil for a common word or
    /// one of fewer than three letters.
    static func key(_ text: String) -> String? {
        let t = String(text.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        guard t.count >= 3, !EnglishWords.common.contains(t) else { return nil }
        return t
    }
}
