import QuireModel
import QuireParsing
import QuireYAML

/// A three-way merge of one note (the git merge driver, FORMAT.md §6.3): the user's text — body and
/// front-matter keys — by git's rules, the scheduling lines by the review log.
///
/// Each version's `quire:` block is taken out and a placeholder line put where it was (or, in a
/// version without one, where the writer would add it), so that git's text merge never sees two
/// devices' scheduling lines side by side and never conflicts on them. Each card's line is then
/// chosen apart: the same on both sides, or changed on one side only, it is that side's; changed on
/// both (the card was reviewed on both devices), it is what `replay` gives from the review logs of
/// both. The merged lines go back where the placeholder ended up.
///
/// Pure: the text merge (git's `merge-file`) and the replay come in as functions.
public enum NoteMerge {
    /// What the merge gives.
    public struct Outcome: Sendable {
        /// The merged note.
        public var bytes: [UInt8]
        /// Whether the user's text has conflict markers left for the user to resolve.
        public var hasConflicts: Bool
        /// The cards changed on both sides, whose line the replay set.
        public var replayedCards: [CardID]
        /// Cards changed on both sides whose line could not be replayed (no event in the logs):
        /// the line with the later review was kept. `quire check` reports what is left.
        public var unreplayedCards: [CardID]
    }

    /// A card's scheduling line in each version, decoded.
    public struct Sides: Sendable {
        public var base: SchedulingState?
        public var ours: SchedulingState?
        public var theirs: SchedulingState?
    }

    /// The placeholder's value: a plain scalar no note holds.
    static let placeholderValue = "quire-merge-placeholder-7f3a9c"

    /// Merges `theirs` and `ours` from `base`; nil when a version's front matter cannot be read
    /// (the caller merges the whole text instead, as git would).
    ///
    /// - Parameters:
    ///   - mergeText: git's three-way text merge of (base, ours, theirs): the merged bytes and
    ///     whether conflicts were left; nil when it failed.
    ///   - replay: the state the review logs of both sides give a card, or nil when they hold no
    ///     event of it.
    public static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8],
                             mergeText: ([UInt8], [UInt8], [UInt8]) -> (bytes: [UInt8], conflicts: Bool)?,
                             replay: (CardID, Sides) -> SchedulingState?) -> Outcome? {
        guard let o = Split(base), let a = Split(ours), let b = Split(theirs) else { return nil }
        let anyBlock = o.entries != nil || a.entries != nil || b.entries != nil
        guard anyBlock else {
            return mergeText(base, ours, theirs).map { Outcome(bytes: $0.bytes, hasConflicts: $0.conflicts,
                                                              replayedCards: [], unreplayedCards: []) }
        }
        guard let merged = mergeText(o.withPlaceholder, a.withPlaceholder, b.withPlaceholder) else { return nil }

        // The lines: ours' order, then cards only theirs has.
        let baseLines = o.lines, ourLines = a.lines, theirLines = b.lines
        var order = (a.entries ?? []).map(\.key)
        for entry in b.entries ?? [] where ourLines[entry.key] == nil { order.append(entry.key) }
        var lines: [(key: String, text: String)] = []
        var replayed: [CardID] = [], unreplayed: [CardID] = []
        for key in order {
            let mine = ourLines[key], other = theirLines[key], old = baseLines[key]
            let chosen: String?
            if mine?.text == other?.text {
                chosen = mine?.text
            } else if mine?.text == old?.text {
                chosen = other?.text
            } else if other?.text == old?.text {
                chosen = mine?.text
            } else if let id = CardID(key) {
                let sides = Sides(base: old?.state, ours: mine?.state, theirs: other?.state)
                if let state = replay(id, sides) {
                    chosen = SchedulingLine.encode(state).yamlText()
                    replayed.append(id)
                } else {
                    // No event to replay (lines edited by hand): the later review wins.
                    let mineLast = mine?.state?.lastReview, otherLast = other?.state?.lastReview
                    chosen = (otherLast ?? .init(milliseconds: .min)) > (mineLast ?? .init(milliseconds: .min))
                        ? other?.text : mine?.text
                    unreplayed.append(id)
                }
            } else {
                chosen = mine?.text ?? other?.text
            }
            if let chosen { lines.append((key, chosen)) }
        }

        let eol = a.lineEnding
        let indent = a.indent ?? b.indent ?? o.indent ?? "  "
        // A blank line between lines, as the writer keeps them (FORMAT.md §5); the blank line after
        // the last one stays in the text around the placeholder.
        let block = lines.isEmpty ? [] : Array(("\(SchedulingLine.key):" + eol
            + lines.map { indent + $0.key + ": " + $0.text + eol }.joined(separator: eol)).utf8)
        return Outcome(bytes: substitute(block, into: merged.bytes), hasConflicts: merged.conflicts,
                       replayedCards: replayed, unreplayedCards: unreplayed)
    }

    /// Puts `block` in place of the first placeholder line and drops any other (a conflict can
    /// leave one on each side); when none is left, the block goes at the end of the front matter.
    static func substitute(_ block: [UInt8], into text: [UInt8]) -> [UInt8] {
        let marker = Array((SchedulingLine.key + ": " + placeholderValue).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count + block.count)
        var placed = false
        for line in lineRanges(of: text) {
            var content = text[line]
            while let last = content.last, last == 0x0A || last == 0x0D { content = content.dropLast() }
            if content.elementsEqual(marker) {
                if !placed { out += block }
                placed = true
            } else {
                out += text[line]
            }
        }
        if !placed, !block.isEmpty, let split = Split(out) {
            return split.inserting(block)
        }
        return out
    }
}

