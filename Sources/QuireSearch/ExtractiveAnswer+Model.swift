import QuireEmbedding
import QuireSupport

/// A language model's answer checked against the chunks it was given: every sentence supported
/// by one of them, cited, and held against the quoted answer.
extension ExtractiveAnswer {
    /// A language model's `reply` checked against the `chunks` it was given (numbered from 1).
    /// Each sentence must be supported by a chunk: most of its words are the chunk's (and, with the
    /// model, its meaning is near the chunk's). It cites the first chunk it names that supports
    /// it; a sentence citing none (small models forget) cites the chunk that supports it best; a
    /// clause the chunk does not support (", which is …", "; …") is cut off with what follows it;
    /// a sentence no chunk supports, or that cites only chunks that do not exist, is dropped.
    public static func checked(_ reply: String, chunks: [(hit: SearchHit, text: String)], encoder: SentenceEncoder?) -> Answer {
        var answer = Answer(sentences: [], sources: [])
        var sourceNumber: [Int: Int] = [:]
        let chunkVectors = encoder.map { e in e.embed(chunks.map(\.text)) }
        let chunkTerms = chunks.map { Set(terms($0.text)) }
        let compact = chunks.map { String($0.text.filter { !$0.isWhitespace }) }
        let chunkSentences = chunks.map { SentenceSplitter.sentences($0.text).map { (words: plainWords($0), terms: Set(terms($0))) } }
        for line in reply.split(whereSeparator: \.isNewline) {
            for raw in SentenceSplitter.sentences(line) {
                let (text, cited) = citations(raw)
                guard NoteChunker.wordCount(text) > 0, text != "NOT FOUND" else { continue }
                // An answer asks nothing back, and a sentence ending in ":" without what it
                // introduces says nothing.
                if text.hasSuffix("?") || text.hasSuffix(":") { answer.dropped.append(raw); continue }
                let named = cited.filter { (1...chunks.count).contains($0) }.map { $0 - 1 }
                // A citation of chunks that were not given is the model making things up.
                if !cited.isEmpty, named.isEmpty { answer.dropped.append(raw); continue }
                let candidates = named + chunks.indices.filter { !named.contains($0) }
                var found: (chunk: Int, text: String)?
                for k in candidates {
                    guard let kept = supportedPart(of: text, in: chunkTerms[k], compact: compact[k]),
                          agrees(kept, with: chunkSentences[k]) else { continue }
                    if let encoder, let vectors = chunkVectors, SentenceEncoder.cosine(encoder.embed(kept), vectors[k]) < 0.3 { continue }
                    found = (k, kept)
                    break
                }
                guard let found else { answer.dropped.append(raw); continue }
                // A small model repeats itself: a sentence saying nothing new is left out, and an
                // answer ends after a few sentences.
                let said = Set(terms(found.text))
                if answer.sentences.count >= longestPhrasing
                    || answer.sentences.contains(where: { said.isSubset(of: Set(terms($0.text))) }) {
                    answer.dropped.append(raw)
                    continue
                }
                let number: Int
                if let n = sourceNumber[found.chunk] { number = n } else {
                    answer.sources.append(chunks[found.chunk].hit)
                    number = answer.sources.count
                    sourceNumber[found.chunk] = number
                }
                answer.sentences.append(Answer.Sentence(text: found.text, source: number))
            }
        }
        return answer
    }

    /// A model's checked answer held against the quoted one: its sentences that share no word
    /// with the question are dropped (a small model adds asides), and it stands only when what is
    /// left keeps at least ``keptShare`` of the words of the quote's best sentence — a phrasing
    /// that lost the fact the notes state is worse than the quote. When nothing was quoted (the
    /// question's words are not the notes'), its sentences about the question stand alone, each
    /// supported by the chunk it cites. Nil when it does not stand.
    public static func standing(_ phrased: Answer, for quoted: Answer, question: String) -> Answer? {
        let asked = Set(terms(question))
        var kept = phrased
        kept.sentences = phrased.sentences.filter { !Set(terms($0.text)).isDisjoint(with: asked) }
        kept.dropped += phrased.sentences.filter { Set(terms($0.text)).isDisjoint(with: asked) }.map(\.text)
        guard kept.found else { return nil }
        if let best = quoted.sentences.first {
            let said = Set(kept.sentences.flatMap { terms($0.text) })
            let fact = terms(best.text)
            guard !fact.isEmpty, Double(fact.filter { said.contains($0) }.count) >= keptShare * Double(fact.count) else { return nil }
        }
        // Sources renumbered: those no kept sentence cites are left out.
        let cited = Array(Set(kept.sentences.map(\.source))).sorted()
        let renumber = Dictionary(uniqueKeysWithValues: cited.enumerated().map { ($1, $0 + 1) })
        kept.sources = cited.map { kept.sources[$0 - 1] }
        kept.sentences = kept.sentences.map { Answer.Sentence(text: $0.text, source: renumber[$0.source] ?? $0.source) }
        return kept
    }

    /// The share of the quote's best sentence a model's answer must keep.
    static let keptShare = 0.5

    /// Characters that make a token part of a formula.
    static let formulaCharacters: Set<Character> = Set("=+/^√∑∫<>≤≥⩽⩾≈∈×·|∩∪()")

