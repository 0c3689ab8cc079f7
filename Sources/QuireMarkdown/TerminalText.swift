import QuireSupport

/// Text from a vault made safe to print: a note, a tag or a file name could otherwise hold escape
/// sequences that set the window title, write the clipboard (OSC 52) or clear the screen.
///
/// Control characters are shown the way `cat -v` and git show them, so nothing is hidden and
/// nothing acts: C0 characters as `^@`…`^_` (tab and line feed kept, and a carriage return that
/// ends a line before its line feed), DEL as `^?`, ESC as `^[`, and C1 characters
/// (U+0080–U+009F) as `<U+009B>`. A carriage return on its own would send the cursor back over
/// what the line showed, so it is `^M`.
public enum TerminalText {
    /// `text` with its control characters made visible; `keepLineBreaks` false also shows line
    /// feeds and carriage returns (for one-line fields such as file names).
    public static func visible(_ text: String, keepLineBreaks: Bool = true) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = text.unicodeScalars
        for index in scalars.indices {
            let scalar = scalars[index]
            let v = scalar.value
            switch v {
            case 0x09: out.append(scalar)
            case 0x0A where keepLineBreaks: out.append(scalar)
            case 0x0D where keepLineBreaks && scalars.index(after: index) < scalars.endIndex
                && scalars[scalars.index(after: index)] == "\n":
                out.append(scalar)
            case 0..<0x20:
                out.append("^")
                out.append(Unicode.Scalar(UInt8(v + 0x40)))
            case 0x7F:
                out.appendScalars("^?".unicodeScalars)
            case 0x80...0x9F:
                let hex = String(v, radix: 16, uppercase: true)
                out.appendScalars("<U+00\(hex)>".unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `text` holds a character ``visible(_:keepLineBreaks:)`` would change.
    public static func needsEscaping(_ text: String) -> Bool { visible(text) != text }
}
