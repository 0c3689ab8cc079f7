import QuireModel
import QuireEmbedding
import QuireSupport

/// An answer to a question built from the notes: sentences taken from (or, phrased by a language
/// model, checked against) the retrieved chunks, each citing the chunk it comes from.
public struct Answer: Sendable {
    /// One sentence of the answer and the number of its source (1-based, into ``sources``).
    public struct Sentence: Sendable, Equatable {
        public var text: String
        public var source: Int
    }

    public var sentences: [Sentence]
    /// The chunks cited, in the order first cited.
    public var sources: [SearchHit]
    /// Sentences a language model wrote that cited nothing retrieved or that the cited chunk does
    /// not support: left out.
    public var dropped: [String] = []

    /// Whether anything relevant was found.
    public var found: Bool { !sentences.isEmpty }

    public init(sentences: [Sentence], sources: [SearchHit], dropped: [String] = []) {
        self.sentences = sentences
        self.sources = sources
        self.dropped = dropped
    }
}

/// Builds answers from retrieved chunks, extractively: the chunks' sentences scored against the
/// question — by meaning (cosine) with the model, and by the question's rarer words — the best
/// few kept when they clear a floor, each cited. A question in the notes is never an answer: a
/// card answers with its back, scored with its front (the question it answers). Pure: the same
/// chunks give the same answer.
public enum ExtractiveAnswer {
    /// A card's two sides, for an answer taken from it.
    public struct CardSides: Sendable {
        public var front: String
        public var back: String
        /// A cloze card's back is its whole text: it answers as prose does.
        public var isCloze: Bool

        public init(front: String, back: String, isCloze: Bool) {
            self.front = front
            self.back = back
            self.isCloze = isCloze
        }
    }

    /// The most sentences an answer has.
    public static let maximumSentences = 3
    /// The cosine the best sentence must reach with the model (below: nothing relevant).
    static let semanticFloor: Float = 0.40
    /// The share of the question's (idf-weighted) words the best sentence must hold without it.
    static let lexicalFloor = 0.5
    /// The most words a card's answer quotes.
    static let maximumWords = 80

    /// A sentence an answer may quote: the statement it shows, the text it is scored by, and the
    /// chunk it comes from.
    typealias Candidate = (text: String, scored: String, chunk: Int)
    /// A candidate's score and whether it passes the floor.
    typealias Scored = (index: Int, score: Double, passes: Bool)

    /// The answer to `question` from `chunks` (best first, each with its full text); `cards` gives
    /// the sides of a chunk's card (nil: the chunk's text is read as prose).
    public static func answer(_ question: String, chunks: [(hit: SearchHit, text: String)], encoder: SentenceEncoder?,
                              cards: (CardID) -> CardSides? = { _ in nil }) -> Answer {
        let candidates = self.candidates(in: chunks, cards: cards)
        guard !candidates.isEmpty else { return Answer(sentences: [], sources: []) }
        // By its words, a candidate scores as its sentence or as the statement shown, the better
        // (a short paragraph naming both things a question asks about, one in each sentence).
        let bySentence = lexicalCoverage(question, candidates.map(\.scored)), byStatement = lexicalCoverage(question, candidates.map(\.text))
        let covered = candidates.indices.map { bySentence.share($0) >= byStatement.share($0) ? bySentence.covered[$0] : byStatement.covered[$0] }
        let lexical = candidates.indices.map { max(bySentence.share($0), byStatement.share($0)) }
        var scored = ranked(question, candidates, lexical: lexical, encoder: encoder)
        if let best = scored.first, !best.passes, encoder == nil {
            passTwoStatements(&scored, candidates, covered: covered, coverage: bySentence)
        }
        guard let best = scored.first, best.passes else { return Answer(sentences: [], sources: []) }
        return quoted(scored, best: best, candidates, chunks)
    }