    /// The formulas and numbers of a sentence, spaces taken out: runs of tokens holding a digit
    /// or a formula character (with the one-letter tokens between them), trimmed of punctuation.
    static func formulas(in text: String) -> [String] {
        var out: [String] = [], run = ""
        func end() {
            var bare = Substring(run)
            while let first = bare.first, ".,;:".contains(first) { bare.removeFirst() }
            while let last = bare.last, ".,;:".contains(last) { bare.removeLast() }
            if bare.contains(where: { $0.isNumber || formulaCharacters.contains($0) }) { out.append(String(bare)) }
            run = ""
        }
        for token in text.split(separator: " ") {
            if token.contains(where: { $0.isNumber || formulaCharacters.contains($0) }) || (token.count == 1 && !run.isEmpty) {
                run += token
            } else {
                end()
            }
        }
        end()
        return out
    }

    /// The most sentences a model's answer keeps.
    static let longestPhrasing = 4

    /// The share of a sentence's words a chunk must hold for it to support the sentence.
    static let supportedShare = 0.6

    /// The part of `sentence` that a chunk with `terms` (and `source`, its text without spaces) supports: the whole sentence, or its
    /// clauses up to the first one the chunk does not support (then ending with a full stop);
    /// nil when its first clause is not supported.
    static func supportedPart(of sentence: String, in available: Set<String>, compact source: String) -> String? {
        func supported(_ text: String) -> Bool {
            // A formula or a number is the chunk's, character for character (spaces aside), and an
            // equation a whole one of the chunk's (not "P(A∩B)=P(A)" of "P(A∩B)=P(A)P(B)"): a
            // model that writes one of its own, or cuts one short, is making it up.
            for formula in formulas(in: text) {
                guard let found = source.range(of: formula) else { return false }
                if formula.contains(where: { "=<>≤≥⩽⩾≈".contains($0) }), let next = source[found.upperBound...].first,
                   next.isLetter || next.isNumber || formulaCharacters.contains(next) { return false }
            }
            let words = terms(text)
            guard !words.isEmpty else { return true }
            return Double(words.filter { available.contains($0) }.count) >= supportedShare * Double(words.count)
        }
        let clauses = clauses(of: sentence)
        var kept = ""
        for clause in clauses {
            guard supported(clause) else { break }
            kept += clause
        }
        if kept.count == sentence.count { return sentence }
        guard !terms(kept).isEmpty, supported(kept) else { return nil }
        var cut = kept.trimmingSpaces()
        while let last = cut.last, ",;:–—-".contains(last) { cut.removeLast(); cut = cut.trimmingSpaces() }
        return cut + "."
    }

    /// Words that deny what a sentence says.
    static let negations: Set<String> = ["no", "not", "never", "none", "nothing", "neither", "nor", "cannot", "without", "nobody", "nowhere"]
    /// Words that make a claim absolute: a model that writes one where the notes do not ("all of
    /// the cell's ATP" for "most of") says more than they do.
    static let absolutes: Set<String> = ["all", "every", "always", "never", "none", "only", "entirely", "completely", "solely", "exclusively"]

    /// A text's words, lower-cased, with their apostrophes (`don't`).
    static func plainWords(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0 == "'" || $0 == "’") }.map { String($0).replacingOccurrences(of: "’", with: "'") }
    }

    /// Whether a word denies (`not`, `never`, `isn't`).
    static func denies(_ word: String) -> Bool { negations.contains(word) || word.hasSuffix("n't") }

    /// Whether `sentence` says what the chunk's sentence nearest to it says, not its opposite nor
    /// more: the two deny alike (a "no" or "not" the notes do not write turns their fact around,
    /// and one they write cannot be left out), and every absolute word of the sentence ("all",
    /// "only", "always") is the chunk's. Shared words are no support for the opposite claim.
    static func agrees(_ sentence: String, with chunk: [(words: [String], terms: Set<String>)]) -> Bool {
        let words = plainWords(sentence)
        let own = Set(terms(sentence))
        guard let nearest = chunk.max(by: { $0.terms.intersection(own).count < $1.terms.intersection(own).count }) else { return false }
        if words.contains(where: denies) != nearest.words.contains(where: denies) { return false }
        let chunkWords = Set(chunk.flatMap(\.words))
        return words.allSatisfy { !absolutes.contains($0) || chunkWords.contains($0) }
    }

    /// A sentence's clauses, each with what leads into it: cut before ", which", ", while",
    /// ", but", ", and", ", so", ", as", "; " and " – ", so that joining them gives the sentence back.
    static func clauses(of sentence: String) -> [String] {
        let separators = [", which ", ", while ", ", but ", ", and ", ", so ", ", as ", ", making ", ", allowing ", "; ", " – ", " — "]
        var out: [String] = []
        var start = sentence.startIndex, index = sentence.startIndex
        while index < sentence.endIndex {
            if index > start, sentence[index] == "," || sentence[index] == ";" || sentence[index] == " ",
               separators.contains(where: { sentence[index...].hasPrefix($0) }) {
                out.append(String(sentence[start..<index]))
                start = index
            }
            index = sentence.index(after: index)
        }
        out.append(String(sentence[start...]))
        return out
    }

    /// A sentence without its trailing citations, and the numbers they cite.
    static func citations(_ sentence: String) -> (text: String, cited: [Int]) {
        var text = Substring(sentence)
        var cited: [Int] = []
        // Trailing "[1]", "[1][2]", "[1, 2]", possibly before the final punctuation.
        var tail = ""
        if let last = text.last, ".!?".contains(last) { tail = String(last); text = text.dropLast() }
        while text.hasSuffix("]"), let open = text.lastIndex(of: "[") {
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let numbers = inside.split(whereSeparator: { $0 == "," || $0 == " " }).map { Int($0) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { break }
            cited.insert(contentsOf: numbers.compactMap { $0 }, at: 0)
            text = text[..<open]
            while text.last == " " { text = text.dropLast() }
        }
        if let last = text.last, ".!?".contains(last) { tail = "" }
        return (String(text) + tail, cited)
    }
}
