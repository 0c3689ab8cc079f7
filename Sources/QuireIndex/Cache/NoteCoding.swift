import QuireModel

/// The decks and tags the cached notes name, stored once and referred to by number: a vault has few
/// of each, and sharing them saves both decoding time and memory.
struct NameTables {
    var decks: [DeckPath] = []
    var tags: [Tag] = []
    private var deckNumbers: [DeckPath: Int] = [:]
    private var tagNumbers: [String: Int] = [:]

    init() {}

    init(decks: [DeckPath], tags: [Tag]) {
        self.decks = decks
        self.tags = tags
        for (n, d) in decks.enumerated() where deckNumbers[d] == nil { deckNumbers[d] = n }
        for (n, t) in tags.enumerated() where tagNumbers[t.name] == nil { tagNumbers[t.name] = n }
    }

    mutating func number(of deck: DeckPath) -> Int {
        if let n = deckNumbers[deck] { return n }
        decks.append(deck)
        deckNumbers[deck] = decks.count - 1
        return decks.count - 1
    }

    /// Tags are numbered by their name as written (two spellings of one tag are two entries).
    mutating func number(of tag: Tag) -> Int {
        if let n = tagNumbers[tag.name] { return n }
        tags.append(tag)
        tagNumbers[tag.name] = tags.count - 1
        return tags.count - 1
    }

    /// Numbers a note's deck and tags.
    mutating func number(_ note: Note?) {
        guard let note else { return }
        _ = number(of: note.deck)
        for t in note.tags { _ = number(of: t) }
    }

    /// The number of a deck already numbered (0 if not: callers number every deck first).
    func existingNumber(of deck: DeckPath) -> Int { deckNumbers[deck] ?? 0 }

    /// The number of a tag already numbered (0 if not: callers number every tag first).
    func existingNumber(of tag: Tag) -> Int { tagNumbers[tag.name] ?? 0 }

    func encode(into w: inout BinaryWriter) {
        w.varint(decks.count)
        for d in decks {
            w.varint(d.components.count)
            for c in d.components { w.string(c) }
        }
        w.varint(tags.count)
        for t in tags { w.string(t.name) }
    }

    static func decode(_ r: inout BinaryReader) throws(IndexCacheError) -> NameTables {
        var decks: [DeckPath] = []
        for _ in 0..<(try r.count()) {
            var parts: [String] = []
            for _ in 0..<(try r.count()) { parts.append(try r.string()) }
            guard let deck = DeckPath(components: parts) else { throw .malformed("bad deck") }
            decks.append(deck)
        }
        var tags: [Tag] = []
        for _ in 0..<(try r.count()) {
            let name = try r.string()
            guard let tag = Tag(name), tag.name == name else { throw .malformed("bad tag '\(name)'") }
            tags.append(tag)
        }
        return NameTables(decks: decks, tags: tags)
    }

    func deck(_ n: Int) throws(IndexCacheError) -> DeckPath {
        guard decks.indices.contains(n) else { throw .malformed("deck number \(n) out of range") }
        return decks[n]
    }

    func tag(_ n: Int) throws(IndexCacheError) -> Tag {
        guard tags.indices.contains(n) else { throw .malformed("tag number \(n) out of range") }
        return tags[n]
    }
}

/// The binary form of a parsed ``Note`` and what it holds, for the index cache. Decoding gives back
/// a note equal to the one encoded, field for field (tested against fresh parses).
enum NoteCoding {
    /// Encodes a note whose deck and tags `tables` has numbered.
    static func encode(_ note: Note, tables: NameTables, into w: inout BinaryWriter) {
        w.string(note.title)
        w.varint(tables.existingNumber(of: note.deck))
        w.varint(note.tags.count)
        for t in note.tags { w.varint(tables.existingNumber(of: t)) }
        for key in NoteKey.all { encode(key.value(in: note), of: key, into: &w) }
        w.varint(note.byteCount)
        w.u64(note.contentDigest)
        // Cards are read in place: copying one out retains each of its strings.
        note.cards.withUnsafeBufferPointer { cards in encodeCards(cards, into: &w) }
    }

    /// Where a card's texts are in its note's text list, and which of them it adds to the list.
    private struct TextNumbers {
        var front: Int, back: Int, identity: Int
        var addsBack: Bool, addsIdentity: Bool
    }