    /// The sentences of `chunks` an answer may quote: each card's answer, each prose sentence of
    /// 4 to ``maximumWords`` words (not a question) shown as the statement it belongs to (its whole
    /// block when short, what a closing colon introduces after it).
    static func candidates(in chunks: [(hit: SearchHit, text: String)], cards: (CardID) -> CardSides?) -> [Candidate] {
        var candidates: [Candidate] = []
        var seen: Set<String> = []
        for (k, chunk) in chunks.enumerated() {
            if let id = chunk.hit.card, let sides = cards(id), !sides.isCloze {
                if let shown = cardAnswer(sides), seen.insert(shown.lowercased()).inserted {
                    candidates.append((shown, oneLine(sides.front) + " " + shown, k))
                }
                continue
            }
            let found = blocks(of: chunk.text)
            for (b, block) in found.enumerated() {
                for sentence in block.sentences where !sentence.hasSuffix("?") {
                    let words = NoteChunker.wordCount(sentence)
                    guard words >= 4, words <= maximumWords else { continue }
                    // A statement two sentences share is one candidate per sentence (scored by
                    // each), shown once.
                    candidates.append((statement(sentence, in: found, at: b), sentence, k))
                }
            }
        }
        return candidates
    }

    /// The candidates scored, best first: by meaning and words with a model (a sentence that shares
    /// no word with the question must be close), by words alone without; a defining sentence of
    /// what the question asks about, and the earlier chunks', a little ahead.
    static func ranked(_ question: String, _ candidates: [Candidate], lexical: [Double], encoder: SentenceEncoder?) -> [Scored] {
        // A question asking what something is: a sentence that defines it (`X is …`, `X – …`) first.
        let subject = definedSubject(question)
        let defines = candidates.map { candidate in subject.map { isDefinition(of: $0, candidate.scored) } ?? false }
        var semantic: [Float]?
        if let encoder {
            let q = encoder.embed(question)
            semantic = encoder.embed(candidates.map(\.scored)).map { SentenceEncoder.cosine(q, $0) }
        }
        var scored: [Scored] = []
        for i in candidates.indices {
            let prior = 0.05 / Double(candidates[i].chunk + 1) + (defines[i] ? definitionBoost : 0)
            if let semantic {
                let s = semantic[i]
                scored.append((i, 0.7 * Double(s) + 0.3 * lexical[i] + prior, s >= semanticFloor && (lexical[i] > 0 || s >= semanticAlone)))
            } else {
                scored.append((i, lexical[i] + prior, lexical[i] >= lexicalFloor))
            }
        }
        scored.sort { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }
        return scored
    }

    /// A question about two things (the difference between A and B) is answered by two
    /// statements, each naming one: when the best and the next that names something else hold the
    /// floor's share together, both pass.
    static func passTwoStatements(_ scored: inout [Scored], _ candidates: [Candidate], covered: [Set<String>], coverage: Coverage) {
        let first = scored[0].index
        guard let second = scored.dropFirst().first(where: { candidates[$0.index].text != candidates[first].text
                                                            && !covered[$0.index].isSubset(of: covered[first]) }),
              coverage.share(of: covered[first].union(covered[second.index])) >= lexicalFloor else { return }
        scored[0].passes = true
        if let k = scored.firstIndex(where: { $0.index == second.index }) {
            scored[k].passes = true
            scored[k].score = max(scored[k].score, scored[0].score - 0.15)
        }
    }

    /// The answer quoting the passing candidates within 0.15 of the best (at most
    /// ``maximumSentences``, each statement once), its sources numbered in the order first cited.
    static func quoted(_ scored: [Scored], best: Scored, _ candidates: [Candidate], _ chunks: [(hit: SearchHit, text: String)]) -> Answer {
        var answer = Answer(sentences: [], sources: [])
        var sourceNumber: [Int: Int] = [:]
        var shown: Set<String> = []
        for item in scored where item.passes && item.score >= best.score - 0.15 && answer.sentences.count < maximumSentences {
            guard shown.insert(candidates[item.index].text.lowercased()).inserted else { continue }
            let chunk = candidates[item.index].chunk
            let number: Int
            if let n = sourceNumber[chunk] { number = n } else {
                answer.sources.append(chunks[chunk].hit)
                number = answer.sources.count
                sourceNumber[chunk] = number
            }
            answer.sentences.append(Answer.Sentence(text: candidates[item.index].text, source: number))
        }
        return answer
    }

