import QuireModel
import QuireSupport

/// The Obsidian spaced-repetition plugin's settings that decide which cards a note holds
/// (`card_syntax: obsidian-sr`, FORMAT.md §3.8), as read from its `data.json`.
public struct ObsidianSRSettings: Sendable, Equatable {
    public var singleLineSeparator = "::"
    public var singleLineReversedSeparator = ":::"
    public var multiLineSeparator = "?"
    public var multiLineReversedSeparator = "??"
    /// When not empty, a line equal to it ends a multi-line or cloze card, and blank lines do not.
    public var multiLineEndMarker = ""
    var clozePatterns: [ObsidianClozePattern] = [ObsidianClozePattern("==[123;;]answer[;;hint]==")].compactMap { $0 }
    /// Tags (with `#`) that make a note a flashcard note.
    public var flashcardTags = ["#flashcards"]
    /// Decks from folders: every note in a folder is read, whatever its tags (and none at the root).
    public var foldersToDecks = false
    /// Paths skipped entirely: a prefix of the note's path or a glob.
    public var ignoredPaths = ["**/*.excalidraw.md"]

    /// The plugin's defaults.
    public init() {}

    /// The settings' source patterns.
    public var clozePatternSources: [String] { clozePatterns.map(\.source) }

    /// Where the plugin keeps its settings, relative to the vault root.
    public static let dataPath = ".obsidian/plugins/obsidian-spaced-repetition/data.json"

    /// Reads the plugin's `data.json` (`{"settings": {…}}`); missing keys keep the defaults.
    /// Problems are warnings located in the file.
    public static func read(_ bytes: [UInt8], path: String) -> (settings: ObsidianSRSettings, diagnostics: [Diagnostic]) {
        var settings = ObsidianSRSettings()
        var diagnostics: [Diagnostic] = []
        func warn(_ message: String) { diagnostics.append(Diagnostic(.warning, path: path, message: message)) }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
        } catch let error as JSONValue.ParseError {
            let loc = SourceText(bytes).location(ofOffset: min(error.offset, bytes.count))
            return (settings, [Diagnostic(.warning, path: path, line: loc.line, column: loc.column,
                                          message: "\(error.message); the plugin's default settings are used")])
        } catch {
            return (settings, [Diagnostic(.warning, path: path, message: "unreadable; the plugin's default settings are used")])
        }
        guard case .object(let top) = root else {
            warn("not a JSON object; the plugin's default settings are used")
            return (settings, diagnostics)
        }
        let fields: [(String, JSONValue)]
        if let inner = top.first(where: { $0.0 == "settings" })?.1, case .object(let values) = inner {
            fields = values
        } else {
            fields = top
        }
        func value(_ key: String) -> JSONValue? { fields.last(where: { $0.0 == key })?.1 }
        func string(_ key: String, _ into: inout String) {
            guard let v = value(key) else { return }
            if case .string(let s) = v { into = s } else { warn("'\(key)' should be a string; the default is used") }
        }
        func strings(_ key: String) -> [String]? {
            guard let v = value(key) else { return nil }
            guard case .array(let items) = v else {
                warn("'\(key)' should be a list of strings; the default is used")
                return nil
            }
            return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        }
        func bool(_ key: String) -> Bool? {
            guard let v = value(key) else { return nil }
            if case .bool(let b) = v { return b }
            warn("'\(key)' should be true or false; the default is used")
            return nil
        }
        string("singleLineCardSeparator", &settings.singleLineSeparator)
        string("singleLineReversedCardSeparator", &settings.singleLineReversedSeparator)
        string("multilineCardSeparator", &settings.multiLineSeparator)
        string("multilineReversedCardSeparator", &settings.multiLineReversedSeparator)
        string("multilineCardEndMarker", &settings.multiLineEndMarker)
        if let tags = strings("flashcardTags") { settings.flashcardTags = tags }
        if let folders = bool("convertFoldersToDecks") { settings.foldersToDecks = folders }
        if let ignored = strings("noteFoldersToIgnore") { settings.ignoredPaths = ignored }
        // The patterns; only when they are missing do the three older switches build them.
        var sources: [String]
        if let given = strings("clozePatterns") {
            sources = given
        } else {
            sources = []
            if bool("convertHighlightsToClozes") ?? true { sources.append("==[123;;]answer[;;hint]==") }
            if bool("convertBoldTextToClozes") ?? false { sources.append("**[123;;]answer[;;hint]**") }
            if bool("convertCurlyBracketsToClozes") ?? false { sources.append("{{[123;;]answer[;;hint]}}") }
        }
        settings.clozePatterns = []
        for source in sources {
            // A pattern is compiled into a matcher whose cost per byte grows with its length.
            if source.utf8.count > 256 {
                warn("cloze pattern '\(source.prefix(40))…' is longer than 256 bytes; ignored")
                continue
            }
            if let pattern = ObsidianClozePattern(source) {
                settings.clozePatterns.append(pattern)
            } else {
                warn("cloze pattern '\(source)' needs 'answer', a number group like [123;;] and a hint group like [;;hint]; ignored")
            }
        }
        return (settings, diagnostics)
    }

    /// A digest of everything that changes which cards are found, for the index cache.
    public var digest: UInt64 {
        var h = SipHash24(k0: 0x6F62_7369_6469_616E, k1: 0)
        for part in [singleLineSeparator, singleLineReversedSeparator, multiLineSeparator, multiLineReversedSeparator,
                     multiLineEndMarker] + clozePatternSources + ["|"] + flashcardTags + ["|"] + ignoredPaths {
            h.combine(part)
            h.combine(byte: 0)
        }
        h.combine(byte: foldersToDecks ? 1 : 0)
        return h.finalize()
    }
}

