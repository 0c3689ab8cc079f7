/// Unified diffs (`diff -u` / `git diff` style) of two versions of a file, for `--dry-run`.
public enum UnifiedDiff {
    /// The diff of `old` and `new`, labelled `a/path` and `b/path`, with `context` lines around each
    /// change; empty when the texts are equal.
    public static func make(old: [UInt8], new: [UInt8], path: String, context: Int = 3) -> String {
        let a = lines(old), b = lines(new)
        guard a != b else { return "" }
        // Mark each line as kept, removed or inserted, in order.
        let diff = b.difference(from: a)
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in diff {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        enum Op { case keep(Int, Int), remove(Int), insert(Int) }
        var ops: [Op] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, removed.contains(i) { ops.append(.remove(i)); i += 1 }
            else if j < b.count, inserted.contains(j) { ops.append(.insert(j)); j += 1 }
            else if i < a.count, j < b.count { ops.append(.keep(i, j)); i += 1; j += 1 }
            else if i < a.count { ops.append(.remove(i)); i += 1 }
            else { ops.append(.insert(j)); j += 1 }
        }
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
