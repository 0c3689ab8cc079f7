import QuireEmbedding

extension SearchIndex {
    /// The fewest words a related passage has.
    static let relatedWords = 6

    /// The notes nearest the note at `path` — or, given `lines`, its chunk at those lines (a card)
    /// — best first, one hit (the nearest chunk) per note, the note itself left out. By meaning
    /// with `encoder` (the mean of the chunks' vectors), else by the chunks' most frequent words.
    public func related(toNote path: String, lines: ClosedRange<Int>? = nil, encoder: SentenceEncoder?,
                        limit: Int = 10) throws(SearchError) -> [SearchHit] {
        var sources: [Int64] = []
        for id in try chunks(ofNote: path) {
            guard let lines else { sources.append(id); continue }
            if let hit = try chunk(id), hit.lines.overlaps(lines) { sources.append(id) }
        }
        guard !sources.isEmpty else { return [] }
        var hits: [SearchHit] = []
        if encoder != nil {
            var mean = [Float](repeating: 0, count: SentenceEncoder.dimension)
            var found = 0
            for id in sources {
                guard let v = try vector(ofChunk: id) else { continue }
                for i in mean.indices { mean[i] += v[i] }
                found += 1
            }
            if found > 0 {
                let norm = mean.reduce(0) { $0 + $1 * $1 }.squareRoot()
                if norm > 0 { mean = mean.map { $0 / norm } }
                hits = try nearest(mean, limit: limit * 8, excluding: [path])
            }
        }
        if hits.isEmpty {
            var text = ""
            for id in sources { text += (try self.text(ofChunk: id) ?? "") + "\n" }
            var counts: [String: Int] = [:]
            for term in ExtractiveAnswer.terms(text) where term.count > 2 && !term.allSatisfy(\.isNumber) { counts[term, default: 0] += 1 }
            let top = counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(12).map(\.key)
            guard !top.isEmpty else { return [] }
            hits = try search(top.joined(separator: " "), limit: limit * 8, matchAll: false).filter { $0.path != path }
        }
        // Related context is prose with something to say: no card, no chunk of HTML comments
        // (generated cards' `<!-- generated from … -->`) or of a word or two (a stray bullet
        // glyph), one passage a note.
        var seen: Set<String> = []
        return Array(hits.filter { hit in
            guard hit.card == nil, !seen.contains(hit.path) else { return false }
            let words = NoteChunker.wordCount(ExtractiveAnswer.withoutTags(((try? text(ofChunk: hit.chunk)) ?? hit.snippet)[...]))
            guard words >= Self.relatedWords else { return false }
            seen.insert(hit.path)
            return true
        }.prefix(limit))
    }
}
