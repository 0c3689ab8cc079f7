import Foundation

/// A card's identity: 1–64 characters from `A–Z a–z 0–9 _ -` (FORMAT.md §3.5).
public struct CardID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The ID text.
    public let rawValue: String

    /// Validates an ID; returns nil when it is empty, too long or has other characters.
    public init?(_ text: String) {
        guard Self.isValid(text[...]) else { return nil }
        rawValue = text
    }

    /// Validates an ID given as a substring.
    public init?(_ text: Substring) {
        guard Self.isValid(text) else { return nil }
        rawValue = String(text)
    }

    private init(unchecked: String) { rawValue = unchecked }

    /// Whether `text` is a well-formed card ID.
    public static func isValid(_ text: Substring) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 64 else { return false }
        return utf8.allSatisfy(isIDByte)
    }

    /// Whether a byte may appear in a card ID.
    @inline(__always) public static func isIDByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 95
    }

    public var description: String { rawValue }

    // IDs are ASCII, so their bytes are their identity: hashing the bytes skips the Unicode
    // normalization checks of `String` hashing, which dominate building a million-card index.
    public func hash(into hasher: inout Hasher) {
        var text = rawValue
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public static func == (a: CardID, b: CardID) -> Bool { a.rawValue == b.rawValue }
    public static func < (lhs: CardID, rhs: CardID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = CardID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "invalid card ID '\(text)'"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// The ID derived from a card's content, the same on every machine (FORMAT.md §3.5).
    ///
    /// - Parameters:
    ///   - path: the note's path relative to the vault root, `/`-separated.
    ///   - kind: the card's kind.
    ///   - variant: `forward`/`backward`, the cloze number, or empty.
    ///   - identityText: the card's text, already normalized with ``normalizeIdentityText(_:)``.
    ///   - occurrence: how many earlier cards in the note share kind, variant and text.
    public static func derive(path: String, kind: CardKind, variant: String, identityText: String,
                              occurrence: Int) -> CardID {
        CardID(derivedHash: derivedHash(path: path, kind: kind, variant: variant, identityText: identityText,
                                        occurrence: occurrence))
    }

    /// The 64-bit hash behind ``derive(path:kind:variant:identityText:occurrence:)``.
    public static func derivedHash(path: String, kind: CardKind, variant: String, identityText: String,
                                   occurrence: Int) -> UInt64 {
        derivedHash(prefix: derivationPrefix(seed: derivationSeed(path: path), kind: kind, variant: variant),
                    occurrence: occurrence) { $0.combine(identityText) }
    }

    /// The hash state after the parts of a derivation that every card of one note shares: the
    /// version tag and the path. Copied for each card instead of hashing the path again.
    public static func derivationSeed(path: String) -> SipHash24 {
        var h = SipHash24()
        h.combine("quire-card-v1")
        h.combine(byte: 0)
        h.combine(path)
        h.combine(byte: 0)
        return h
    }

    /// The hash state after a note's ``derivationSeed(path:)``, a kind and a variant: shared by
    /// every card of that kind and variant in the note.
    public static func derivationPrefix(seed: SipHash24, kind: CardKind, variant: String) -> SipHash24 {
        var h = seed
        h.combine(kind.rawValue)
        h.combine(byte: 0)
        h.combine(variant)
        h.combine(byte: 0)
        return h
    }

    /// The derived hash from a ``derivationPrefix(seed:kind:variant:)``; `identity` feeds the
    /// normalized identity text, in as many pieces as it likes.
    public static func derivedHash(prefix: SipHash24, occurrence: Int, identity: (inout SipHash24) -> Void) -> UInt64 {
        var h = prefix
        identity(&h)
        h.combine(byte: 0)
        if occurrence == 0 { h.combine(byte: UInt8(ascii: "0")) } else { h.combine(String(occurrence)) }
        return h.finalize()
    }

    /// Stands for "no ID yet" while a note's cards are being read.
    public static let unassigned = CardID(unchecked: "0")

    /// The ID spelled from a derived hash: its top 60 bits in 12 base32 characters.
    public init(derivedHash: UInt64) {
        rawValue = Base32.encodeTopBits(derivedHash, count: 12)
    }

    /// Collapses runs of white space to one space, trims, and applies Unicode NFC.
    public static func normalizeIdentityText(_ text: String) -> String {
        var text = text
        // Most card text is already normal: ASCII, single spaces, nothing to trim. Keep it as is.
        if text.withUTF8({ shape(of: $0) }) == .normal { return text }
        // Else the words, with one space between them; brought to NFC unless every scalar is one
        // that NFC leaves alone.
        var stable = true
        let collapsed = text.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: utf8.count) { out in
                guard let destination = out.baseAddress, let source = utf8.baseAddress else { return 0 }
                var count = 0
                stable = forEachWord(utf8) { word in
                    if count > 0 {
                        destination[count] = 32
                        count += 1
                    }
                    (destination + count).initialize(from: source + word.lowerBound, count: word.count)
                    count += word.count
                }
                return count
            }
        }
        return stable ? collapsed : collapsed.precomposedStringWithCanonicalMapping
    }

    /// Unicode's White_Space property (`Unicode.Scalar.Properties.isWhitespace`), spelled out.
    @inline(__always) static func isWhiteSpace(_ v: UInt32) -> Bool {
        switch v {
        case 9...13, 32, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Feeds ``normalizeIdentityText(_:)`` of `text` to `hasher`. ASCII text (nearly all card text)
    /// is normalized on the fly, without building the normalized string.
    public static func combineNormalizedIdentityText(_ text: String, into hasher: inout SipHash24) {
        var text = text
        let fed = text.withUTF8 { utf8 -> Bool in
            switch shape(of: utf8) {
            case .normal:
                hasher.combine(buffer: utf8)
                return true
            case .otherASCII:
                combineCollapsingSpaces(utf8, into: &hasher)
                return true
            case .notASCII:
                return false
            }
        }
        if !fed { hasher.combine(normalizeIdentityText(text)) }
    }

    /// What normalizing a text involves.
    enum TextShape {
        /// ASCII with single spaces and nothing to trim: already normal.
        case normal
        /// ASCII with white space to collapse or trim.
        case otherASCII
        /// Holds a non-ASCII byte: may need Unicode white space and NFC.
        case notASCII
    }

    /// Classifies UTF-8 text eight bytes at a time.
    static func shape(of utf8: UnsafeBufferPointer<UInt8>) -> TextShape {
        guard let base = utf8.baseAddress, let first = utf8.first, let last = utf8.last else { return .normal }
        var result = TextShape.normal
        if first == 32 || last == 32 { result = .otherASCII }
        let n = utf8.count
        var i = 0
        var previousSpace = false
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, spaces: UInt64 = 0x2020_2020_2020_2020
        while i + 8 <= n {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if w & highs != 0 { return .notASCII }
            if result == .normal {
                // A byte below 0x20 (tab, line feed, other controls).
                if (w &- spaces) & ~w & highs != 0 { result = .otherASCII }
                // Exactly the space bytes, as 0x80 in each.
                let x = w ^ spaces
                let isSpace = ~(((x & lows) &+ lows) | x | lows)
                if isSpace & (isSpace << 8) != 0 || (previousSpace && isSpace & 0x80 != 0) { result = .otherASCII }
                previousSpace = isSpace >> 63 != 0
            }
            i += 8
        }
        while i < n {
            let b = base[i]
            if b >= 0x80 { return .notASCII }
            if b < 32 || (b == 32 && previousSpace) { result = .otherASCII }
            previousSpace = b == 32
            i += 1
        }
        return result
    }

    /// Feeds ASCII text with runs of white space as one space, none at the ends.
    private static func combineCollapsingSpaces(_ utf8: UnsafeBufferPointer<UInt8>, into hasher: inout SipHash24) {
        var first = true
        forEachWord(utf8) { word in
            if !first { hasher.combine(byte: 32) }
            first = false
            hasher.combine(buffer: UnsafeBufferPointer(rebasing: utf8[word]))
        }
    }

    /// Calls `body` with each word of UTF-8 text, in order: each run of scalars that are not
    /// Unicode white space. Returns whether every scalar passed is ``isNFCStable(_:)-(UInt32)``.
    @discardableResult
    private static func forEachWord(_ utf8: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) -> Bool {
        var stable = true
        var wordStart = -1
        var i = 0
        while i < utf8.count {
            let b = utf8[i]
            let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            let end = min(utf8.count, i + length)
            let isSpace: Bool
            if length == 1 {
                isSpace = b == 32 || (b >= 9 && b <= 13)
            } else {
                // A multi-byte scalar: decoded to ask whether it is white space or changes in NFC.
                var scalar = UInt32(length == 2 ? b & 0x1F : length == 3 ? b & 0x0F : b & 0x07)
                for k in (i + 1)..<end { scalar = scalar << 6 | UInt32(utf8[k] & 0x3F) }
                isSpace = isWhiteSpace(scalar)
                if !isSpace, stable, !isNFCStable(scalar) { stable = false }
            }
            if isSpace {
                if wordStart >= 0 { body(wordStart..<i) }
                wordStart = -1
            } else if wordStart < 0 {
                wordStart = i
            }
            i = end
        }
        if wordStart >= 0 { body(wordStart..<utf8.count) }
        return stable
    }

    /// Whether every scalar of `text` has the Unicode property NFC_Quick_Check=Yes and combining
    /// class 0, so the text is already in NFC whatever surrounds each scalar. Checked for the ranges
    /// real notes use: below U+0300 (Latin-1 and Latin Extended letters come precomposed), Greek
    /// (but U+0374, U+037E, U+0387), Cyrillic, general punctuation (but U+2000, U+2001), arrows and
    /// mathematical operators, CJK punctuation, kana (but the combining voice marks), CJK unified
    /// ideographs, Hangul syllables and emoji. Such text skips the slow Foundation normalization.
    static func isNFCStable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { isNFCStable($0.value) }
    }

    /// Whether one scalar is of the kind ``isNFCStable(_:)-(String)`` accepts.
    @inline(__always) static func isNFCStable(_ v: UInt32) -> Bool {
        switch v {
        case 0..<0x300: true
        case 0x374, 0x37E, 0x387: false
        case 0x370...0x3FF, 0x400...0x482, 0x48A...0x52F: true
        case 0x2010...0x2064, 0x2190...0x22FF: true
        case 0x3000...0x3029, 0x3030...0x303F, 0x3040...0x3098, 0x309B...0x30FF: true
        case 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0x1F300...0x1FAFF: true
        default: false
        }
    }

    /// The ID of a sibling made from an explicit base ID (`ID-r`, `ID-c2`).
    public func suffixed(_ suffix: String) -> CardID {
        CardID(unchecked: String((rawValue + "-" + suffix).prefix(64)))
    }
}