    /// What a card answers: its back, on one line, at most ``maximumWords`` words (whole
    /// sentences when it is longer); after its front (`front — back`) when the front is not a
    /// question or the back is too short to stand alone (`2`, `the kitchen`). Nil for an empty back.
    static func cardAnswer(_ sides: CardSides) -> String? {
        var back = oneLine(sides.back)
        guard !back.isEmpty else { return nil }
        if NoteChunker.wordCount(back) > maximumWords {
            var kept: [String] = []
            var words = 0
            for sentence in sentences(of: sides.back) {
                let n = NoteChunker.wordCount(sentence)
                if words + n > maximumWords { break }
                kept.append(sentence)
                words += n
            }
            back = kept.isEmpty ? back.split(separator: " ").prefix(maximumWords).joined(separator: " ") + " …" : kept.joined(separator: " ")
        }
        let front = oneLine(sides.front)
        if front.hasSuffix("?"), NoteChunker.wordCount(back) >= 4 { return back }
        return front.isEmpty ? back : front + " — " + back
    }

    /// Markdown text on one line: lines joined by spaces, runs of white space one space, tags left out.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { withoutTags($0) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A block of a chunk's Markdown as an answer quotes it: its text on one line, its sentences,
    /// and whether it is prose (a paragraph, a list item, a quote) or what a sentence introduces
    /// (a formula, code, a table row).
    struct Block: Equatable {
        var text: String
        var sentences: [String]
        var isProse: Bool
        /// A list item's.
        var isItem = false
    }

