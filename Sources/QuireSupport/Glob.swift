/// A shell-style pattern over `/`-separated paths: `*` and `?` stay within one folder, `**` crosses
/// folders, `[abc]` / `[!a-z]` match one character. Matching ignores case. A pattern with no `/`
/// matches the file name in any folder (`*.md`, `mitosis*`), like `.gitignore` patterns.
public struct Glob: Equatable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let chars: [Character]
    private let anchored: Bool

    /// Compiles a pattern.
    public init(_ pattern: String) {
        self.pattern = pattern
        var p = pattern
        if p.hasPrefix("/") { p.removeFirst() }
        // `Biology/Cells/` names the folder, as `Biology/Cells` does.
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        chars = Array(p.lowercased())
        anchored = pattern.contains("/")
    }

    public var description: String { pattern }

    /// Whether `path` (relative, `/`-separated) matches. A pattern naming a folder (`Biology`,
    /// `Biology/Cells`) also matches everything inside it.
    public func matches(_ path: String) -> Bool {
        let lower = path.lowercased()
        if anchored {
            if Self.match(chars[...], Array(lower)[...]) { return true }
            // A folder pattern matches its contents.
            let parts = lower.split(separator: "/")
            for n in 1..<max(1, parts.count) where Self.match(chars[...], Array(parts.prefix(n).joined(separator: "/"))[...]) {
                return true
            }
            return false
        }
        // Unanchored: match any single component (file or folder name).
        return lower.split(separator: "/").contains { Self.match(chars[...], Array($0)[...]) }
    }

    private static func match(_ p: ArraySlice<Character>, _ s: ArraySlice<Character>) -> Bool {
        var p = p, s = s
        while let c = p.first {
            switch c {
            case "*":
                let isDouble = p.dropFirst().first == "*"
                p = p.dropFirst(isDouble ? 2 : 1)
                if isDouble, p.first == "/" {
                    // `**/` matches zero or more whole folders.
                    let rest = p.dropFirst()
                    if match(rest, s) { return true }
                    var t = s
                    while let slash = t.firstIndex(of: "/") {
                        t = t[t.index(after: slash)...]
                        if match(rest, t) { return true }
                    }
                    return false
                }
                var t = s
                while true {
                    if match(p, t) { return true }
                    guard let first = t.first, isDouble || first != "/" else { return false }
                    t = t.dropFirst()
                }
            case "?":
                guard let f = s.first, f != "/" else { return false }
                p = p.dropFirst(); s = s.dropFirst()
            case "[":
                guard let f = s.first, f != "/", let close = p.dropFirst(2).firstIndex(of: "]") else {
                    if s.first == "[" { p = p.dropFirst(); s = s.dropFirst(); continue }
                    return false
                }
                var set = p[p.index(after: p.startIndex)..<close]
                let negate = set.first == "!" || set.first == "^"
                if negate { set = set.dropFirst() }
                var found = false
                var k = set.startIndex
                while k < set.endIndex {
                    let lo = set[k]
                    let next = set.index(after: k)
                    if next < set.endIndex, set[next] == "-", set.index(after: next) < set.endIndex {
                        let hi = set[set.index(after: next)]
                        if lo <= f && f <= hi { found = true }
                        k = set.index(after: set.index(after: next))
                    } else {
                        if lo == f { found = true }
                        k = next
                    }
                }
                guard found != negate else { return false }
                p = p[p.index(after: close)...]
                s = s.dropFirst()
            default:
                guard s.first == c else { return false }
                p = p.dropFirst(); s = s.dropFirst()
            }
        }
        return s.isEmpty
    }
}
