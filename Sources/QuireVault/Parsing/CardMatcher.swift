import QuireModel

/// A stored scheduling line as read from a note's front matter.
struct StoredLine {
    var id: CardID
    var state: SchedulingState
    var line: Int
    var column: Int
}

/// Gives each extracted card its ID and matches stored scheduling lines to cards (FORMAT.md §3.5):
/// explicit IDs, then derived IDs, then equal fingerprints, then similar fingerprints.
enum CardMatcher {
    /// Fingerprints at most this many SimHash bits apart (of 56) count as the same card edited.
    static let similarityThreshold = 16

    static func assign(_ extracted: [ExtractedCard], stored: [StoredLine], path: String)
        -> (cards: [Card], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        // Derived IDs already given; an identical earlier card pushes the occurrence number up.
        var derived = Set<UInt64>()
        var cards: [Card] = []
        cards.reserveCapacity(extracted.count)
        var seenExplicit: [CardID: Int] = [:]
        for e in extracted {
            let id: CardID
            if let explicit = e.explicitID {
                id = explicit
                if let firstLine = seenExplicit[explicit] {
                    diagnostics.append(Diagnostic(.error, path: path, line: e.lines.lowerBound, column: e.column,
                        message: "card ID '\(explicit)' is already used at line \(firstLine) of this note"))
                } else {
                    seenExplicit[explicit] = e.lines.lowerBound
                }
            } else {
                let variant = e.variant.identityText
                var occurrence = 0
                var hash = CardID.derivedHash(path: path, kind: e.kind, variant: variant, identityText: e.identityText,
                                              occurrence: 0)
                while !derived.insert(hash >> 4).inserted {
                    occurrence += 1
                    hash = CardID.derivedHash(path: path, kind: e.kind, variant: variant, identityText: e.identityText,
                                              occurrence: occurrence)
                }
                id = CardID(derivedHash: hash)
            }
            cards.append(Card(id: id, kind: e.kind, variant: e.variant, front: e.front, back: e.back, lines: e.lines,
                              column: e.column, headingPath: e.headingPath, identityText: e.identityText,
                              hasExplicitID: e.explicitID != nil))
        }
        guard !stored.isEmpty else { return (cards, diagnostics) }

        // 1. Same ID.
        var cardIndexByID: [CardID: Int] = [:]
        for (i, c) in cards.enumerated() where cardIndexByID[c.id] == nil { cardIndexByID[c.id] = i }
        var matchedCards = Set<Int>()
        var unmatchedStored: [Int] = []
        for (si, s) in stored.enumerated() {
            if let ci = cardIndexByID[s.id], !matchedCards.contains(ci) {
                cards[ci].schedule = s.state
                matchedCards.insert(ci)
            } else {
                unmatchedStored.append(si)
            }
        }
        guard !unmatchedStored.isEmpty else { return (cards, diagnostics) }

        // 2 and 3. Equal, then similar fingerprints, among cards whose ID is not their own.
        let candidates = cards.indices.filter { !matchedCards.contains($0) && !cards[$0].hasExplicitID }
        var fingerprints: [Int: Fingerprint] = [:]
        for ci in candidates { fingerprints[ci] = cards[ci].fingerprint }
        var pairs: [(distance: Int, offset: Int, stored: Int, card: Int)] = []
        for si in unmatchedStored {
            guard let fp = stored[si].state.fingerprint else { continue }
            for ci in candidates {
                guard let cfp = fingerprints[ci], let d = fp.distance(to: cfp) else { continue }
                if d <= similarityThreshold { pairs.append((d, abs(ci - si), si, ci)) }
            }
        }
        pairs.sort { ($0.distance, $0.offset, $0.stored, $0.card) < ($1.distance, $1.offset, $1.stored, $1.card) }
        var usedStored = Set<Int>()
        for p in pairs where !usedStored.contains(p.stored) && !matchedCards.contains(p.card) {
            usedStored.insert(p.stored)
            matchedCards.insert(p.card)
            let s = stored[p.stored]
            let how = p.distance == 0 ? "same text" : "similar text, \(p.distance) of 56 fingerprint bits differ"
            diagnostics.append(Diagnostic(.note, path: path, line: cards[p.card].lines.lowerBound,
                                          column: cards[p.card].column,
                                          message: "card re-matched to its history '\(s.id)' (\(how))"))
            cards[p.card].id = s.id
            cards[p.card].schedule = s.state
        }
        for si in unmatchedStored where !usedStored.contains(si) {
            let s = stored[si]
            diagnostics.append(Diagnostic(.warning, path: path, line: s.line, column: s.column,
                message: "scheduling state for card '\(s.id)' matches no card in this note; kept"))
        }
        return (cards, diagnostics)
    }
}