/// One version of a note with its scheduling block taken out.
private struct Split {
    /// The file with the block's lines replaced by the placeholder line (or the placeholder added
    /// where the writer would put a new block).
    var withPlaceholder: [UInt8]
    /// The block's entries as written, or nil when the version has no block.
    var entries: [(key: String, text: String, value: YAMLNode)]?
    /// The entries' indentation in the block.
    var indent: String?
    var lineEnding: String
    private var file: [UInt8]
    private var frontMatter: FrontMatter

    init?(_ file: [UInt8]) {
        guard let editor = try? FrontMatterEditor(file: file) else { return nil }
        self.file = file
        frontMatter = editor.frontMatter
        lineEnding = editor.frontMatter.lineEnding == .crlf ? "\r\n" : "\n"
        let placeholder = Array((SchedulingLine.key + ": " + NoteMerge.placeholderValue + lineEnding).utf8)
        let found: Range<Int>?
        do { found = try editor.lines(ofTopLevelKey: SchedulingLine.key) } catch { return nil }
        if let range = found {
            entries = (try? editor.entriesAsWritten(under: SchedulingLine.key)) ?? []
            if let first = entries?.first, let keyStart = Self.keyStart(first.key, in: file, range) {
                var lineStart = keyStart
                while lineStart > range.lowerBound, file[lineStart - 1] != 0x0A { lineStart -= 1 }
                indent = String(decoding: file[lineStart..<keyStart], as: UTF8.self)
            }
            withPlaceholder = Array(file[..<range.lowerBound]) + placeholder + Array(file[range.upperBound...])
        } else {
            withPlaceholder = []
            withPlaceholder = inserting(placeholder)
        }
    }

    /// Where entry `key` starts in the block's lines.
    private static func keyStart(_ key: String, in file: [UInt8], _ range: Range<Int>) -> Int? {
        let needle = Array(key.utf8)
        var i = range.lowerBound
        // Skip the block's own key line.
        while i < range.upperBound, file[i] != 0x0A { i += 1 }
        while i < range.upperBound {
            let lineStart = i + 1
            var k = lineStart
            while k < range.upperBound, file[k] == 0x20 || file[k] == 0x09 { k += 1 }
            if k + needle.count <= range.upperBound, file[k..<(k + needle.count)].elementsEqual(needle) { return k }
            i = lineStart
            while i < range.upperBound, file[i] != 0x0A { i += 1 }
        }
        return nil
    }

    /// The file with `lines` added as the front matter's last lines (or as a new front matter).
    func inserting(_ lines: [UInt8]) -> [UInt8] {
        if let closing = frontMatter.closingFenceRange {
            var at = closing.lowerBound
            while at > 0, file[at - 1] != 0x0A { at -= 1 }
            return Array(file[..<at]) + lines + Array(file[at...])
        }
        let bom = frontMatter.hasBOM ? 3 : 0
        let fence = Array(("---" + lineEnding).utf8)
        return Array(file[..<bom]) + fence + lines + fence + Array(file[bom...])
    }

    /// Each entry's text and decoded state, by card ID as written.
    var lines: [String: (text: String, state: SchedulingState?)] {
        var found: [String: (text: String, state: SchedulingState?)] = [:]
        for entry in entries ?? [] {
            found[entry.key] = (entry.text, SchedulingLine.decode(entry.value).state)
        }
        return found
    }
}
