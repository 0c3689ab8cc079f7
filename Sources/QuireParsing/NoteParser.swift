import QuireMarkdown
import QuireModel
import QuireYAML
import QuireSupport

/// Reads one note file: front matter, cards, tags and stored scheduling state (FORMAT.md §2–§5).
///
/// Pure: bytes and the note's relative path in, a ``Note`` (or nothing) and diagnostics out.
public enum NoteParser {
    /// How many leading bytes are checked for a NUL to tell binary files apart.
    static let binaryProbeLength = 8192

    /// Parses a note.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - path: the note's path relative to the vault root, `/`-separated.
    /// - Returns: the note, or nil when the file cannot be read as a note (binary, invalid UTF-8,
    ///   broken front matter); the diagnostics say why.
    public static func parse(_ bytes: [UInt8], path: String, syntax: CardSyntax = .quire)
        -> (note: Note?, diagnostics: [Diagnostic]) {
        let parsed = parseForEditing(bytes, path: path, syntax: syntax)
        return (parsed.note, parsed.diagnostics)
    }

    /// The digest stored in ``Note/contentDigest``: ``Checksum64`` (one multiply per eight bytes;
    /// a change confined to eight aligned bytes always changes it). It tells whether a file still
    /// holds the bytes a note was made from; nothing adversarial depends on it.
    public static func contentDigest(_ bytes: [UInt8]) -> UInt64 {
        Checksum64.of(bytes)
    }

    /// Parses a note and also returns its parsed front matter, for an editor to start from.
    static package func parseForEditing(_ bytes: [UInt8], path: String, syntax: CardSyntax = .quire)
        -> (note: Note?, frontMatter: FrontMatter?, diagnostics: [Diagnostic]) {
        let frontMatter: FrontMatter
        let source: SourceText
        do {
            try checkReadable(bytes, path: path)
            frontMatter = try readFrontMatter(bytes, path: path)
            source = SourceText(bytes)
            try checkBodyLimits(bytes, frontMatter: frontMatter, source: source, path: path)
        } catch {
            return (nil, nil, [error.diagnostic])
        }
        var body = scanBody(bytes, frontMatter: frontMatter, source: source, path: path)
        var keys = KeyReader(root: frontMatter.root, path: path)
        if case .quire = syntax { keys.diagnostics += body.diagnostics }

        // Title and deck.
        let title = keys.string("title") ?? body.firstTitle ?? fileStem(path)
        let deck = keys.namedDeck() ?? folderDeck(path)

        // Tags: front matter, then inline.
        let tags = keys.tags(inline: body.inlineTags)
        if case .obsidianSR(let settings) = syntax {
            let found = ObsidianCardParser.cards(in: bytes, path: path, tags: tags.map(\.name), settings: settings)
            body.cards = found.cards
            keys.diagnostics += found.diagnostics
        }

        var note = Note(path: path, title: title, deck: deck, tags: tags, byteCount: bytes.count)
        keys.readPlainKeys(into: &note)
        let stored = keys.storedLines()
        var diagnostics = keys.diagnostics
        // Moved out, so that giving the cards their IDs does not copy the array.
        var cards = body.cards
        body.cards = []
        diagnostics += CardMatcher.assign(&cards, stored: stored, path: path)
        dropSpareCapacity(&cards)

        note.cards = cards
        note.contentDigest = contentDigest(bytes)
        return (note, frontMatter, diagnostics)
    }

    // MARK: - Refusing a file

    /// Why a file is not read as a note: the one error that says so.
    private struct Refusal: Error {
        /// The error, located, ending in "; file skipped" or "; skipped".
        let diagnostic: Diagnostic
    }