/// Finds cards the way the Obsidian spaced-repetition plugin does (its line parser of versions
/// 1.13–1.15), bugs included, so that a vault shared with the plugin shows the same cards in both
/// (FORMAT.md §3.8). Pure: a note's lines and the plugin's settings in, cards out.
enum ObsidianCardParser {
    /// What the plugin calls a question: one card text, before it is split into cards.
    enum QuestionType: String, Sendable {
        case singleLineBasic = "SingleLineBasic"
        case singleLineReversed = "SingleLineReversed"
        case multiLineBasic = "MultiLineBasic"
        case multiLineReversed = "MultiLineReversed"
        case cloze = "Cloze"
    }

    struct Question: Equatable {
        var type: QuestionType
        var text: String
        /// 0-based lines of the file.
        var firstLine: Int
        var lastLine: Int
    }

    static let metadataCallout = "> [!sr|card-metadata]"

    /// The most cards one cloze question makes (FORMAT.md §3.8): far more than any note writes by
    /// hand, and a bound on the cards a classic cloze's number alone can ask for.
    static let clozeCardLimit = 1_000

    /// The plugin's line parser over the file's lines (front matter blanked).
    static func questions(_ lines: [String], settings: ObsidianSRSettings, diagnostics: inout [Diagnostic],
                          path: String) -> [Question] {
        var scan = QuestionScan(lines: lines, settings: settings, path: path)
        while scan.i < lines.count { scan.readLine() }
        if let t = scan.type, !scan.text.isEmpty {
            scan.found.append(Question(type: t, text: jsTrimEnd(scan.text), firstLine: scan.first, lastLine: lines.count - 1))
        }
        diagnostics += scan.warnings
        return scan.found
    }

    /// The state of the plugin's line parser as it goes down a note's lines.
    private struct QuestionScan {
        /// The file's lines (front matter blanked).
        let lines: [String]
        let settings: ObsidianSRSettings
        /// The note's path, for the warnings.
        let path: String
        /// The one-line separators, the longer first (the plugin tries them in that order).
        let separators: [(String, QuestionType)]
        /// The questions found so far.
        var found: [Question] = []
        /// The text of the question being read.
        var text = ""
        /// The kind of the question being read, once a line has told it.
        var type: QuestionType?
        /// The 0-based line the question being read starts on.
        var first = 0
        /// The 0-based line read next.
        var i = 0
        /// Where the plugin's reading differs from what the note seems to say.
        var warnings: [Diagnostic] = []

        /// A parser at the top of `lines`.
        init(lines: [String], settings: ObsidianSRSettings, path: String) {
            var separators = [(settings.singleLineSeparator, QuestionType.singleLineBasic),
                              (settings.singleLineReversedSeparator, QuestionType.singleLineReversed)]
            if separators[1].0.utf16.count > separators[0].0.utf16.count { separators.swapAt(0, 1) }
            self.lines = lines
            self.settings = settings
            self.path = path
            self.separators = separators
        }

