/// What happened to a card, as one line of the review log (FORMAT.md §6).
public enum ReviewAction: Hashable, Sendable {
    case grade(Rating)
    case undo(of: Timestamp)
    case suspend, unsuspend
    case bury(until: Timestamp)
    case reset
    case promote, demote, deactivate
    /// The card's scheduling state becomes the one the event's fields give (an import from
    /// another program: Anki's state, which Quire's own schedulers would not rebuild).
    case set

    /// Whether the action is a grade.
    public static func isGrade(_ action: ReviewAction) -> Bool {
        if case .grade = action { return true }
        return false
    }

    /// The event word in the log.
    public var word: String {
        switch self {
        case .grade: "grade"
        case .undo: "undo"
        case .suspend: "suspend"
        case .unsuspend: "unsuspend"
        case .bury: "bury"
        case .reset: "reset"
        case .promote: "promote"
        case .demote: "demote"
        case .deactivate: "deactivate"
        case .set: "set"
        }
    }
}

/// One event of the review log.
public struct ReviewEvent: Hashable, Sendable {
    public var time: Timestamp
    public var card: CardID
    public var action: ReviewAction
    /// The extra fields as the log writes them: `key=value` separated by single spaces, values
    /// percent-encoded (space, `%`, control characters, DEL). One string per event, read by
    /// ``field(_:)`` without decoding the others: a log of a million events stays small.
    public private(set) var encodedFields: String

    /// Extra `key=value` fields (`sched`, `ms`, `path`, and any the reader did not know), in order.
    public var fields: [(key: String, value: String)] {
        get {
            encodedFields.split(separator: " ").compactMap { token in
                guard let eq = token.firstIndex(of: "=") else { return nil }
                return (String(token[..<eq]), Self.percentDecode(token[token.index(after: eq)...]) ?? String(token[token.index(after: eq)...]))
            }
        }
        set { encodedFields = Self.encode(newValue) }
    }

    /// Creates an event.
    public init(time: Timestamp, card: CardID, action: ReviewAction, fields: [(key: String, value: String)] = []) {
        self.time = time
        self.card = card
        self.action = action
        encodedFields = Self.encode(fields)
    }

    /// Creates an event from fields already encoded as the log writes them (the log reader, which
    /// has checked them).
    package init(time: Timestamp, card: CardID, action: ReviewAction, encodedFields: String) {
        self.time = time
        self.card = card
        self.action = action
        self.encodedFields = encodedFields
    }

    /// The value of a field, if present.
    public func field(_ key: String) -> String? { fields(key, key, key).0 }

    /// The values of three fields, read in one pass over the encoded text (a replay asks for
    /// `cfg`, `sched` and `ms` of every event). The first field with a key wins.
    public func fields(_ a: String, _ b: String, _ c: String) -> (String?, String?, String?) {
        var found: (String?, String?, String?) = (nil, nil, nil)
        let scanned: Void? = encodedFields.utf8.withContiguousStorageIfAvailable { bytes in
            var i = 0
            let n = bytes.count
            while i < n {
                var end = i
                while end < n, bytes[end] != 0x20 { end += 1 }
                var eq = i
                while eq < end, bytes[eq] != 0x3D { eq += 1 }
                if eq < end {
                    let key = bytes[i..<eq]
                    func value() -> String? {
                        let value = UnsafeBufferPointer(rebasing: bytes[(eq + 1)..<end])
                        return value.contains(0x25) ? Self.percentDecode(value) : String(decoding: value, as: UTF8.self)
                    }
                    if found.0 == nil, a.utf8.elementsEqual(key) {
                        found.0 = value()
                    } else if found.1 == nil, b.utf8.elementsEqual(key) {
                        found.1 = value()
                    } else if found.2 == nil, c.utf8.elementsEqual(key) {
                        found.2 = value()
                    }
                }
                i = end + 1
            }
        }
        if scanned == nil {
            let all = fields
            func first(_ key: String) -> String? { all.first { $0.key == key }?.value }
            found = (first(a), first(b), first(c))
        }
        return found
    }

    /// The state a `set` event gives the card, from its fields (`state=`, `due=`, … as in a
    /// front-matter line, FORMAT.md §6); nil for other events, or when a field cannot be read or
    /// `state=` is missing.
    public var setState: SchedulingState? {
        guard action == .set else { return nil }
        return Self.state(fields: fields)
    }

    /// A scheduling state from `key=value` fields (decoded); unknown keys are left out; nil when a
    /// known field cannot be read or `state` is missing.
    public static func state(fields: [(key: String, value: String)]) -> SchedulingState? {
        var state = SchedulingState()
        var sawState = false
        for (key, value) in fields where SchedulingState.isReadableField(key) {
            if state.read(field: key, text: value) != nil { return nil }
            if key == "state" { sawState = true }
        }
        return sawState ? state : nil
    }

    public static func == (a: ReviewEvent, b: ReviewEvent) -> Bool {
        a.time == b.time && a.card == b.card && a.action == b.action && a.encodedFields == b.encodedFields
    }

    public func hash(into h: inout Hasher) {
        h.combine(time); h.combine(card); h.combine(action)
    }

    // MARK: - Percent-encoding (FORMAT.md §6)

    /// Fields as the log writes them.
    static func encode(_ fields: [(key: String, value: String)]) -> String {
        fields.map { $0.key + "=" + percentEncode($0.value) }.joined(separator: " ")
    }

    /// Percent-encodes space, `%`, control characters (C1 ones, U+0080–U+009F, as their two UTF-8
    /// bytes: a terminal may take U+009B for the start of an escape sequence) and DEL.
    public static func percentEncode(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 <= 0x20 || $0 == 0x25 || $0 == 0x7F || $0 == 0xC2 }) else { return s }
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        func escape(_ b: UInt8) {
            out.append(0x25)
            out.append(hexDigit(b >> 4))
            out.append(hexDigit(b & 15))
        }
        var k = 0
        while k < bytes.count {
            let b = bytes[k]
            if b == 0xC2, k + 1 < bytes.count, (0x80...0x9F).contains(bytes[k + 1]) {
                escape(b)
                escape(bytes[k + 1])
                k += 2
                continue
            }
            if b <= 0x20 || b == 0x25 || b == 0x7F { escape(b) } else { out.append(b) }
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 48 + v : 55 + v }

    /// Decodes `%XX` escapes; nil when an escape is cut short or not hexadecimal, or the result is
    /// not UTF-8.
    public static func percentDecode(_ s: Substring) -> String? {
        var text = String(s)
        return text.withUTF8 { percentDecode($0) }
    }

    /// ``percentDecode(_:)-(Substring)`` over bytes.
    public static func percentDecode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(0x25) else { return String(validating: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x25 {
                guard i + 2 < bytes.count, let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }
}
