/// What kind of card a card is (FORMAT.md §3).
public enum CardKind: String, CaseIterable, Sendable, Codable {
    /// A question and its answer (`Q:`/`A:`, `question? :: answer`, `?`).
    case basic
    /// A term and its definition (`term :: definition`).
    case definition
    /// One direction of a two-way pair (`:::`, `??`).
    case reversed
    /// A cloze deletion (`{{c1::…}}`, `==…==`).
    case cloze
}

/// Which of a card's siblings this card is.
public enum CardVariant: Hashable, Sendable {
    /// The only card made from its source.
    case single
    /// The front-to-back card of a reversed pair.
    case forward
    /// The back-to-front card of a reversed pair.
    case backward
    /// The cloze deletion with this number (Anki `cN`, or the N-th highlight).
    case cloze(Int)

    /// The text used in ID derivation and shown in JSON (`forward`, `3`, or empty).
    public var identityText: String {
        switch self {
        case .single: ""
        case .forward: "forward"
        case .backward: "backward"
        case .cloze(let n): String(n)
        }
    }
}

extension CardVariant {
    /// The byte that names kind and variant in a ``Fingerprint``: the kind in the top two bits,
    /// the variant (0 single, 1 forward, 2 backward, or the cloze number modulo 64) below.
    public func shape(_ kind: CardKind) -> UInt8 {
        let k: UInt8 = switch kind {
        case .basic: 0
        case .definition: 1
        case .reversed: 2
        case .cloze: 3
        }
        let v: UInt8 = switch self {
        case .single: 0
        case .forward: 1
        case .backward: 2
        case .cloze(let n): UInt8(truncatingIfNeeded: n & 63)
        }
        return k << 6 | v
    }
}