        /// Records a warning at 0-based line `line`.
        mutating func warn(_ line: Int, _ message: String) {
            warnings.append(Diagnostic(.warning, path: path, line: line + 1, column: 1, message: message))
        }

        /// Reads line `i` and moves on past it (and past the lines it takes with it).
        mutating func readLine() {
            let n = lines.count
            let line = lines[i]
            let trimmedLine = jsTrim(line)
            if line.hasPrefix("<!--"), !line.hasPrefix("<!--SR:") {
                skipComment(line)
                return
            }
            let end = settings.multiLineEndMarker
            let isEmpty = trimmedLine.isEmpty
            if (isEmpty && end.isEmpty) || (isEmpty && type == nil) || (!end.isEmpty && trimmedLine == end) {
                if let t = type {
                    found.append(Question(type: t, text: jsTrimEnd(text), firstLine: first, lastLine: i - 1))
                    type = nil
                }
                text = ""
                first = i + 1
                i += 1
                return
            }
            if !text.isEmpty { text += "\n" }
            text += jsTrimEnd(line)
            let before = type
            for (separator, kind) in separators where hasInlineMarker(line, separator) {
                type = kind
                break
            }
            if type == .singleLineBasic || type == .singleLineReversed, let t = type {
                addSingleLine(t, line: line, replacing: before)
            } else if trimmedLine == settings.multiLineSeparator {
                if text.utf16.count > 1 { type = .multiLineBasic }
            } else if trimmedLine == settings.multiLineReversedSeparator {
                if text.utf16.count > 1 { type = .multiLineReversed }
            } else if line.hasPrefix("```") || line.hasPrefix("~~~") {
                let fenceByte = line.utf8.first ?? UInt8(ascii: "`")
                let fence = String(decoding: line.utf8.prefix(while: { $0 == fenceByte }), as: UTF8.self)
                while i + 1 < n, !lines[i + 1].hasPrefix(fence) {
                    i += 1
                    text += "\n" + lines[i]
                }
                text += "\n" + fence
                i += 1
            } else if type == nil, settings.clozePatterns.contains(where: { $0.matchesAny(Array(line.utf8)[...]) }) {
                type = .cloze
            }
            i += 1
        }

        /// Skips an HTML comment line as the plugin does: with the line after it, or, when the
        /// comment does not close on its line, with the rest of the note.
        mutating func skipComment(_ line: String) {
            let n = lines.count
            if line.contains("-->") {
                if i + 1 < n, hasCardSyntax(lines[i + 1], settings) {
                    warn(i + 1, "the Obsidian spaced-repetition plugin skips the line after a one-line HTML comment; no card made (as in the plugin)")
                }
                i += 2
            } else {
                if (i + 1..<n).contains(where: { hasCardSyntax(lines[$0], settings) }) {
                    warn(i, "the Obsidian spaced-repetition plugin reads nothing after an HTML comment that opens on this line and closes on a later one; the cards below are not made (as in the plugin)")
                }
                i = n + 1
            }
        }

        /// Adds the one-line question on line `i`, with its scheduling comment or metadata callout
        /// below it; the multi-line or cloze question read before it (`replacing`) is dropped.
        mutating func addSingleLine(_ t: QuestionType, line: String, replacing before: QuestionType?) {
            let n = lines.count
            if let dropped = before, dropped == .multiLineBasic || dropped == .multiLineReversed || dropped == .cloze {
                warn(first, "the Obsidian spaced-repetition plugin drops this card because line \(i + 1) holds '\(t == .singleLineBasic ? settings.singleLineSeparator : settings.singleLineReversedSeparator)' (as in the plugin)")
            }
            text = line
            first = i
            if i + 1 < n, lines[i + 1].hasPrefix("<!--SR:") {
                text += "\n" + lines[i + 1]
                i += 1
            } else if i + 1 < n, lines[i + 1].hasPrefix(metadataCallout) {
                for j in (i + 1)..<n {
                    text += "\n" + lines[j]
                    i += 1
                    if lines[j].contains("<!--SR:") { break }
                }
            }
            found.append(Question(type: t, text: text, firstLine: first, lastLine: i))
            type = nil
            text = ""
        }
    }

