@testable import QuireMarkdown

/// The source bytes a range covers (ends inclusive), lines joined by "\n".
func slice(_ source: String, _ range: SourceRange, lineOffset: Int = 0) -> String {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
    var out: [UInt8] = []
    let first = range.start.line - lineOffset
    let last = range.end.line - lineOffset
    guard first >= 1, last <= lines.count, first <= last else { return "<bad range \(range)>" }
    for line in first...last {
        let bytes = lines[line - 1]
        let from = line == first ? range.start.column - 1 : 0
        let to = line == last ? range.end.column : bytes.count
        guard from >= 0, from <= to, to <= bytes.count + 1 else { return "<bad range \(range)>" }
        out += bytes[from..<min(to, bytes.count)]
        if to > bytes.count { out.append(10) }
        if line != last, to <= bytes.count { out.append(10) }
    }
    return String(decoding: out, as: UTF8.self)
}

extension MarkdownDocument {
    /// Indices of all nodes of a kind, in document order.
    func indices(of kind: MarkdownNodeKind) -> [Int] {
        nodes.indices.filter { nodes[$0].kind == kind }
    }

    /// The first node of a kind.
    func first(_ kind: MarkdownNodeKind) -> MarkdownNode? {
        nodes.first { $0.kind == kind }
    }

    /// `kind range [literal]` lines for whole-tree comparisons.
    var outline: String {
        nodes.enumerated().map { index, node in
            var depth = 0
            var parent = node.parent
            while let current = parent {
                depth += 1
                parent = nodes[current].parent
            }
            let literal = node.literal.map { " \"" + $0.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") + "\"" } ?? ""
            return String(repeating: "  ", count: depth) + "\(node.kind) \(node.range)\(literal)"
        }.joined(separator: "\n")
    }
}
