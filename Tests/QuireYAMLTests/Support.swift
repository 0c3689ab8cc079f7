@testable import QuireYAML

/// Runs one edit on a file given as text and returns the resulting text.
func edited(_ text: String, _ body: (inout FrontMatterEditor) throws(YAMLError) -> Void) throws(YAMLError) -> String {
    var editor = try FrontMatterEditor(text: text)
    try body(&editor)
    return editor.text
}

/// The error an edit throws (nil when it succeeds), and whether the file stayed unchanged.
func editError(_ text: String, _ body: (inout FrontMatterEditor) throws(YAMLError) -> Void) -> (YAMLError?, unchanged: Bool) {
    do {
        var editor = try FrontMatterEditor(text: text)
        do {
            try body(&editor)
            return (nil, editor.text == text)
        } catch {
            return (error, editor.text == text)
        }
    } catch {
        return (error, true)
    }
}

/// Lines that differ between two texts of the same line count, as (line number, old, new).
func changedLines(_ old: String, _ new: String) -> [(Int, Substring, Substring)] {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false)
    guard a.count == b.count else { return [(-1, "line count \(a.count)", "line count \(b.count)")] }
    return zip(a, b).enumerated().compactMap { $1.0 == $1.1 ? nil : ($0 + 1, $1.0, $1.1) }
}

/// An ugly but realistic front matter used by round-trip and edit tests.
let uglyFile = """
---
# leading comment
title: "Hello: world"   # trailing comment
'quoted key': value
日本語キー: naïve café
aliases: &base
  - one
  - two
copy: *base
tags: [a, b]   # flow
topics:
  - x
  - y # last topic
# between
notes: |
  Line one
  Line two

folded: >-
  Folded
  text
tab: "a\\tb\tc"
empty:
cards:
  c1: {due: 2024-01-05, stability: 3.2}   # c1
  c2: {due: 2024-01-06, stability: 1.0}
...
Body text
---
more

"""

/// `text` with the single occurrence of `old` replaced by `new` (records an issue unless exactly one).
func replacingOnce(_ text: String, _ old: String, _ new: String) -> String {
    let count = text.ranges(of: old).count
    precondition(count == 1, "expected exactly one occurrence of \(old), found \(count)")
    return text.replacing(old, with: new)
}

/// A dump of a node tree with every mark, for exact comparison.
func dump(_ node: YAMLNode?, _ out: inout [String]) {
    switch node {
    case nil: out.append("nil")
    case .scalar(let s)?:
        out.append("S \(s.value)|\(s.style)|\(s.tag ?? "")|\(s.anchor ?? "")|\(s.alias ?? "")|\(s.start.offset),\(s.start.line),\(s.start.column)-\(s.end.offset),\(s.end.line),\(s.end.column)")
    case .sequence(let q)?:
        out.append("Q \(q.isFlow) \(q.start.offset),\(q.start.line),\(q.start.column)-\(q.end.offset),\(q.end.line),\(q.end.column)")
        for item in q.items { dump(item, &out) }
    case .mapping(let m)?:
        out.append("M \(m.isFlow) \(m.start.offset),\(m.start.line),\(m.start.column)-\(m.end.offset),\(m.end.line),\(m.end.column)")
        for (k, v) in m.entries { dump(.scalar(k), &out); dump(v, &out) }
    }
}

/// A front matter's tree and ranges, every mark included.
func dump(_ frontMatter: FrontMatter) -> [String] {
    var out = ["\(frontMatter.hasBOM) \(frontMatter.lineEnding) \(String(describing: frontMatter.yamlRange)) \(String(describing: frontMatter.openingFenceRange)) \(String(describing: frontMatter.closingFenceRange)) \(frontMatter.bodyRange) \(frontMatter.bodyStartLine)"]
    dump(frontMatter.root.map(YAMLNode.mapping), &out)
    return out
}
