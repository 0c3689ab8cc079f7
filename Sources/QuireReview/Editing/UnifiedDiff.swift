/// Unified diffs (`diff -u` / `git diff` style) of two versions of a file, for `--dry-run`.
public enum UnifiedDiff {
    /// The diff of `old` and `new`, labelled `a/path` and `b/path`, with `context` lines around each
    /// change; empty when the texts are equal.
    public static func make(old: [UInt8], new: [UInt8], path: String, context: Int = 3) -> String {
        let a = lines(old), b = lines(new)
        guard a != b else { return "" }
        let ops = operations(a, b)
        // Line numbers (0-based) in each file just before each op.
        var oldBefore: [Int] = [], newBefore: [Int] = []
        var o = 0, n = 0
        for op in ops {
            oldBefore.append(o)
            newBefore.append(n)
            switch op {
            case .keep: o += 1; n += 1
            case .remove: o += 1
            case .insert: n += 1
            }
        }
        // Group changes that are within 2 * context lines of each other into hunks.
        var out = "--- a/\(path)\n+++ b/\(path)\n"
        var k = 0
        while k < ops.count {
            guard let firstChange = ops[k...].firstIndex(where: { if case .keep = $0 { false } else { true } }) else { break }
            let start = max(k, firstChange - context)
            var lastChange = firstChange
            var end = firstChange
            while end < ops.count {
                if case .keep = ops[end] {
                    if end - lastChange > 2 * context { break }
                } else {
                    lastChange = end
                }
                end += 1
            }
            let stop = min(ops.count, lastChange + context + 1)
            var oldCount = 0, newCount = 0
            var body = ""
            for op in ops[start..<stop] {
                switch op {
                case .keep(let x, _):
                    oldCount += 1; newCount += 1
                    body += " " + a[x] + "\n"
                case .remove(let x):
                    oldCount += 1
                    body += "-" + a[x] + "\n"
                case .insert(let y):
                    newCount += 1
                    body += "+" + b[y] + "\n"
                }
            }
            out += "@@ -\(range(oldBefore[start], oldCount)) +\(range(newBefore[start], newCount)) @@\n" + body
            k = stop
        }
        return out
    }

    /// One step of a diff: a line kept (its numbers in both), removed (in the old) or inserted (in the new).
    enum Op: Equatable { case keep(Int, Int), remove(Int), insert(Int) }

    /// The changed region (after the lines both begin and end with) longest that is diffed line by
    /// line; a longer one is shown as removed, then inserted. Swift's Myers diff costs the region's
    /// length times the number of changes: a 50 MB note written new took minutes.
    static let maximumDiffedLines = 4_000

    /// Each line kept, removed or inserted, in order: the lines both texts begin and end with kept,
    /// the region between diffed line by line (or as one block past ``maximumDiffedLines``).
    static func operations(_ a: [String], _ b: [String]) -> [Op] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = prefix..<(a.count - suffix), newMiddle = prefix..<(b.count - suffix)
        var ops: [Op] = (0..<prefix).map { .keep($0, $0) }
        ops.reserveCapacity(a.count + b.count)
        if oldMiddle.isEmpty || newMiddle.isEmpty || oldMiddle.count + newMiddle.count > maximumDiffedLines {
            ops += oldMiddle.map { .remove($0) }
            ops += newMiddle.map { .insert($0) }
        } else {
            var removed = Set<Int>(), inserted = Set<Int>()
            for change in b[newMiddle].difference(from: a[oldMiddle]) {
                switch change {
                case .remove(let offset, _, _): removed.insert(prefix + offset)
                case .insert(let offset, _, _): inserted.insert(prefix + offset)
                }
            }
            var i = oldMiddle.lowerBound, j = newMiddle.lowerBound
            while i < oldMiddle.upperBound || j < newMiddle.upperBound {
                if i < oldMiddle.upperBound, removed.contains(i) { ops.append(.remove(i)); i += 1 }
                else if j < newMiddle.upperBound, inserted.contains(j) { ops.append(.insert(j)); j += 1 }
                else if i < oldMiddle.upperBound, j < newMiddle.upperBound { ops.append(.keep(i, j)); i += 1; j += 1 }
                else if i < oldMiddle.upperBound { ops.append(.remove(i)); i += 1 }
                else { ops.append(.insert(j)); j += 1 }
            }
        }
        for k in 0..<suffix { ops.append(.keep(a.count - suffix + k, b.count - suffix + k)) }
        return ops
    }

    /// `start,count` as diff prints it (1-based; an empty range names the line before it).
    private static func range(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
    }

    /// Lines without their `\n` / `\r\n`; a final line ending does not start an extra line.
    static func lines(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 10 {
            var end = i
            if end > start, bytes[end - 1] == 13 { end -= 1 }
            out.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = i + 1
        }
        if start < bytes.count { out.append(String(decoding: bytes[start...], as: UTF8.self)) }
        return out
    }
}
