/// A value to write into front matter.
public indirect enum YAMLValue: Sendable, Equatable {
    /// A string, emitted plain when that reads back as the same text, else double-quoted with escapes.
    ///
    /// Plain text is typed by readers (`3.5` reads back as a number, `2024-01-05` as a date),
    /// which is what scheduling fields want; use ``quoted(_:)`` to force a string.
    case scalar(String)
    /// A string, always emitted double-quoted.
    case quoted(String)
    /// A string emitted single-quoted (`'it''s'`) when it holds no line break, else double-quoted:
    /// a value the user quoted so keeps its quotes.
    case singleQuoted(String)
    /// Verbatim YAML text, written as is (the edit is still verified by re-parsing).
    case raw(String)
    /// A flow list `[a, b]`.
    case flowSequence([YAMLValue])
    /// A flow mapping `{a: 1, b: 2}`, in the given order.
    case flowMapping([(String, YAMLValue)])

    /// Compares two values, including the order of flow mapping entries.
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value.
    /// - Returns: True when both are the same case with equal contents.
    public static func == (lhs: YAMLValue, rhs: YAMLValue) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)), (.quoted(let a), .quoted(let b)), (.raw(let a), .raw(let b)),
             (.singleQuoted(let a), .singleQuoted(let b)):
            return a == b
        case (.flowSequence(let a), .flowSequence(let b)):
            return a == b
        case (.flowMapping(let a), .flowMapping(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default:
            return false
        }
    }

    /// The YAML text for this value.
    /// - Parameter inFlow: True when the text goes inside a flow collection (stricter plain rules).
    /// - Returns: Single-line YAML text (except for multi-line ``raw(_:)`` text).
    public func yamlText(inFlow: Bool = false) -> String {
        switch self {
        case .scalar(let text):
            return YAMLEmitter.isPlainSafe(text, inFlow: inFlow) ? text : YAMLEmitter.doubleQuoted(text)
        case .quoted(let text):
            return YAMLEmitter.doubleQuoted(text)
        case .singleQuoted(let text):
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x2028 || $0.value == 0x2029 })
            else { return YAMLEmitter.doubleQuoted(text) }
            return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .raw(let text):
            return text
        case .flowSequence(let items):
            return "[" + items.map { $0.yamlText(inFlow: true) }.joined(separator: ", ") + "]"
        case .flowMapping(let entries):
            let parts = entries.map { YAMLEmitter.key($0.0, inFlow: true) + ": " + $0.1.yamlText(inFlow: true) }
            return "{" + parts.joined(separator: ", ") + "}"
        }
    }

    /// Whether a parsed node holds this value (``raw(_:)`` matches any node).
    func isMatched(by node: YAMLNode) -> Bool {
        switch self {
        case .scalar(let text), .quoted(let text), .singleQuoted(let text):
            guard case .scalar(let scalar) = node else { return false }
            return scalar.value == text
        case .raw:
            return true
        case .flowSequence(let items):
            guard case .sequence(let sequence) = node, sequence.items.count == items.count else { return false }
            return zip(items, sequence.items).allSatisfy { $0.isMatched(by: $1) }
        case .flowMapping(let entries):
            guard case .mapping(let mapping) = node, mapping.entries.count == entries.count else { return false }
            return zip(entries, mapping.entries).allSatisfy { $0.0 == $1.key.value && $0.1.isMatched(by: $1.value) }
        }
    }
}

/// Scalar and key emission rules shared by values and the editor.
enum YAMLEmitter {
    /// A mapping key: plain when safe, else double-quoted.
    static func key(_ text: String, inFlow: Bool) -> String {
        isPlainSafe(text, inFlow: inFlow) ? text : doubleQuoted(text)
    }

    /// Whether `text` written plain reads back as exactly `text` (conservatively).
    static func isPlainSafe(_ text: String, inFlow: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if "?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return false }
        if first == "-" {
            // `-x` is fine; `- x` and a lone `-` start a list, `---` a document.
            let second = text.unicodeScalars.dropFirst().first
            if second == nil || second == " " || text.hasPrefix("---") { return false }
        }
        if text.hasPrefix("...") { return false }
        // `: ` and ` #` end a plain scalar (a byte scan: String.contains(String) is slow here).
        var previousByte: UInt8 = 0
        for b in text.utf8 {
            if (previousByte == 0x3A && b == 0x20) || (previousByte == 0x20 && b == 0x23) { return false }
            previousByte = b
        }
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || v == 0x7F || (v >= 0x80 && v <= 0x9F) || v == 0x2028 || v == 0x2029 || v == 0xFEFF {
                return false
            }
            if inFlow && "[]{},".unicodeScalars.contains(scalar) { return false }
            if inFlow && previous == ":" && "[]{},".unicodeScalars.contains(scalar) { return false }
            previous = scalar
        }
        return true
    }

    /// `"text"` with YAML double-quoted escapes for `"`, `\`, control and break characters.
    static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            case "\u{07}": result += "\\a"
            case "\u{08}": result += "\\b"
            case "\u{0B}": result += "\\v"
            case "\u{0C}": result += "\\f"
            case "\u{1B}": result += "\\e"
            case "\u{85}": result += "\\N"
            case "\u{A0}": result += "\\_"
            case "\u{2028}": result += "\\L"
            case "\u{2029}": result += "\\P"
            case "\u{FEFF}": result += "\\uFEFF"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (scalar.value >= 0x80 && scalar.value <= 0x9F) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `'text'` with `'` doubled.
    static func singleQuoted(_ text: String) -> String {
        var result = "'"
        for character in text {
            result += character == "'" ? "''" : String(character)
        }
        return result + "'"
    }
}
