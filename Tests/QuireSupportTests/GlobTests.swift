@testable import QuireSupport
import Testing

@Suite struct GlobTests {
    private func m(_ pattern: String, _ path: String) -> Bool { Glob(pattern).matches(path) }

    @Test func starStaysInOneFolder() {
        #expect(m("Biology/*.md", "Biology/a.md"))
        #expect(!m("Biology/*.md", "Biology/Cells/a.md"))
        #expect(m("Biology/*/a.md", "Biology/Cells/a.md"))
        #expect(!m("Biology/*/a.md", "Biology/Cells/Deep/a.md"))
    }

    @Test func doubleStarCrossesFolders() {
        #expect(m("Biology/**/mito*", "Biology/mitosis.md"))
        #expect(m("Biology/**/mito*", "Biology/Cells/Deep/mitochondria.md"))
        #expect(!m("Biology/**/mito*", "Chemistry/mito.md"))
        #expect(m("**/a.md", "a.md"))
        #expect(m("**/a.md", "x/y/a.md"))
        #expect(m("Biology/**", "Biology/x/y.md"))
    }

    @Test func questionMarkIsOneCharacterNotASlash() {
        #expect(m("x/a?c.md", "x/abc.md"))
        #expect(!m("x/a?c.md", "x/ac.md"))
        #expect(!m("x/a?c.md", "x/a/c.md"))
    }

    @Test func characterClasses() {
        #expect(m("[a-c]*.md", "b.md"))
        #expect(!m("[a-c]*.md", "d.md"))
        #expect(m("[!a-c]*.md", "d.md"))
        #expect(!m("[!a-c]*.md", "a.md"))
        #expect(m("[^a]x.md", "bx.md"))
        #expect(m("file[12].md", "file2.md"))
        #expect(!m("file[12].md", "file3.md"))
    }

    @Test func patternWithoutSlashMatchesAnyName() {
        #expect(m("*.md", "a.md"))
        #expect(m("*.md", "Biology/Cells/mitosis.md"))
        #expect(!m("*.md", "a.mdx"))
        #expect(m("mitosis*", "Biology/Cells/mitosis.md"))
        #expect(m("Cells", "Biology/Cells/mitosis.md"))
        #expect(m("Bio*", "Biology/x.md"))
        #expect(!m("Cell", "Biology/Cells/mitosis.md"))
    }

    @Test func folderPatternMatchesItsContents() {
        #expect(m("Biology/Cells", "Biology/Cells/mitosis.md"))
        #expect(m("Biology/Cells", "Biology/Cells/Deep/x.md"))
        #expect(!m("Biology/Cells", "Biology/CellsX/a.md"))
        #expect(!m("Biology/Cells", "Biology/cells.md"))
        #expect(m("Biology/Cells/", "Biology/Cells/mitosis.md"))
    }

    @Test func leadingSlashAnchorsAtTheRoot() {
        #expect(m("/a.md", "a.md"))
        #expect(!m("/a.md", "x/a.md"))
    }

    @Test func caseIsIgnored() {
        #expect(m("BIO*/*.MD", "biology/x.md"))
        #expect(m("biology/cells", "Biology/Cells/a.md"))
        #expect(Glob("X/*").description == "X/*")
    }

    /// A vault's `ignore:` list is untrusted: a pattern that makes a backtracking matcher try every
    /// way to split the name among its stars (exponential in them) must cost no more than the
    /// pattern's length times the path's.
    @Test func manyStarsDoNotBacktrack() {
        let stars = String(repeating: "*a", count: 30) + "*b"
        let name = String(repeating: "a", count: 5_000) + ".md"
        #expect(!m(stars, name))
        #expect(!m("x/" + stars, "x/" + name))
        #expect(!m(String(repeating: "**/a", count: 30) + "/b", String(repeating: "a/", count: 2_000) + "c"))
        #expect(m(stars + "*", name.dropLast(3) + "b.md"))
    }

    /// The automaton agrees with the plain backtracking definition of the same patterns on every
    /// small pattern and path drawn from an alphabet of the operators.
    @Test func agreesWithBacktrackingDefinition() {
        var rng = SplitMix64(seed: 37)
        let patternAlphabet: [Character] = ["a", "b", "/", "*", "*", "?", "[", "]", "!", "-"]
        let pathAlphabet: [Character] = ["a", "b", "a", "[", "-"]
        for _ in 0..<20_000 {
            let pattern = String((0..<Int.random(in: 0...9, using: &rng)).map { _ in patternAlphabet.randomElement(using: &rng) ?? "a" })
            let parts = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                String((0..<Int.random(in: 1...4, using: &rng)).map { _ in pathAlphabet.randomElement(using: &rng) ?? "a" })
            }
            let path = parts.joined(separator: "/")
            #expect(m(pattern, path) == BacktrackingGlob.matches(pattern, path), "\(pattern) on \(path)")
        }
    }
}

/// Glob's meaning written as the obvious recursive matcher (exponential on many stars): the oracle
/// for small cases.
private enum BacktrackingGlob {
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var p = pattern
        if p.hasPrefix("/") { p.removeFirst() }
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        let chars = Array(p.lowercased())
        let lower = path.lowercased()
        if pattern.contains("/") {
            if match(chars[...], Array(lower)[...]) { return true }
            let parts = lower.split(separator: "/")
            return (1..<max(1, parts.count)).contains { match(chars[...], Array(parts.prefix($0).joined(separator: "/"))[...]) }
        }
        return lower.split(separator: "/").contains { match(chars[...], Array($0)[...]) }
    }

    private static func match(_ p: ArraySlice<Character>, _ s: ArraySlice<Character>) -> Bool {
        guard let c = p.first else { return s.isEmpty }
        switch c {
        case "*":
            let isDouble = p.dropFirst().first == "*"
            let rest = p.dropFirst(isDouble ? 2 : 1)
            if isDouble, rest.first == "/" {
                let after = rest.dropFirst()
                if match(after, s) { return true }
                return s.indices.contains { s[$0] == "/" && match(after, s[($0 + 1)...]) }
            }
            var t = s
            while true {
                if match(rest, t) { return true }
                guard let first = t.first, isDouble || first != "/" else { return false }
                t = t.dropFirst()
            }
        case "?":
            guard let f = s.first, f != "/" else { return false }
            return match(p.dropFirst(), s.dropFirst())
        case "[":
            guard let close = p.dropFirst(2).firstIndex(of: "]") else {
                return s.first == "[" && match(p.dropFirst(), s.dropFirst())
            }
            guard let f = s.first, f != "/" else { return false }
            var set = p[(p.startIndex + 1)..<close]
            let negate = set.first == "!" || set.first == "^"
            if negate { set = set.dropFirst() }
            var found = false
            var k = set.startIndex
            while k < set.endIndex {
                if k + 2 < set.endIndex, set[k + 1] == "-" {
                    if set[k] <= f && f <= set[k + 2] { found = true }
                    k += 3
                } else {
                    if set[k] == f { found = true }
                    k += 1
                }
            }
            return found != negate && match(p[(close + 1)...], s.dropFirst())
        default:
            return s.first == c && match(p.dropFirst(), s.dropFirst())
        }
    }
}