    private static func encodeCards(_ cards: UnsafeBufferPointer<Card>, into w: inout BinaryWriter) {
        // Heading paths are stored once per note. The cards under one heading follow each other
        // and share its array, so comparing with the card before finds them.
        var headingCards: [Int] = []
        var cardHeadings: [Int] = []
        cardHeadings.reserveCapacity(cards.count)
        for i in cards.indices {
            if headingCards.last.map({ cards[$0].headingPath != cards[i].headingPath }) ?? true { headingCards.append(i) }
            cardHeadings.append(headingCards.count - 1)
        }
        w.varint(headingCards.count)
        for i in headingCards {
            w.varint(cards[i].headingPath.count)
            for s in cards[i].headingPath { w.string(s) }
        }
        // Card texts are referred to by number, so that the cards of one cloze group store their
        // shared answer side and identity text once. Such cards follow each other; comparing with
        // the group's first card (the same string storage, so a pointer comparison) beats hashing.
        var numbers: [TextNumbers] = []
        numbers.reserveCapacity(cards.count)
        var count = 0
        var groupStart = -1
        for i in cards.indices {
            let front = count
            count += 1
            guard cards[i].kind == .cloze else {
                groupStart = -1
                numbers.append(TextNumbers(front: front, back: count, identity: 0, addsBack: true, addsIdentity: false))
                count += 1
                continue
            }
            if groupStart >= 0, cards[groupStart].back == cards[i].back,
               cards[groupStart].identityText == cards[i].identityText {
                let g = numbers[groupStart]
                numbers.append(TextNumbers(front: front, back: g.back, identity: g.identity, addsBack: false, addsIdentity: false))
                continue
            }
            let back = count
            count += 1
            let sameAsBack = cards[i].identityText == cards[i].back
            numbers.append(TextNumbers(front: front, back: back, identity: sameAsBack ? back : count, addsBack: true,
                                       addsIdentity: !sameAsBack))
            if !sameAsBack { count += 1 }
            groupStart = i
        }
        w.varint(count)
        for i in cards.indices {
            w.string(cards[i].front)
            if numbers[i].addsBack { w.string(cards[i].back) }
            if numbers[i].addsIdentity { w.string(cards[i].identityText) }
        }
        w.varint(cards.count)
        for i in cards.indices {
            w.string(cards[i].id.rawValue)
            w.u8(kindCode(cards[i].kind))
            switch cards[i].variant {
            case .single: w.u8(0)
            case .forward: w.u8(1)
            case .backward: w.u8(2)
            case .cloze(let n): w.u8(3); w.varint(n)
            }
            w.varint(numbers[i].front)
            w.varint(numbers[i].back)
            w.varint(cards[i].lines.lowerBound)
            w.varint(cards[i].lines.upperBound)
            w.varint(cards[i].column)
            w.varint(cardHeadings[i])
            if cards[i].kind == .cloze { w.varint(numbers[i].identity) }
            w.bool(cards[i].hasExplicitID)
            if let s = cards[i].schedule {
                w.u8(1)
                encode(s, into: &w)
            } else {
                w.u8(0)
            }
        }
    }

    static func decodeNote(path: String, tables: NameTables, _ r: inout BinaryReader) throws(IndexCacheError) -> Note {
        let title = try r.string()
        let deck = try tables.deck(try r.varint())
        var tags: [Tag] = []
        let tagCount = try r.count()
        tags.reserveCapacity(tagCount)
        for _ in 0..<tagCount { tags.append(try tables.tag(try r.varint())) }
        var note = Note(path: path, title: title, deck: deck, tags: tags)
        for key in NoteKey.all { key.set(try decodeValue(of: key, &r), in: &note) }
        let byteCount = try r.varint()
        let digest = try r.u64()
        var headings: [[String]] = []
        for _ in 0..<(try r.count()) {
            var h: [String] = []
            for _ in 0..<(try r.count()) { h.append(try r.string()) }
            headings.append(h)
        }
        var texts: [String] = []
        let textCount = try r.count()
        texts.reserveCapacity(textCount)
        for _ in 0..<textCount { texts.append(try r.string()) }
        func text(_ n: Int) throws(IndexCacheError) -> String {
            guard texts.indices.contains(n) else { throw .malformed("text number \(n) out of range") }
            return texts[n]
        }
        let cardCount = try r.count(minimumSize: 8)
        var cards: [Card] = []
        cards.reserveCapacity(cardCount)
        for _ in 0..<cardCount {
            guard let id = CardID(try r.string()) else { throw .malformed("bad card ID") }
            let kind = try kindFromCode(try r.u8())
            let variant: CardVariant
            switch try r.u8() {
            case 0: variant = .single
            case 1: variant = .forward
            case 2: variant = .backward
            case 3: variant = .cloze(try r.varint())
            default: throw .malformed("bad card variant")
            }
            let front = try text(try r.varint())
            let back = try text(try r.varint())
            let first = try r.varint(), last = try r.varint()
            guard first <= last else { throw .malformed("bad card lines") }
            let column = try r.varint()
            let h = try r.varint()
            guard headings.indices.contains(h) else { throw .malformed("bad heading number") }
            let identity = kind == .cloze ? try text(try r.varint()) : ""
            let explicit = try r.bool()
            let schedule = try r.bool() ? try decodeSchedule(&r) : nil
            cards.append(Card(id: id, kind: kind, variant: variant, front: front, back: back, lines: first...last,
                              column: column, headingPath: headings[h], identityText: identity,
                              hasExplicitID: explicit, schedule: schedule))
        }
        note.cards = cards
        note.byteCount = byteCount
        note.contentDigest = digest
        return note
    }