    /// Refuses a binary file, one that is not valid UTF-8, and one holding a merge conflict.
    private static func checkReadable(_ bytes: [UInt8], path: String) throws(Refusal) {
        let hasNUL = bytes.withUnsafeBytes { buf in
            buf.baseAddress.map { RawBytes.first(0, in: $0, count: min(buf.count, binaryProbeLength)) != nil } ?? false
        }
        if hasNUL {
            throw Refusal(diagnostic: Diagnostic(.error, path: path, message: "binary file (contains NUL bytes); skipped"))
        }
        if let bad = firstInvalidUTF8(bytes) {
            let loc = SourceText(bytes).location(ofOffset: bad)
            throw Refusal(diagnostic: Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                                                 message: "invalid UTF-8; file skipped"))
        }
        if let conflict = mergeConflict(in: bytes) {
            throw Refusal(diagnostic: Diagnostic(.error, path: path, line: conflict.lowerBound, column: 1,
                                                 message: mergeConflictMessage(conflict) + "; file skipped"))
        }
    }

    /// The note's front matter, refused when it is not YAML or repeats a key.
    private static func readFrontMatter(_ bytes: [UInt8], path: String) throws(Refusal) -> FrontMatter {
        let frontMatter: FrontMatter
        do {
            frontMatter = try FrontMatter(file: bytes)
        } catch {
            // `date: {{date}}`, a template's placeholder, is a YAML mapping in a mapping: say so.
            let at = error.mark.offset
            let brace = UInt8(ascii: "{")
            let placeholder = at >= 0 && at < bytes.count && bytes[at] == brace
                && (at > 0 && bytes[at - 1] == brace || at + 1 < bytes.count && bytes[at + 1] == brace)
            throw Refusal(diagnostic: Diagnostic(.error, path: path, line: error.mark.line, column: error.mark.column,
                                     message: error.message + (placeholder ? " ('{{' opens a YAML mapping: quote a template's "
                                        + "placeholder, as in '{{date}}', or leave its folder out: ignore: in .quire/config.yaml)" : "") + "; file skipped"))
        }
        if let root = frontMatter.root, let (duplicate, first) = YAMLNode.mapping(root).firstDuplicateKey() {
            let error = YAMLError.duplicateKey(key: duplicate.value, at: duplicate.start, firstAt: first.start)
            throw Refusal(diagnostic: Diagnostic(.error, path: path, line: duplicate.start.line, column: duplicate.start.column,
                                                 message: error.message + "; file skipped"))
        }
        return frontMatter
    }

    /// Refuses a body with shapes whose cost in cmark grows faster than their size.
    private static func checkBodyLimits(_ bytes: [UInt8], frontMatter: FrontMatter, source: SourceText,
                                        path: String) throws(Refusal) {
        if let excess = bytes.withUnsafeBufferPointer({ buf in
            MarkdownLimits.firstExcess(in: UnsafeBufferPointer(rebasing: buf[frontMatter.bodyRange]))
        }) {
            let loc = source.location(ofOffset: frontMatter.bodyRange.lowerBound + excess.offset)
            throw Refusal(diagnostic: Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                                                 message: excess.message + "; file skipped"))
        }
    }

    // MARK: - Reading the body and the keys

    /// Parses the body as Markdown and scans it for cards, titles and inline tags.
    private static func scanBody(_ bytes: [UInt8], frontMatter: FrontMatter, source: SourceText, path: String) -> BodyScan {
        func parseBody(_ options: MarkdownParseOptions) -> MarkdownDocument {
            bytes.withUnsafeBufferPointer { buf in
                MarkdownDocument(parsing: UnsafeBufferPointer(rebasing: buf[frontMatter.bodyRange]),
                                 options: options, lineOffset: frontMatter.bodyStartLine - 1)
            }
        }
        var document = parseBody(.indexing)
        // The indexing parse leaves strikethrough out; it changes only a heading's plain text.
        if headingHoldsTilde(document, source: source) { document = parseBody(.indexing.union(.strikethrough)) }
        return CardExtractor.scan(document, source: source, path: path)
    }

    /// Copies `cards` into an array without spare room when it has much: the extractor grew the
    /// array by doubling, and the index keeps it (a quarter of the cards' memory in a big vault).
    private static func dropSpareCapacity(_ cards: inout [Card]) {
        if cards.capacity > cards.count + cards.count / 8 {
            cards = [Card](unsafeUninitializedCapacity: cards.count) { buffer, initialized in
                initialized = buffer.initialize(fromContentsOf: cards)
            }
        }
    }

    /// Reads a note's front-matter keys, collecting a located warning for each value it ignores.
    private struct KeyReader {
        /// The front matter's mapping, nil when the note has none.
        let root: YAMLMapping?
        /// The note's path, for the warnings.
        let path: String
        /// The diagnostics so far, in the order the note is read.
        var diagnostics: [Diagnostic] = []

        /// Records a warning located at `node`.
        mutating func warn(_ node: YAMLNode, _ message: String) {
            diagnostics.append(Diagnostic(.warning, path: path, line: node.start.line, column: node.start.column,
                                          message: message))
        }

        /// The single value of `key`, or nil when it is absent, empty (`title:`, as a template leaves
        /// it) or not a single value (with a warning).
        mutating func string(_ key: String) -> String? {
            guard let node = root?[key] else { return nil }
            guard let s = node.scalar else {
                warn(node, "'\(key)' should be a single value; ignored")
                return nil
            }
            return s.isNull ? nil : s.value
        }

        /// The deck the front matter names, or nil (with a warning when the name is empty).
        mutating func namedDeck() -> DeckPath? {
            guard let text = string("deck") else { return nil }
            let deck = DeckPath(text)
            if deck == nil, let node = root?["deck"] { warn(node, "'deck' is empty; ignored") }
            return deck
        }

        /// The note's tags, each once: the front matter's `tags` (a list or a comma-separated
        /// string), then `inline`; an invalid front-matter tag is warned about and left out.
        mutating func tags(inline: [String]) -> [Tag] {
            var tags: [Tag] = []
            var seen = SmallSet<String>()
            func add(_ text: String, node: YAMLNode?) {
                guard let tag = Tag(text) else {
                    if let node { warn(node, "'\(text)' is not a valid tag; ignored") }
                    return
                }
                if seen.insert(tag.key) { tags.append(tag) }
            }
            if let node = root?["tags"] {
                switch node {
                case .scalar(let s) where s.isNull: break
                case .scalar(let s):
                    for part in s.value.split(separator: ",") where !part.trimmingSpaces().isEmpty {
                        add(String(part), node: node)
                    }
                case .sequence(let seq):
                    for item in seq.items {
                        if let s = item.scalar { add(s.value, node: item) } else { warn(item, "a tag must be a single word; ignored") }
                    }
                case .mapping:
                    warn(node, "'tags' should be a list or a comma-separated string; ignored")
                }
            }
            for t in inline { add(t, node: nil) }
            return tags
        }

        /// Sets the plain-valued keys (``NoteKey/all``) on `note`, each read by its kind.
        mutating func readPlainKeys(into note: inout Note) {
            for key in NoteKey.all {
                guard let node = root?[key.name],
                      let value = NoteParser.value(of: key, in: node, warn: { warn($0, $1) }) else { continue }
                key.set(value, in: &note)
            }
        }

        /// The stored scheduling lines, each with a valid card ID and a decodable state; the
        /// others are warned about and left out.
        mutating func storedLines() -> [StoredLine] {
            var stored: [StoredLine] = []
            guard let node = root?[SchedulingLine.key] else { return stored }
            guard let map = node.mapping else {
                if !(node.scalar?.isNull ?? false) {
                    warn(node, "'\(SchedulingLine.key)' must be a mapping of card IDs to scheduling lines; ignored")
                }
                return stored
            }
            for (key, value) in map.entries {
                guard let id = CardID(key.value) else {
                    diagnostics.append(Diagnostic(.warning, path: path, line: key.start.line, column: key.start.column,
                                                  message: "'\(key.value)' is not a valid card ID; line ignored"))
                    continue
                }
                let decoded = SchedulingLine.decode(value)
                for (mark, message) in decoded.problems {
                    diagnostics.append(Diagnostic(.warning, path: path, line: mark.line, column: mark.column,
                                                  message: message))
                }
                if let state = decoded.state {
                    stored.append(StoredLine(id: id, state: state, line: key.start.line, column: key.start.column))
                }
            }
            return stored
        }
    }

    /// The value of a plain-valued key from its front-matter node, or nil with a warning (through
    /// `warn`) when the node holds no value of the key's kind; an empty value (`key:`) is no value.
    static func value(of key: NoteKey, in node: YAMLNode, warn: (YAMLNode, String) -> Void) -> NoteKey.Value? {
        guard let scalar = node.scalar else {
            warn(node, "'\(key.name)' should be a single value; ignored")
            return nil
        }
        if scalar.isNull { return nil }
        let value: NoteKey.Value?
        switch key.kind {
        case .text: value = .text(scalar.value)
        case .date: value = Timestamp(iso8601: scalar.value.trimmingSpaces()).map(NoteKey.Value.date)
        case .flag: value = scalar.bool.map(NoteKey.Value.flag)
        case .choice(let words):
            let word = scalar.value.lowercased()
            value = words.contains(word) ? .choice(word) : nil
        }
        if value == nil {
            // The wording `quire check` has always printed ("should" for dates, "must" otherwise).
            let verb = key.kind == .date ? "should be" : "must be"
            warn(node, "'\(key.name)' \(verb) \(key.expectation); ignored")
        }
        return value
    }

    /// Whether a line of some heading holds a `~`: only there can strikethrough, which the
    /// indexing parse leaves out, change what the indexer reads (the heading's plain text).
    static func headingHoldsTilde(_ document: MarkdownDocument, source: SourceText) -> Bool {
        document.nodes.withUnsafeBufferPointer { nodes in
            source.bytes.withUnsafeBufferPointer { bytes in
                for i in nodes.indices where nodes[i].kind == .heading {
                    let range = nodes[i].range
                    for line in range.start.line...max(range.start.line, range.end.line) where line <= source.lineCount {
                        if bytes[source.lineRange(line)].contains(UInt8(ascii: "~")) { return true }
                    }
                }
                return false
            }
        }
    }

    /// The deck named by a note's folder (`Default` at the root).
    static func folderDeck(_ path: String) -> DeckPath {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return .defaultDeck }
        return DeckPath(path[..<slash]) ?? .defaultDeck
    }

    /// The file name without folder and `.md`.
    static func fileStem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.utf8.count > 3 ? String(name.dropLast(3)) : name
    }

    /// The message for a note git left with conflict markers (lines `first...last`).
    package static func mergeConflictMessage(_ lines: ClosedRange<Int>) -> String {
        "unresolved merge conflict (lines \(lines.lowerBound)–\(lines.upperBound)): keep the text you want, delete the "
            + "<<<<<<< ======= >>>>>>> lines and 'git add' the note, or run 'quire resolve'; its scheduling lines "
            + "come from the review log"
    }

    /// The lines of the first merge conflict git left in `bytes` — a `<<<<<<< ` line, then a
    /// `=======` line, then a `>>>>>>> ` line — or nil.
    ///
    /// Markers that lie wholly inside one fenced code block of the body are text (a note about
    /// git quoting a conflict), not a conflict: FORMAT.md §6.5. A real conflict git wrote there is
    /// still one for git (`quire sync` and `git status` list the file as unmerged), and
    /// `countingFenced` (`quire resolve FILE`) counts such markers too.
    package static func mergeConflict(in bytes: [UInt8], countingFenced: Bool = false) -> ClosedRange<Int>? {
        // The fenced blocks' line ranges, found once, when a candidate first needs them.
        var fences: [ClosedRange<Int>]?
        return bytes.withUnsafeBufferPointer { buf -> ClosedRange<Int>? in
            guard let base = buf.baseAddress else { return nil }
            let n = buf.count
            func marker(at i: Int, _ byte: UInt8, spaceAfter: Bool) -> Bool {
                guard i + 7 <= n, (i == 0 || buf[i - 1] == 0x0A) else { return false }
                for k in 0..<7 where buf[i + k] != byte { return false }
                if i + 7 == n { return !spaceAfter }
                let next = buf[i + 7]
                return spaceAfter ? (next == 0x20 || next == 0x0A || next == 0x0D) : (next == 0x0A || next == 0x0D)
            }
            var i = 0
            var counted = (offset: 0, line: 1)
            // Most notes hold no '<' at the start of a line: jump from one '<' to the next.
            while i < n, let hit = RawBytes.first(UInt8(ascii: "<"), in: base + i, count: n - i) {
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                if marker(at: at, UInt8(ascii: "<"), spaceAfter: true) {
                    var line = counted.line
                    for k in counted.offset..<at where buf[k] == 0x0A { line += 1 }
                    counted = (at, line)
                    var j = at, current = line, sawMiddle = false
                    var found: ClosedRange<Int>?
                    while j < n {
                        if !sawMiddle, marker(at: j, UInt8(ascii: "="), spaceAfter: false) { sawMiddle = true }
                        if sawMiddle, marker(at: j, UInt8(ascii: ">"), spaceAfter: true) {
                            found = line...current
                            break
                        }
                        while j < n, buf[j] != 0x0A { j += 1 }
                        j += 1
                        current += 1
                    }
                    guard let region = found else { return nil }
                    if countingFenced { return region }
                    let blocks = fences ?? fencedBlocks(buf)
                    fences = blocks
                    guard blocks.contains(where: { $0.contains(region.lowerBound) && $0.contains(region.upperBound) }) else { return region }
                    // Text inside a fence: the search goes on after it (each line looked at once).
                    i = j + 1
                    continue
                }
                i = at + 1
            }
            return nil
        }
    }

    /// The line ranges (1-based, fence lines included) of the fenced code blocks of a note's body,
    /// as CommonMark opens and closes them at the top level: up to three spaces, then three or more
    /// backticks (whose info string holds none) or tildes; closed by a line of the same character,
    /// at least as many, and nothing but spaces after; an unclosed block runs to the end. The front
    /// matter (from a first line `---` to the next `---` or `...`) is not the body.
    static func fencedBlocks(_ buf: UnsafeBufferPointer<UInt8>) -> [ClosedRange<Int>] {
        var blocks: [ClosedRange<Int>] = []
        var open: (byte: UInt8, count: Int, line: Int)?
        var inFrontMatter = false
        var line = 0, start = 0
        let n = buf.count
        while start < n {
            line += 1
            var end = start
            while end < n, buf[end] != 0x0A { end += 1 }
            var contentEnd = end
            if contentEnd > start, buf[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            defer { start = end + 1 }
            let text = buf[start..<contentEnd]
            if line == 1, text.elementsEqual("---".utf8) { inFrontMatter = true; continue }
            if inFrontMatter {
                if text.elementsEqual("---".utf8) || text.elementsEqual("...".utf8) { inFrontMatter = false }
                continue
            }
            var k = start, indent = 0
            while k < contentEnd, buf[k] == 0x20, indent < 4 { k += 1; indent += 1 }
            guard indent < 4, k < contentEnd, buf[k] == 0x60 || buf[k] == 0x7E else { continue }
            let byte = buf[k]
            var count = 0
            while k < contentEnd, buf[k] == byte { k += 1; count += 1 }
            guard count >= 3 else { continue }
            let rest = buf[k..<contentEnd]
            if let fence = open {
                if byte == fence.byte, count >= fence.count, rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    blocks.append(fence.line...line)
                    open = nil
                }
            } else if byte == 0x7E || !rest.contains(0x60) {
                open = (byte, count, line)
            }
        }
        if let fence = open { blocks.append(fence.line...max(fence.line, line)) }
        return blocks
    }

    /// Offset of the first byte that is not valid UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buf -> Int? in
            guard let base = buf.baseAddress else { return nil }
            var i = 0
            let n = buf.count
            while i < n {
                // Fast paths: 32, then 8 ASCII bytes at a time.
                if i + 32 <= n {
                    let p = UnsafeRawPointer(base + i)
                    let words = p.loadUnaligned(as: UInt64.self) | p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        | p.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                    if words & 0x8080_8080_8080_8080 == 0 { i += 32; continue }
                }
                if i + 8 <= n {
                    let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 { i += 8; continue }
                }
                if buf[i] < 0x80 { i += 1; continue }
                guard let (_, length) = UTF8Scalar.decode(buf, at: i, end: n) else { return i }
                i += length
            }
            return nil
        }
    }
}
