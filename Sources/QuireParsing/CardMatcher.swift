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
        var diagnostics = giveIDs(&cards, path: path)
        guard !stored.isEmpty else { return diagnostics }

        // 1. Same ID.
        var matching = StoredMatching(stored: stored, path: path)
        matching.matchIDs(&cards)
        guard !matching.unmatchedStored.isEmpty else { return diagnostics }

        // 2. Equal fingerprints (a moved file, reordered cards), then 3. similar ones.
        matching.matchFingerprints(&cards)
        diagnostics += matching.diagnostics
        return diagnostics
    }

    /// Gives each card without an explicit ID its derived ID, and reports an explicit ID used twice.
    private static func giveIDs(_ cards: inout [Card], path: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seenExplicit: [CardID: Int] = [:]
        var deriver = IDDeriver(path: path, expected: cards.count)
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
            let id = deriver.nextID(for: cards, at: i)
            cards[i].id = id
        }
        return diagnostics
    }

    /// Derives the IDs of one note's cards, in order, so that identical cards get distinct IDs.
    private struct IDDeriver {
        /// The hash state after the note's path.
        let seed: SipHash24
        /// Derived IDs already given; an identical earlier card pushes the occurrence number up.
        var derived: SmallSet<UInt64>
        /// By kind and variant: a note can hold thousands of cloze numbers (one variant each), so a
        /// list searched per card would make the note's cards cost their count squared.
        var prefixes: [PrefixKey: SipHash24] = [:]
        /// By an identity's first derived hash, the occurrence number its next identical card tries.
        var nextOccurrence: [UInt64: Int] = [:]

        /// A deriver for the note at `path` with about `expected` cards.
        init(path: String, expected: Int) {
            seed = CardID.derivationSeed(path: path)
            derived = SmallSet<UInt64>(expected: expected)
        }

        /// The hash state after kind and variant, the same for every card that shares them.
        mutating func prefix(kind: CardKind, variant: CardVariant) -> SipHash24 {
            if let known = prefixes[PrefixKey(kind: kind, variant: variant)] { return known }
            let prefix = CardID.derivationPrefix(seed: seed, kind: kind, variant: variant.identityText)
            prefixes[PrefixKey(kind: kind, variant: variant)] = prefix
            return prefix
        }

        /// The derived ID of `cards[i]`: occurrence 0, or the next occurrence number free.
        mutating func nextID(for cards: [Card], at i: Int) -> CardID {
            let prefix = prefix(kind: cards[i].kind, variant: cards[i].variant)
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
            return CardID(derivedHash: hash)
        }
    }

    /// Matches a note's stored scheduling lines to its cards, which already have their IDs.
    private struct StoredMatching {
        /// The stored lines, in the order of the front matter.
        let stored: [StoredLine]
        /// The note's path, for the diagnostics.
        let path: String
        /// The indices of the cards given a stored line.
        var matchedCards = Set<Int>()
        /// The indices of the stored lines whose ID no card has.
        var unmatchedStored: [Int] = []
        /// The indices of the stored lines re-matched by fingerprint.
        var usedStored = Set<Int>()
        /// The re-matches worth a note and the lines matched to no card.
        var diagnostics: [Diagnostic] = []

        /// Gives each card the stored line with its ID; collects the lines left over.
        mutating func matchIDs(_ cards: inout [Card]) {
            var cardIndexByID: [CardID: Int] = [:]
            for (i, c) in cards.enumerated() where cardIndexByID[c.id] == nil { cardIndexByID[c.id] = i }
            for (si, s) in stored.enumerated() {
                if let ci = cardIndexByID[s.id], !matchedCards.contains(ci) {
                    cards[ci].schedule = s.state
                    matchedCards.insert(ci)
                } else {
                    unmatchedStored.append(si)
                }
            }
        }

        /// Matches the lines left over to cards whose ID is not their own by equal fingerprints, then
        /// by similar ones; warns about each line still left.
        mutating func matchFingerprints(_ cards: inout [Card]) {
            let candidates = cards.indices.filter { !matchedCards.contains($0) && !cards[$0].hasExplicitID }
            var fingerprints: [Int: Fingerprint] = [:]
            var byFingerprint: [UInt64: [Int]] = [:]
            for ci in candidates {
                let fp = cards[ci].fingerprint
                fingerprints[ci] = fp
                byFingerprint[fp.bits, default: []].append(ci)
            }
            for si in unmatchedStored {
                guard let fp = stored[si].state.fingerprint, let same = byFingerprint[fp.bits] else { continue }
                // Of several cards with the same fingerprint, the one nearest the line's position.
                if let ci = same.filter({ !matchedCards.contains($0) }).min(by: { abs($0 - si) < abs($1 - si) }) {
                    rematch(si, ci, distance: 0, in: &cards)
                }
            }
            matchSimilar(&cards, candidates: candidates, fingerprints: fingerprints)
            for si in unmatchedStored where !usedStored.contains(si) {
                let s = stored[si]
                diagnostics.append(Diagnostic(.warning, path: path, line: s.line, column: s.column,
                    message: "scheduling state for card '\(s.id)' matches no card in this note; kept"))
            }
        }

        /// Matches the lines left over to the cards left over whose fingerprints differ by at most
        /// ``CardMatcher/similarityThreshold`` bits, nearest pairs first.
        mutating func matchSimilar(_ cards: inout [Card], candidates: [Int], fingerprints: [Int: Fingerprint]) {
            let leftStored = unmatchedStored.filter { !usedStored.contains($0) && stored[$0].state.fingerprint != nil }
            let leftCards = candidates.filter { !matchedCards.contains($0) }
            // Comparing every pair is quadratic; a note with that many orphaned lines gets exact matches only.
            guard !leftStored.isEmpty, leftStored.count * leftCards.count <= 1_000_000 else { return }
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
                rematch(p.stored, p.card, distance: p.distance, in: &cards)
            }
        }

        /// Gives card `ci` the ID and state of stored line `si`, with a note when its text was edited.
        mutating func rematch(_ si: Int, _ ci: Int, distance: Int, in cards: inout [Card]) {
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
    }
}