    // MARK: - Scheduling state

    private enum Present {
        static let fingerprint: UInt32 = 1 << 0, step: UInt32 = 1 << 1, due: UInt32 = 1 << 2
        static let last: UInt32 = 1 << 3, stability: UInt32 = 1 << 4, difficulty: UInt32 = 1 << 5
        static let ease: UInt32 = 1 << 6, interval: UInt32 = 1 << 7, flow: UInt32 = 1 << 8
        static let streak: UInt32 = 1 << 9, attempts: UInt32 = 1 << 10, buried: UInt32 = 1 << 11
        static let suspended: UInt32 = 1 << 12
    }

    static func encode(_ s: SchedulingState, into w: inout BinaryWriter) {
        var mask: UInt32 = 0
        if s.fingerprint != nil { mask |= Present.fingerprint }
        if s.step != nil { mask |= Present.step }
        if s.due != nil { mask |= Present.due }
        if s.lastReview != nil { mask |= Present.last }
        if s.stability != nil { mask |= Present.stability }
        if s.difficulty != nil { mask |= Present.difficulty }
        if s.ease != nil { mask |= Present.ease }
        if s.interval != nil { mask |= Present.interval }
        if s.flow != nil { mask |= Present.flow }
        if s.streak != nil { mask |= Present.streak }
        if s.attempts != nil { mask |= Present.attempts }
        if s.buriedUntil != nil { mask |= Present.buried }
        if s.suspended { mask |= Present.suspended }
        w.varint(Int(mask))
        w.u8(UInt8(CardState.allCases.firstIndex(of: s.state) ?? 0))
        w.varint(s.reps)
        w.varint(s.lapses)
        if let v = s.fingerprint { w.u64(v.bits) }
        if let v = s.step { w.varint(v) }
        if let v = s.due { w.i64(v.milliseconds) }
        if let v = s.lastReview { w.i64(v.milliseconds) }
        if let v = s.stability { w.f64(v) }
        if let v = s.difficulty { w.f64(v) }
        if let v = s.ease { w.f64(v) }
        if let v = s.interval { w.varint(v) }
        if let v = s.flow { w.u8(UInt8(FlowState.allCases.firstIndex(of: v) ?? 0)) }
        if let v = s.streak { w.varint(v) }
        if let v = s.attempts { w.varint(v) }
        if let v = s.buriedUntil { w.i64(v.milliseconds) }
        w.varint(s.unknownFields.count)
        for f in s.unknownFields {
            w.string(f.key)
            w.string(f.value)
        }
    }

    static func decodeSchedule(_ r: inout BinaryReader) throws(IndexCacheError) -> SchedulingState {
        let mask = UInt32(truncatingIfNeeded: try r.varint())
        var s = SchedulingState()
        let state = Int(try r.u8())
        guard CardState.allCases.indices.contains(state) else { throw .malformed("bad card state") }
        s.state = CardState.allCases[state]
        s.reps = try r.varint()
        s.lapses = try r.varint()
        if mask & Present.fingerprint != 0 { s.fingerprint = Fingerprint(bits: try r.u64()) }
        if mask & Present.step != 0 { s.step = try r.varint() }
        if mask & Present.due != 0 { s.due = Timestamp(milliseconds: try r.i64()) }
        if mask & Present.last != 0 { s.lastReview = Timestamp(milliseconds: try r.i64()) }
        if mask & Present.stability != 0 { s.stability = try r.f64() }
        if mask & Present.difficulty != 0 { s.difficulty = try r.f64() }
        if mask & Present.ease != 0 { s.ease = try r.f64() }
        if mask & Present.interval != 0 { s.interval = try r.varint() }
        if mask & Present.flow != 0 {
            let f = Int(try r.u8())
            guard FlowState.allCases.indices.contains(f) else { throw .malformed("bad flow state") }
            s.flow = FlowState.allCases[f]
        }
        if mask & Present.streak != 0 { s.streak = try r.varint() }
        if mask & Present.attempts != 0 { s.attempts = try r.varint() }
        if mask & Present.buried != 0 { s.buriedUntil = Timestamp(milliseconds: try r.i64()) }
        s.suspended = mask & Present.suspended != 0
        let unknown = try r.count(minimumSize: 2)
        for _ in 0..<unknown {
            let key = try r.string()
            s.unknownFields.append((key: key, value: try r.string()))
        }
        return s
    }

