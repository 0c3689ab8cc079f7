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
package enum CardMatcher {
    /// What a derived ID's hash starts from besides the note's path.
    private struct PrefixKey: Hashable {
        var kind: CardKind
        var variant: CardVariant
    }

    /// Fingerprints at most this many SimHash bits apart (of 56) count as the same card edited.
    static package let similarityThreshold = 16

    static func assign(_ cards: inout [Card], stored: [StoredLine], path: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        // Derived IDs already given; an identical earlier card pushes the occurrence number up.
        var derived = SmallSet<UInt64>(expected: cards.count)
        var seenExplicit: [CardID: Int] = [:]
        let seed = CardID.derivationSeed(path: path)
        // By kind and variant: a note can hold thousands of cloze numbers (one variant each), so a
        // list searched per card would make the note's cards cost their count squared.
        var prefixes: [PrefixKey: SipHash24] = [:]
        // By an identity's first derived hash, the occurrence number its next identical card tries.
        var nextOccurrence: [UInt64: Int] = [:]
        for i in cards.indices {
            if cards[i].hasExplicitID {
                let explicit = cards[i].id
                if let firstLine = seenExplicit[explicit] {
                    diagnostics.append(Diagnostic(.error, path: path, line: cards[i].lines.lowerBound, column: cards[i].column,
                        message: "card ID '\(explicit)' is already used at line \(firstLine) of this note"))
                } else {
                    seenExplicit[explicit] = cards[i].lines.lowerBound
                }
                continue
            }
            // The hash state after kind and variant is the same for every card that shares them.
            let kind = cards[i].kind, variant = cards[i].variant
            let prefix: SipHash24
            if let known = prefixes[PrefixKey(kind: kind, variant: variant)] {
                prefix = known
            } else {
                prefix = CardID.derivationPrefix(seed: seed, kind: kind, variant: variant.identityText)
                prefixes[PrefixKey(kind: kind, variant: variant)] = prefix
            }
            // The card is read in place: a copy would retain each of its strings.
            let hash = cards.withUnsafeBufferPointer { cards -> UInt64 in
                func derivedHash(_ occurrence: Int) -> UInt64 {
                    CardID.derivedHash(prefix: prefix, occurrence: occurrence,
                                       identity: { cards[i].combineIdentityText(into: &$0) })
                }
                var hash = derivedHash(0)
                if !derived.insert(hash >> 4) {
                    // An identical earlier card: the next occurrence number free. Each identity
                    // goes on from where its last card stopped (every number before that is
                    // taken for good), so a note of k identical cards costs k, not k squared —
                    // the same IDs as trying from 1 each time.
                    let first = hash
                    var occurrence = nextOccurrence[first] ?? 1
                    hash = derivedHash(occurrence)
                    while !derived.insert(hash >> 4) {
                        occurrence += 1
                        hash = derivedHash(occurrence)
                    }
                    nextOccurrence[first] = occurrence + 1
                }
                return hash
            }
            cards[i].id = CardID(derivedHash: hash)
        }
        guard !stored.isEmpty else { return diagnostics }

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
        guard !unmatchedStored.isEmpty else { return diagnostics }

        // 2. Equal fingerprints (a moved file, reordered cards), then 3. similar ones, among cards
        // whose ID is not their own.
        let candidates = cards.indices.filter { !matchedCards.contains($0) && !cards[$0].hasExplicitID }
        var fingerprints: [Int: Fingerprint] = [:]
        var byFingerprint: [UInt64: [Int]] = [:]
        for ci in candidates {
            let fp = cards[ci].fingerprint
            fingerprints[ci] = fp
            byFingerprint[fp.bits, default: []].append(ci)
        }
        var usedStored = Set<Int>()
        func rematch(_ si: Int, _ ci: Int, distance: Int) {
            usedStored.insert(si)
            matchedCards.insert(ci)
            let s = stored[si]
            // The same text (a moved file, reordered cards, or an edit whose fingerprint a write
            // has since stored) is the normal state of a card that keeps its ID: nothing to say.
            if distance != 0 {
                diagnostics.append(Diagnostic(.note, path: path, line: cards[ci].lines.lowerBound, column: cards[ci].column,
                    message: "card re-matched to its history '\(s.id)' (text edited; \(distance) of 56 fingerprint bits differ; 'quire replay' records the edit)"))
            }
            cards[ci].id = s.id
            cards[ci].schedule = s.state
        }
        for si in unmatchedStored {
            guard let fp = stored[si].state.fingerprint, let same = byFingerprint[fp.bits] else { continue }
            // Of several cards with the same fingerprint, the one nearest the line's position.
            if let ci = same.filter({ !matchedCards.contains($0) }).min(by: { abs($0 - si) < abs($1 - si) }) {
                rematch(si, ci, distance: 0)
            }
        }
        let leftStored = unmatchedStored.filter { !usedStored.contains($0) && stored[$0].state.fingerprint != nil }
        let leftCards = candidates.filter { !matchedCards.contains($0) }
        // Comparing every pair is quadratic; a note with that many orphaned lines gets exact matches only.
        if !leftStored.isEmpty, leftStored.count * leftCards.count <= 1_000_000 {
            var pairs: [(distance: Int, offset: Int, stored: Int, card: Int)] = []
            for si in leftStored {
                guard let fp = stored[si].state.fingerprint else { continue }
                for ci in leftCards {
                    guard let cfp = fingerprints[ci], let d = fp.distance(to: cfp), d <= similarityThreshold else { continue }
                    pairs.append((d, abs(ci - si), si, ci))
                }
            }
            pairs.sort { ($0.distance, $0.offset, $0.stored, $0.card) < ($1.distance, $1.offset, $1.stored, $1.card) }
            for p in pairs where !usedStored.contains(p.stored) && !matchedCards.contains(p.card) {
                rematch(p.stored, p.card, distance: p.distance)
            }
        }
        for si in unmatchedStored where !usedStored.contains(si) {
            let s = stored[si]
            diagnostics.append(Diagnostic(.warning, path: path, line: s.line, column: s.column,
                message: "scheduling state for card '\(s.id)' matches no card in this note; kept"))
        }
        return diagnostics
    }
}
