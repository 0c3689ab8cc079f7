/// The anchor a transcribed recording's note marks each section with: `<!-- time 12:34 -->` (or
/// `<!-- time 1:02:03 -->`) alone on a line, the time from the start of the recording (FORMAT.md
/// §8). An HTML comment, so it shows nowhere when the note is rendered.
public enum TimeAnchor {
    /// The anchor line for `seconds` from the start.
    public static func line(_ seconds: Int) -> String { "<!-- time \(clock(seconds)) -->" }

    /// `seconds` as a clock reading: `m:ss` below an hour, `h:mm:ss` from an hour on.
    public static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }

    /// The seconds an anchor line names, or nil when the line is not one.
    public static func seconds(of line: Substring) -> Int? {
        var t = line
        while t.last == " " || t.last == "\t" { t = t.dropLast() }
        guard t.hasPrefix("<!-- time "), t.hasSuffix(" -->") else { return nil }
        return seconds(clock: t.dropFirst(10).dropLast(4))
    }

    /// The seconds of a clock reading `m:ss` or `h:mm:ss` (minutes and seconds below 60 after the
    /// first part), or nil.
    public static func seconds(clock text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
        var total = 0
        for (k, part) in parts.enumerated() {
            guard let n = Int(part), k == 0 || n < 60 else { return nil }
            total = total * 60 + n
        }
        return total
    }

    /// The seconds a live note cites: a list item `- **m:ss** text` (the `## Live notes` of a
    /// transcribed recording's note, FORMAT.md §8), or nil when the line is not one.
    public static func seconds(ofLiveNote line: Substring) -> Int? {
        var t = line.drop { $0 == " " }
        guard let marker = t.first, marker == "-" || marker == "*" || marker == "+" else { return nil }
        t = t.dropFirst()
        guard t.first == " " else { return nil }
        t = t.drop { $0 == " " }
        guard t.hasPrefix("**") else { return nil }
        t = t.dropFirst(2)
        guard let close = t.firstIndex(of: "*"), t[close...].hasPrefix("** ") else { return nil }
        return seconds(clock: t[..<close])
    }
}