    // MARK: - Diagnostics

    static func encode(_ d: Diagnostic, into w: inout BinaryWriter) {
        w.u8(d.severity == .note ? 0 : d.severity == .warning ? 1 : 2)
        w.string(d.path)
        w.varint((d.line ?? -1) + 1)
        w.varint((d.column ?? -1) + 1)
        w.string(d.message)
    }

    static func decodeDiagnostic(_ r: inout BinaryReader) throws(IndexCacheError) -> Diagnostic {
        let severity: Diagnostic.Severity
        switch try r.u8() {
        case 0: severity = .note
        case 1: severity = .warning
        case 2: severity = .error
        default: throw .malformed("bad severity")
        }
        let path = try r.string()
        let line = try r.varint() - 1, column = try r.varint() - 1
        return Diagnostic(severity, path: path, line: line < 0 ? nil : line, column: column < 0 ? nil : column,
                          message: try r.string())
    }

    // MARK: - Small parts

    /// A card kind's number: its place in `CardKind.allCases` (spelled out: `allCases` builds an
    /// array at each call, and this runs once per card).
    static func kindCode(_ k: CardKind) -> UInt8 {
        switch k {
        case .basic: 0
        case .definition: 1
        case .reversed: 2
        case .cloze: 3
        }
    }

    static func kindFromCode(_ c: UInt8) throws(IndexCacheError) -> CardKind {
        switch c {
        case 0: .basic
        case 1: .definition
        case 2: .reversed
        case 3: .cloze
        default: throw .malformed("bad card kind")
        }
    }

    /// A plain-valued key's value, by its kind: dates and texts behind a presence byte, flags as a
    /// byte, choices as the word's place in the key's list plus one (0: none).
    private static func encode(_ value: NoteKey.Value?, of key: NoteKey, into w: inout BinaryWriter) {
        switch key.kind {
        case .date:
            if case .date(let t) = value { timestamp(t, &w) } else { timestamp(nil, &w) }
        case .text:
            if case .text(let s) = value { optionalString(s, &w) } else { optionalString(nil, &w) }
        case .flag:
            if case .flag(let on) = value { w.bool(on) } else { w.bool(false) }
        case .choice(let words):
            if case .choice(let word) = value, let at = words.firstIndex(of: word) { w.u8(UInt8(at + 1)) } else { w.u8(0) }
        }
    }

    private static func decodeValue(of key: NoteKey, _ r: inout BinaryReader) throws(IndexCacheError) -> NoteKey.Value? {
        switch key.kind {
        case .date: return try timestamp(&r).map(NoteKey.Value.date)
        case .text: return try optionalString(&r).map(NoteKey.Value.text)
        case .flag: return .flag(try r.bool())
        case .choice(let words):
            let code = Int(try r.u8())
            guard code <= words.count else { throw .malformed("bad \(key.name)") }
            return code == 0 ? nil : .choice(words[code - 1])
        }
    }

    private static func timestamp(_ t: Timestamp?, _ w: inout BinaryWriter) {
        if let t {
            w.u8(1)
            w.i64(t.milliseconds)
        } else {
            w.u8(0)
        }
    }

    private static func timestamp(_ r: inout BinaryReader) throws(IndexCacheError) -> Timestamp? {
        try r.bool() ? Timestamp(milliseconds: try r.i64()) : nil
    }

    private static func optionalString(_ s: String?, _ w: inout BinaryWriter) {
        if let s {
            w.u8(1)
            w.string(s)
        } else {
            w.u8(0)
        }
    }

    private static func optionalString(_ r: inout BinaryReader) throws(IndexCacheError) -> String? {
        try r.bool() ? try r.string() : nil
    }
}