    /// The blocks of a chunk's Markdown: paragraphs (their lines joined), list items and quotes
    /// as prose; code, display math and tables as what they are, on one line; HTML comments and
    /// tags, include directives, headings, list and quote marks left out. A paragraph that ends
    /// with no sentence's end goes on in the next when that starts in lower case (a PDF's line
    /// broken at a formula).
    static func blocks(of markdown: String) -> [Block] {
        var blocks: [Block] = []
        var current: [Substring] = []
        var currentProse = true
        var currentItem = false
        var fence: Substring?
        var inComment = false
        func close() {
            defer { current = []; currentItem = false }
            let text = current.joined(separator: currentProse ? " " : "; ").trimmingSpaces()
            guard !text.isEmpty else { return }
            if currentProse, !currentItem, let last = blocks.last, last.isProse, !last.isItem, let end = last.text.last, !".!?:;".contains(end),
               let first = text.first, first.isLowercase {
                let joined = last.text + " " + text
                blocks[blocks.count - 1] = Block(text: joined, sentences: SentenceSplitter.sentences(Substring(joined)), isProse: true)
                return
            }
            blocks.append(Block(text: text, sentences: currentProse ? SentenceSplitter.sentences(Substring(text)) : [], isProse: currentProse,
                                isItem: currentItem))
        }
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = rawLine.drop { $0 == " " || $0 == "\t" }
            if let open = fence {
                if line.hasPrefix(open) { fence = nil; close(); currentProse = true } else if !line.isEmpty { current.append(line) }
                continue
            }
            if line.hasPrefix("```") || line.hasPrefix("~~~") || line.hasPrefix("$$") {
                close()
                if line.hasPrefix("$$"), line.count > 2, line.hasSuffix("$$") {
                    current = [line]
                    currentProse = false
                    close()
                    currentProse = true
                    continue
                }
                fence = line.prefix { $0 == line.first }
                currentProse = false
                continue
            }
            if inComment {
                if line.contains("-->") { inComment = false }
                continue
            }
            if line.hasPrefix("<!--") {
                if !line.contains("-->") { inComment = true }
                close()
                continue
            }
            while line.hasPrefix(">") { line = line.dropFirst().drop { $0 == " " } }
            if line.hasPrefix("|") {
                // A table row (the separator row left out): what a sentence may introduce.
                if currentProse { close() }
                currentProse = false
                if !line.allSatisfy({ "|-: ".contains($0) }) {
                    current.append(Substring(line.split(separator: "|").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: ", ")))
                }
                continue
            }
            if !currentProse { close(); currentProse = true }
            if line.isEmpty || line.hasPrefix("{{#") || line.hasPrefix("#") || (current.isEmpty && isReferenceDefinition(line)) { close(); continue }
            if line.hasPrefix("- ") || line.hasPrefix("* ") || line.hasPrefix("+ ") {
                close()
                currentItem = true
                line = line.dropFirst(2)
            } else if let dot = line.firstIndex(where: { $0 == "." || $0 == ")" }), dot > line.startIndex,
                      line[..<dot].allSatisfy(\.isNumber), line[line.index(after: dot)...].hasPrefix(" ") {
                close()
                currentItem = true
                line = line[line.index(dot, offsetBy: 2)...]
            }
            current.append(Substring(withoutTags(line)))
        }
        close()
        return blocks
    }

    /// The most words a statement quotes whole: a block this short is shown whole, what a colon
    /// introduces joins its sentence when this short.
    static let wholeBlockWords = 70

    /// What `sentence` of block `index` states: the whole block when it is short (a definition
    /// with its formula, a point with its reason), else the sentence; and, when that ends with a
    /// colon, the block after it (the list, formula, code or table it introduces) when short.
    static func statement(_ sentence: String, in blocks: [Block], at index: Int) -> String {
        let block = blocks[index]
        var shown = block.isProse && NoteChunker.wordCount(block.text) <= wholeBlockWords ? block.text : sentence
        // A sentence that leans on the one before it (`It pictures …`) is shown after it.
        if shown == sentence, let k = block.sentences.firstIndex(of: sentence), k > 0,
           let first = sentence.split(separator: " ").first, ["It", "They", "This", "These", "Its", "Their", "He", "She"].contains(String(first)) {
            shown = block.sentences[k - 1] + " " + sentence
        }
        if shown.hasSuffix(":") {
            // The items of a list, or the formula, code or table after it.
            var introduced: [String] = []
            var k = index + 1
            var words = NoteChunker.wordCount(shown)
            while k < blocks.count, introduced.count < 12 {
                let next = blocks[k]
                let n = NoteChunker.wordCount(next.text)
                guard words + n <= wholeBlockWords * 2 else { break }
                // List items while they come; else one block (a formula, code, a table, a line).
                guard next.isItem || introduced.isEmpty else { break }
                if next.isProse, !next.isItem, n > 40 { break }
                introduced.append(next.text)
                words += n
                if !next.isItem { break }
                k += 1
            }
            if !introduced.isEmpty { shown += " " + introduced.joined(separator: "; ") }
        }
        return shown
    }

    /// The prose sentences of a chunk's Markdown (``blocks(of:)``'s), between 4 and 80 words each.
    static func sentences(of markdown: String) -> [String] {
        blocks(of: markdown).flatMap(\.sentences).filter { (4...maximumWords).contains(NoteChunker.wordCount($0)) }
    }

    /// Text without HTML tags (`<` then a letter or `/`, up to the next `>` with no `<` between)
    /// and comments on one line. Linear: no character is looked at more than twice.
    static func withoutTags(_ line: Substring) -> String {
        var out = ""
        var i = line.startIndex
        var commentsLeft = true
        while i < line.endIndex {
            if commentsLeft, line[i...].hasPrefix("<!--") {
                if let end = line[i...].range(ofLiteral: "-->") {
                    i = end.upperBound
                    continue
                }
                commentsLeft = false  // none closes on this line: no later one will either
            }
            // A kramdown attribute list (`{: data-type="term"}`): markup, not text.
            if line[i] == "{", line[i...].hasPrefix("{:"), let close = line[i...].prefix(200).firstIndex(of: "}") {
                i = line.index(after: close)
                continue
            }
            if line[i] == "<", let next = line.index(i, offsetBy: 1, limitedBy: line.endIndex), next < line.endIndex,
               line[next].isLetter || line[next] == "/" {
                // The tag ends at the first '>', unless a '<' comes first (then this '<' is text).
                if let stop = line[next...].firstIndex(where: { $0 == ">" || $0 == "<" }) {
                    if line[stop] == ">" {
                        i = line.index(after: stop)
                        continue
                    }
                    out += line[i..<stop]
                    i = stop
                    continue
                }
                out += line[i...]
                break
            }
            // A reference link (`[text][label]`, `[text][]`, `[Text]`) whose definition the chunk
            // does not hold: its text, not its brackets.
            // (Not an image's, nor a wiki link's `[[…]]`.)
            if line[i] == "[", i == line.startIndex || !"![".contains(line[line.index(before: i)]),
               let close = line[i...].prefix(200).dropFirst().firstIndex(where: { $0 == "]" || $0 == "[" }), line[close] == "]" {
                let inner = line[line.index(after: i)..<close]
                let after = line.index(after: close)
                if after < line.endIndex, line[after] == "[",
                   let end = line[after...].prefix(100).dropFirst().firstIndex(where: { $0 == "]" || $0 == "[" }), line[end] == "]" {
                    out += inner
                    i = line.index(after: end)
                    continue
                }
                let shortcut = (after == line.endIndex || !"(]".contains(line[after]) && (line[after] != ":" || i != line.startIndex || !isReferenceDefinition(line)))
                    && inner.first?.isLetter == true
                    && inner.split(separator: " ").count <= 5
                if shortcut {
                    out += inner
                    i = after
                    continue
                }
            }
            out.append(line[i])
            i = line.index(after: i)
        }
        return out.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Whether a line is a link reference definition (`[label]: url "title"`): markup, not text.
    /// (One cannot interrupt a paragraph: `[text]: more words` on a paragraph's later line is text.)
    static func isReferenceDefinition(_ line: Substring) -> Bool {
        guard line.hasPrefix("["), let close = line.prefix(200).firstIndex(of: "]"), line[close...].hasPrefix("]:") else { return false }
        let rest = line[line.index(close, offsetBy: 2)...].split(separator: " ")
        return rest.count == 1 || (rest.count >= 2 && ["\"", "'", "("].contains(rest[1].first ?? " "))
    }

    /// Words for matching: lower-cased runs of letters and digits, common words left out, a
    /// plural or -ing/-ed ending taken off longer words.
    static func terms(_ text: String) -> [String] {
        var out: [String] = []
        var word = ""
        func end() {
            if !word.isEmpty, !SearchIndex.stopwords.contains(word) { out.append(stem(word)) }
            word = ""
        }
        for c in text.lowercased() {
            if c.isLetter || c.isNumber { word.append(c) } else { end() }
        }
        end()
        return out
    }

    /// A word without a plural's or a verb's ending: `-ies` as `-y`, `-es` after a hissing sound,
    /// `-s` (not `-ss`, `-us`, `-is`), `-ing`, `-ed` — on longer words, so that `indicates` and
    /// `indicate`, `studies` and `study`, `focuses` and `focus` meet.
    static func stem(_ word: String) -> String {
        guard word.count > 4 else { return word }
        if word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("es"), ["s", "x", "z", "ch", "sh"].contains(where: { word.dropLast(2).hasSuffix($0) }) { return String(word.dropLast(2)) }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us"), !word.hasSuffix("is") { return String(word.dropLast()) }
        if word.count > 6, word.hasSuffix("ing") { return String(word.dropLast(3)) }
        if word.count > 5, word.hasSuffix("ed") { return String(word.dropLast(2)) }
        return word
    }

    /// The question's words each sentence holds, and their weights (by rarity among the sentences).
    struct Coverage {
        var weights: [String: Double]
        var covered: [Set<String>]
        var total: Double

        /// The share of the question's weight `terms` hold.
        func share(of terms: Set<String>) -> Double { total > 0 ? terms.reduce(0) { $0 + (weights[$1] ?? 0) } / total : 0 }
        /// Sentence `k`'s share.
        func share(_ k: Int) -> Double { share(of: covered[k]) }
    }

    static func lexicalCoverage(_ question: String, _ sentences: [String]) -> Coverage {
        let q = Set(terms(question))
        let sets = sentences.map { Set(terms($0)).intersection(q) }
        var df: [String: Int] = [:]
        for set in sets { for t in set { df[t, default: 0] += 1 } }
        let n = Double(sentences.count)
        // A word that frames the question (the difference between, the purpose of) counts little:
        // the answer states the things it asks about, seldom the frame.
        var weights: [String: Double] = [:]
        for t in q { weights[t] = framing.contains(t) ? 0.3 : 1 + (n / Double(1 + df[t, default: 0])).squareRoot() }
        return Coverage(weights: weights, covered: sets, total: weights.values.reduce(0, +))
    }

    /// Each sentence's share of the question's words, weighted by rarity among the sentences.
    static func lexicalScores(_ question: String, _ sentences: [String]) -> [Double] {
        let coverage = lexicalCoverage(question, sentences)
        return sentences.indices.map { coverage.share($0) }
    }

    /// What a sentence that defines the question's subject adds to its score.
    static let definitionBoost = 0.12
    /// By meaning alone (no word shared with the question), the cosine an answer must reach.
    static let semanticAlone: Float = 0.55

    /// The words of what a question asks to be defined (`What is a policy in reinforcement
    /// learning?` → `policy`; `What are economies of scale?` → `economies of scale`), or nil when it
    /// asks no such thing.
    static func definedSubject(_ question: String) -> [String]? {
        var q = question.lowercased().trimmingCharacters(in: .whitespaces)
        while let last = q.last, "?.! ".contains(last) { q.removeLast() }
        var rest: Substring?
        for opening in ["what is ", "what are ", "what's ", "define ", "who is ", "who was ", "what was ", "what were "] where q.hasPrefix(opening) {
            rest = q.dropFirst(opening.count)
        }
        guard var subject = rest else { return nil }
        for article in ["a ", "an ", "the "] where subject.hasPrefix(article) { subject = subject.dropFirst(article.count) }
        // The subject ends where a qualifier starts (`in reinforcement learning`, `the study of`).
        for cut in [" in ", " for ", " used ", " the ", " also ", " called "] {
            if let r = subject.range(of: cut) { subject = subject[..<r.lowerBound] }
        }
        let words = terms(String(subject))
        return words.isEmpty || words.count > 5 ? nil : words
    }

    /// Whether `sentence` defines `subject`: it opens with the subject's words (after an article)
    /// followed, within a few words, by `is`, `are`, `means`, `refers to`, a dash or a colon.
    static func isDefinition(of subject: [String], _ sentence: String) -> Bool {
        let words = terms(sentence)
        guard words.count > subject.count, Array(words.prefix(subject.count + 1)).starts(with: subject)
                || Array(words.dropFirst().prefix(subject.count)) == subject else { return false }
        let head = sentence.lowercased().prefix(160)
        return [" is ", " are ", " means ", " refers to ", " – ", " — ", " - ", ": "].contains { head.contains($0) }
    }

    /// Words (stemmed as ``terms(_:)`` stems them) that frame a question rather than name what it
    /// is about.
    static let framing: Set<String> = Set(["difference", "different", "differ", "between", "meaning", "mean", "purpose", "role", "main",
                                           "example", "examples", "definition", "define", "defined", "importance", "important",
                                           "significance", "advantage", "advantages", "disadvantage", "relationship", "relation",
                                           "compare", "comparison", "contrast", "explain", "describe", "called", "name", "named", "term",
                                           "happen", "happens", "work", "works", "use", "used", "kind", "kinds", "type", "types", "way",
                                           "ways", "mean", "means", "goal", "idea", "concept", "key", "following"].map(stem))

    /// The share of `text`'s words found in `source`.
    static func coverage(of text: String, in source: String) -> Double {
        let words = terms(text)
        guard !words.isEmpty else { return 0 }
        let available = Set(terms(source))
        return Double(words.filter { available.contains($0) }.count) / Double(words.count)
    }
}
