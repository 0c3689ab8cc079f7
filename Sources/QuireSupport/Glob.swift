/// A shell-style pattern over `/`-separated paths: `*` and `?` stay within one folder, `**` crosses
/// folders, `[abc]` / `[!a-z]` match one character. Matching ignores case. A pattern with no `/`
/// matches the file name in any folder (`*.md`, `mitosis*`), like `.gitignore` patterns.
public struct Glob: Equatable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let steps: [Step]
    private let anchored: Bool

    /// One step of a compiled pattern, a state of the automaton `matches` runs.
    private enum Step: Equatable, Sendable {
        /// One character equal to this one.
        case literal(Character)
        /// One character but `/` (`?`).
        case one
        /// One character but `/`, in the set or (`negated`) out of it: single characters and ranges.
        case set([ClosedRange<Character>], negated: Bool)
        /// Any run of characters but `/` (`*`).
        case star
        /// Any run of characters (`**` not before a `/`).
        case anything
        /// Nothing, or any run of characters ending with `/` (`**/`: zero or more whole folders); the
        /// step after it stands for the run begun.
        case folders
        /// Inside the run `folders` began.
        case inFolders
    }

    /// Compiles a pattern.
    public init(_ pattern: String) {
        self.pattern = pattern
        var p = pattern
        if p.hasPrefix("/") { p.removeFirst() }
        // `Biology/Cells/` names the folder, as `Biology/Cells` does.
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        steps = Self.compile(Array(p.lowercased()))
        anchored = pattern.contains("/")
    }

    public var description: String { pattern }

    /// Whether `path` (relative, `/`-separated) matches. A pattern naming a folder (`Biology`,
    /// `Biology/Cells`) also matches everything inside it. Time is linear in the path for a given
    /// pattern (their lengths' product at most), whatever the pattern: no backtracking.
    public func matches(_ path: String) -> Bool {
        let lower = Array(path.lowercased())
        if anchored {
            // The whole path, or a folder it lies in: the pattern matched up to a `/`.
            return run(lower[...], acceptBeforeSlash: true)
        }
        // Unanchored: match any single component (file or folder name).
        return lower.split(separator: "/").contains { run($0, acceptBeforeSlash: false) }
    }

    private static func compile(_ p: [Character]) -> [Step] {
        var steps: [Step] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case "*":
                if i + 1 < p.count, p[i + 1] == "*" {
                    if i + 2 < p.count, p[i + 2] == "/" {
                        steps += [.folders, .inFolders]
                        i += 3
                    } else {
                        steps.append(.anything)
                        i += 2
                    }
                } else {
                    steps.append(.star)
                    i += 1
                }
            case "?":
                steps.append(.one)
                i += 1
            case "[":
                // A set needs a `]` after its first member (`[]a]` holds `]`); a `[` with none is itself.
                guard i + 2 < p.count, let close = p[(i + 2)...].firstIndex(of: "]") else {
                    steps.append(.literal("["))
                    i += 1
                    continue
                }
                var members = p[(i + 1)..<close]
                let negated = members.first == "!" || members.first == "^"
                if negated { members = members.dropFirst() }
                var ranges: [ClosedRange<Character>] = []
                var k = members.startIndex
                while k < members.endIndex {
                    let lo = members[k]
                    if k + 2 < members.endIndex, members[k + 1] == "-" {
                        let hi = members[k + 2]
                        if lo <= hi { ranges.append(lo...hi) }
                        k += 3
                    } else {
                        ranges.append(lo...lo)
                        k += 1
                    }
                }
                steps.append(.set(ranges, negated: negated))
                i = close + 1
            default:
                steps.append(.literal(p[i]))
                i += 1
            }
        }
        return steps
    }

    /// Runs the pattern's automaton over `s`, all its live states at once: whether it accepts the
    /// whole of `s`, or (`acceptBeforeSlash`) the part before one of its `/`.
    private func run(_ s: ArraySlice<Character>, acceptBeforeSlash: Bool) -> Bool {
        let end = steps.count
        var live = [Bool](repeating: false, count: end + 1)
        var next = live
        live[0] = true
        close(&live)
        for c in s {
            if c == "/", acceptBeforeSlash, live[end] { return true }
            for i in 0..<end where live[i] {
                switch steps[i] {
                case .literal(let l): if l == c { next[i + 1] = true }
                case .one: if c != "/" { next[i + 1] = true }
                case .set(let ranges, let negated):
                    if c != "/", ranges.contains(where: { $0.contains(c) }) != negated { next[i + 1] = true }
                case .star: if c != "/" { next[i] = true }
                case .anything: next[i] = true
                case .folders:
                    next[i + 1] = true
                    if c == "/" { next[i + 2] = true }
                case .inFolders:
                    next[i] = true
                    if c == "/" { next[i + 1] = true }
                }
            }
            swap(&live, &next)
            for i in next.indices { next[i] = false }
            close(&live)
            if !live.contains(true) { return false }
        }
        return live[end]
    }

    /// Adds to `live` the states reached without reading a character: past a `*`, `**` or `**/`
    /// that matches nothing. Such moves only go forward, so one pass in order finds them all.
    private func close(_ live: inout [Bool]) {
        for i in steps.indices where live[i] {
            switch steps[i] {
            case .star, .anything: live[i + 1] = true
            case .folders: live[i + 2] = true
            default: break
            }
        }
    }
}
