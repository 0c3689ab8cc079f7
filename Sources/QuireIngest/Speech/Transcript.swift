import QuireSupport

/// What a speech engine heard: words with their times from the start of the recording.
public struct Transcript: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        /// The word as the engine wrote it (whisper's with its punctuation and capitals).
        public var text: String
        /// Seconds from the start of the recording.
        public var start: Double, end: Double
        /// The engine's probability that the word is right (0–1), where it gives a meaningful one.
        public var probability: Double?

        public init(_ text: String, start: Double, end: Double, probability: Double? = nil) {
            self.text = text
            self.start = start
            self.end = end
            self.probability = probability
        }

        /// Whether the word closes a sentence when `next` follows it (``SentenceSplitter``'s rule:
        /// `Dr.` before `Smith` does not, `done.` before `Then` does).
        public func endsSentence(before next: Word?) -> Bool {
            SentenceSplitter.ends(with: text[...], before: next?.text[...])
        }
    }

    public var words: [Word]
    /// The recording's length in seconds.
    public var duration: Double

    public init(words: [Word], duration: Double) {
        self.words = words
        self.duration = duration
    }

    /// Words longer than this are not words (a corrupt or hostile engine output): cut.
    static let longestWord = 64

    /// Reads `pocketsphinx_continuous -time yes` output: per utterance a line of the words heard,
    /// then a line per word `word start end probability`; silences, fillers and noises (`<s>`,
    /// `<sil>`, `[NOISE]`, `++UM++`) are left out and a pronunciation variant's `(2)` removed.
    /// Times are shifted by `offset` (the piece's start in the recording). Malformed lines are
    /// skipped.
    public init(pocketsphinx bytes: [UInt8], offset: Double = 0, duration: Double) {
        var words: [Word] = []
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count == 4, let start = Double(f[1]), let end = Double(f[2]), let p = Double(f[3]),
                  start.isFinite, end.isFinite, start >= 0, end >= start, end + offset <= Self.latest else { continue }
            var text = f[0]
            if text.hasSuffix(")"), let open = text.lastIndex(of: "("), text[text.index(after: open)...].dropLast().allSatisfy(\.isNumber) {
                text = text[..<open]
            }
            guard let first = text.first, !"<[+".contains(first), !text.isEmpty else { continue }
            words.append(Word(Self.clean(text), start: start + offset, end: end + offset, probability: min(1, max(0, p))))
        }
        self.init(words: words, duration: duration)
    }

    /// Reads the lines Quire's faster-whisper runner prints, one a word: `start⇥end⇥probability⇥word`.
    public init(whisper bytes: [UInt8], duration: Double) {
        var words: [Word] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard f.count == 4, let start = Double(f[0]), let end = Double(f[1]), let p = Double(f[2]),
                  start.isFinite, end.isFinite, start >= 0, end >= start, end <= Self.latest else { continue }
            let text = Self.clean(f[3])
            guard !text.isEmpty else { continue }
            words.append(Word(text, start: start, end: end, probability: min(1, max(0, p))))
        }
        self.init(words: words, duration: duration)
    }

    /// The latest time a word may end at, in seconds: past the longest recording read (a time
    /// beyond it is no word's, and would overflow the clock's figures; fuzzing found one).
    static let latest = Double(SpeechRecognizer.maximumSeconds) + 60

    /// A word without control characters or surrounding blanks, at most ``longestWord`` characters.
    static func clean(_ text: Substring) -> String {
        let kept = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) })
        return String(kept.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(longestWord))
    }
}