    /// Whether the first occurrence of `marker` in `text` is outside inline code (an odd number
    /// of backticks on both sides of it is inside).
    static func hasInlineMarker(_ text: String, _ marker: String) -> Bool {
        guard !marker.isEmpty else { return false }
        let bytes = Array(text.utf8), m = Array(marker.utf8)
        guard let at = ByteSearch.firstOffset(of: m, in: bytes) else { return false }
        let before = bytes[..<at].filter { $0 == UInt8(ascii: "`") }.count
        let after = bytes[(at + m.count)...].filter { $0 == UInt8(ascii: "`") }.count
        return !(before % 2 == 1 && after % 2 == 1)
    }

    /// Whether a line would make (part of) a card, for the warnings about lines the plugin skips.
    private static func hasCardSyntax(_ line: String, _ settings: ObsidianSRSettings) -> Bool {
        hasInlineMarker(line, settings.singleLineSeparator) || hasInlineMarker(line, settings.singleLineReversedSeparator)
            || settings.clozePatterns.contains { $0.matchesAny(Array(line.utf8)[...]) }
    }

    // MARK: - Whole notes

    /// The cards of a note in the plugin's syntax.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - tags: the note's tags as written (front matter and inline, without `#`).
    static package func cards(in bytes: [UInt8], path: String, tags: [String], settings: ObsidianSRSettings,
                      headingPath: [String] = []) -> (cards: [Card], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        if settings.ignoredPaths.contains(where: { path.hasPrefix($0) || Glob($0).matches(path) }) { return ([], []) }
        if settings.foldersToDecks {
            guard path.contains("/") else { return ([], []) }
        } else {
            let selected = tags.contains { tag in
                settings.flashcardTags.contains { flashcard in
                    let name = "#" + tag
                    return name == flashcard || name.hasPrefix(flashcard + "/")
                }
            }
            guard selected else { return ([], []) }
        }
        let source = SourceText(bytes)
        var lines: [String] = []
        lines.reserveCapacity(source.lineCount)
        for line in 1...max(1, source.lineCount) where line <= source.lineCount {
            lines.append(String(decoding: bytes[source.lineRange(line)], as: UTF8.self))
        }
        if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0].removeFirst() }
        // Front matter: blanked, so its lines never join a card and line numbers stay.
        if lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") {
            for i in 0...close { lines[i] = "" }
        }
        var cards: [Card] = []
        for question in questions(lines, settings: settings, diagnostics: &diagnostics, path: path) {
            cards += expand(question, settings: settings, headingPath: headingPath, diagnostics: &diagnostics, path: path)
        }
        return (cards, diagnostics)
    }

    /// Splits a question into its cards, its text stripped of its schedule comment, leading deck
    /// tag and block ID. A cloze question past the budget makes no cards and an error at its
    /// first line instead.
    static func expand(_ question: Question, settings: ObsidianSRSettings, headingPath: [String],
                       diagnostics: inout [Diagnostic], path: String) -> [Card] {
        let (text, blockID) = strip(question.text)
        let lines = (question.firstLine + 1)...(question.lastLine + 1)
        let explicit = blockID.flatMap { CardID(String($0.dropFirst())) }
        func card(_ kind: CardKind, _ variant: CardVariant, _ front: String, _ back: String, identity: String = "",
                  id: CardID?) -> Card {
            Card(id: id ?? .unassigned, kind: kind, variant: variant, front: front, back: back, lines: lines, column: 1,
                 headingPath: headingPath, identityText: identity, hasExplicitID: id != nil)
        }
        switch question.type {
        case .singleLineBasic, .singleLineReversed:
            let reversed = question.type == .singleLineReversed
            let separator = reversed ? settings.singleLineReversedSeparator : settings.singleLineSeparator
            let bytes = Array(text.utf8)
            guard let at = ByteSearch.firstOffset(of: Array(separator.utf8), in: bytes) else { return [] }
            let front = String(decoding: bytes[..<at], as: UTF8.self).trimmingSpaces()
            let back = String(decoding: bytes[(at + separator.utf8.count)...], as: UTF8.self).trimmingSpaces()
            if reversed {
                return [card(.reversed, .forward, front, back, id: explicit),
                        card(.reversed, .backward, back, front, id: explicit?.suffixed("r"))]
            }
            return [card(front.hasSuffix("?") ? .basic : .definition, .single, front, back, id: explicit)]
        case .multiLineBasic, .multiLineReversed:
            let reversed = question.type == .multiLineReversed
            let separator = reversed ? settings.multiLineReversedSeparator : settings.multiLineSeparator
            let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard let at = parts.firstIndex(where: { jsTrim(String($0)) == separator }) else { return [] }
            let front = parts[..<at].joined(separator: "\n"), back = parts[(at + 1)...].joined(separator: "\n")
            if reversed {
                return [card(.reversed, .forward, front, back, id: explicit),
                        card(.reversed, .backward, back, front, id: explicit?.suffixed("r"))]
            }
            return [card(.basic, .single, front, back, id: explicit)]
        case .cloze:
            // Each cloze card repeats the question: past a budget linear in its size, none (as for
            // Quire's own cloze groups, FORMAT.md §3.4). The deletions are found once, for the
            // budget and for the cards.
            let scan = ClozeScan(text, settings: settings)
            let count = scan.count
            // A classic cloze's count is the highest number written (`==995108448976298893;;…`):
            // a product past Int's range is past any budget, and a short question with a big
            // number (`==92222;;x==`) is within the budget in bytes but not in cards.
            let bytes = question.text.utf8.count
            let (cost, overflow) = count.multipliedReportingOverflow(by: bytes)
            let excess: String? = overflow ? "more cards than memory holds"
                : cost > CardExtractor.clozeBudget(paragraphBytes: bytes) ? "\(cost >> 20) MB of cards"
                : count > clozeCardLimit ? "more than the \(clozeCardLimit) cards one question may make" : nil
            if let excess {
                diagnostics.append(Diagnostic(.error, path: path, line: question.firstLine + 1, column: 1,
                    message: "\(count) cloze cards in a question of \(bytes) bytes would make \(excess); no cards made from it (split it)"))
                return []
            }
            let identity = CardID.normalizeIdentityText(text)
            return clozeCards(scan).enumerated().map { index, sides in
                card(.cloze, .cloze(index + 1), sides.front, sides.back, identity: identity,
                     id: explicit?.suffixed("c\(index + 1)"))
            }
        }
    }

    /// Removes scheduling comments, a leading tag (the question's deck in the plugin) and a
    /// trailing block ID; returns the text and the block ID (with `^`).
    static func strip(_ raw: String) -> (text: String, blockID: String?) {
        // `<!--SR:` to the last `-->` of the same line.
        var lines: [String] = []
        let open = Array("<!--SR:".utf8)
        for line in raw.split(separator: "\n", omittingEmptySubsequences: false) {
            var bytes = Array(line.utf8)
            if let start = ByteSearch.firstOffset(of: open, in: bytes) {
                // The last `-->` of the line, with at least one byte after `<!--SR:`.
                var end: Int?
                var k = bytes.count - 3
                while k > start + open.count {
                    if bytes[k] == UInt8(ascii: "-"), bytes[k + 1] == UInt8(ascii: "-"), bytes[k + 2] == UInt8(ascii: ">") {
                        end = k + 3
                        break
                    }
                    k -= 1
                }
                if let end { bytes.removeSubrange(start..<end) }
            }
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        let noSchedule = lines.joined(separator: "\n")
        var text = jsTrimEnd(noSchedule)
        let leading = noSchedule.drop { $0.isWhitespace }
        if leading.first == "#", let tagEnd = leading.dropFirst().firstIndex(where: { $0.isWhitespace || $0 == "#" }).map({ $0 }) ?? Optional(leading.endIndex),
           tagEnd > leading.index(after: leading.startIndex) {
            text = jsTrimEnd(String(leading[tagEnd...].drop { $0.isWhitespace }))
        }
        // ` ^id` at the very end.
        var blockID: String?
        if let caret = text.lastIndex(of: "^"), caret > text.startIndex,
           text[text.index(before: caret)] == " ",
           text[text.index(after: caret)...].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
           text.index(after: caret) < text.endIndex {
            blockID = String(text[caret...])
            text = jsTrimEnd(String(text[..<text.index(before: caret)]))
        }
        return (text, blockID)
    }

    /// A cloze question's lines and the deletions of the highest-priority kind in them.
    struct ClozeScan {
        let lines: [[UInt8]]
        let kind: ObsidianClozePattern.Kind?
        let deletions: [(line: Int, match: ObsidianClozePattern.Match)]
        /// How many cards the question makes.
        let count: Int

        init(_ text: String, settings: ObsidianSRSettings) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
            (kind, deletions, count) = ObsidianCardParser.clozeDeletions(lines, settings: settings)
        }
    }

    /// The cards of a cloze question: the plugin's cloze library counts deletions of the highest-
    /// priority kind present (classic > overlapping > simple).
    static func clozeCards(_ scan: ClozeScan) -> [(front: String, back: String)] {
        let (lines, deletions, count) = (scan.lines, scan.deletions, scan.count)
        guard let kind = scan.kind, count > 0 else { return [] }
        func sequence(_ d: (line: Int, match: ObsidianClozePattern.Match)) -> [UInt8] {
            d.match.sequence.map { Array(lines[d.line][$0]) } ?? []
        }
        // The deletions of each line, in order, with their number in the question.
        var byLine = [[(number: Int, deletion: (line: Int, match: ObsidianClozePattern.Match))]](repeating: [], count: lines.count)
        for (number, d) in deletions.enumerated() { byLine[d.line].append((number, d)) }
        for i in byLine.indices { byLine[i].sort { $0.deletion.match.range.lowerBound < $1.deletion.match.range.lowerBound } }
        // Deletions never overlap within a line of one pattern; across patterns the first wins.
        func render(card: Int?) -> String {
            var out: [String] = []
            for (index, line) in lines.enumerated() {
                let here = byLine[index]
                var result: [UInt8] = []
                var cursor = 0
                for (number, d) in here where d.match.range.lowerBound >= cursor {
                    result += line[cursor..<d.match.range.lowerBound]
                    let hidden: Bool
                    if let card {
                        switch kind {
                        case .simple: hidden = number == card
                        case .classic: hidden = Int(String(decoding: sequence(d), as: UTF8.self)) == card + 1
                        case .overlapping:
                            let s = sequence(d)
                            hidden = card < s.count ? s[card] != UInt8(ascii: "s") : true
                        }
                    } else {
                        hidden = false
                    }
                    if hidden {
                        result += Array("[".utf8) + (d.match.hint.map { Array(line[$0]) } ?? Array("...".utf8)) + Array("]".utf8)
                    } else {
                        result += line[d.match.answer]
                    }
                    cursor = d.match.range.upperBound
                }
                result += line[cursor...]
                out.append(String(decoding: result, as: UTF8.self))
            }
            return out.joined(separator: "\n")
        }
        let back = render(card: nil)
        return (0..<count).map { (render(card: $0), back) }
    }

    /// The deletions of the highest-priority kind in a cloze question, and how many cards they make.
    static func clozeDeletions(_ lines: [[UInt8]], settings: ObsidianSRSettings)
        -> (kind: ObsidianClozePattern.Kind?, deletions: [(line: Int, match: ObsidianClozePattern.Match)], count: Int) {
        var kind: ObsidianClozePattern.Kind?
        for pattern in settings.clozePatterns {
            for candidate in ObsidianClozePattern.Kind.allCases where kind.map({ candidate < $0 }) ?? true {
                if lines.contains(where: { !pattern.matches(candidate, in: $0[...]).isEmpty }) { kind = candidate }
            }
        }
        guard let kind else { return (nil, [], 0) }
        // Every deletion of that kind: (line, match); simple ones in pattern order, then text order.
        var deletions: [(line: Int, match: ObsidianClozePattern.Match)] = []
        for pattern in settings.clozePatterns {
            for (index, line) in lines.enumerated() {
                for match in pattern.matches(kind, in: line[...]) { deletions.append((index, match)) }
            }
        }
        func sequence(_ d: (line: Int, match: ObsidianClozePattern.Match)) -> [UInt8] {
            d.match.sequence.map { Array(lines[d.line][$0]) } ?? []
        }
        let count: Int
        switch kind {
        case .simple: count = deletions.count
        case .classic: count = deletions.map { Int(String(decoding: sequence($0), as: UTF8.self)) ?? 0 }.max() ?? 0
        case .overlapping: count = deletions.map { sequence($0).count }.max() ?? 0
        }
        return (kind, deletions, count)
    }

    // MARK: - JavaScript's trim

    private static func isJSSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    static func jsTrim(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isJSSpace($0) }),
              let end = scalars.lastIndex(where: { !isJSSpace($0) }) else { return "" }
        return String(scalars[start...end])
    }

    static func jsTrimEnd(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let end = scalars.lastIndex(where: { !isJSSpace($0) }) else { return "" }
        return String(scalars[...end])
    }
}
