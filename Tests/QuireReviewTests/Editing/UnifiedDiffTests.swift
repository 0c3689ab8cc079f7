@testable import QuireReview
import Testing

@Suite struct UnifiedDiffTests {
    private func diff(_ old: String, _ new: String, context: Int = 3) -> String {
        UnifiedDiff.make(old: Array(old.utf8), new: Array(new.utf8), path: "dir/n.md", context: context)
    }

    private func numbered(_ range: ClosedRange<Int>) -> String { range.map { "l\($0)\n" }.joined() }

    @Test func equalTextsGiveNothing() {
        #expect(diff("a\nb\n", "a\nb\n") == "")
        #expect(diff("", "") == "")
        // Only the line ending of the last line differs: lines are equal, so no diff.
        #expect(diff("a\nb", "a\nb\n") == "")
    }

    /// A new file of many equal lines (a CSV field of 50 MB of short lines took minutes in Swift's
    /// Myers diff): all inserted, in one pass. A changed region past the limit is shown removed,
    /// then inserted, between the lines both texts share at either end.
    @Test func longRegionsAreOneBlockAndSharedEndsAreKept() {
        let many = [String](repeating: "same", count: 200_000)
        #expect(UnifiedDiff.operations([], many) == (0..<200_000).map { .insert($0) })
        let old = ["a", "b"] + (0..<3_000).map { "old \($0)" } + ["y", "z"]
        let new = ["a", "b"] + (0..<3_000).map { "new \($0)" } + ["y", "z"]
        let ops = UnifiedDiff.operations(old, new)
        #expect(ops.prefix(2) == [.keep(0, 0), .keep(1, 1)])
        #expect(ops.suffix(2) == [.keep(3_002, 3_002), .keep(3_003, 3_003)])
        #expect(Array(ops.dropFirst(2).prefix(3_000)) == (2..<3_002).map { .remove($0) })
        #expect(Array(ops.dropFirst(3_002).prefix(3_000)) == (2..<3_002).map { .insert($0) })
        // Under the limit, line by line as before.
        #expect(UnifiedDiff.operations(["a", "x", "c"], ["a", "c", "d"]) == [.keep(0, 0), .remove(1), .keep(2, 1), .insert(2)])
    }

    @Test func oneChangedLineInTheMiddle() {
        let old = numbered(1...9)
        let new = old.replacingOccurrences(of: "l5\n", with: "five\n")
        #expect(diff(old, new) == """
            --- a/dir/n.md
            +++ b/dir/n.md
            @@ -2,7 +2,7 @@
             l2
             l3
             l4
            -l5
            +five
             l6
             l7
             l8

            """)
    }

    @Test func changeAtFileStart() {
        #expect(diff("---\ntitle: A\n---\nbody\nmore\nend\nx\n", "---\ntags: [t]\ntitle: A\n---\nbody\nmore\nend\nx\n") == """
            --- a/dir/n.md
            +++ b/dir/n.md
            @@ -1,4 +1,5 @@
             ---
            +tags: [t]
             title: A
             ---
             body

            """)
    }

    @Test func insertionAtTheVeryStart() {
        #expect(diff("a\nb\n", "new\na\nb\n") == "--- a/dir/n.md\n+++ b/dir/n.md\n@@ -1,2 +1,3 @@\n+new\n a\n b\n")
    }

    @Test func changeAtFileEnd() {
        #expect(diff(numbered(1...6), numbered(1...5) + "six\nseven\n") == """
            --- a/dir/n.md
            +++ b/dir/n.md
            @@ -3,4 +3,5 @@
             l3
             l4
             l5
            -l6
            +six
            +seven

            """)
    }

    @Test func twoHunksWhenChangesAreFarApart() {
        let old = numbered(1...20)
        let new = old.replacingOccurrences(of: "l2\n", with: "two\n").replacingOccurrences(of: "l18\n", with: "")
        #expect(diff(old, new) == """
            --- a/dir/n.md
            +++ b/dir/n.md
            @@ -1,5 +1,5 @@
             l1
            -l2
            +two
             l3
             l4
             l5
            @@ -15,6 +15,5 @@
             l15
             l16
             l17
            -l18
             l19
             l20

            """)
    }

    @Test func nearbyChangesShareAHunk() {
        let old = numbered(1...12)
        let new = old.replacingOccurrences(of: "l3\n", with: "three\n").replacingOccurrences(of: "l9\n", with: "nine\n")
        #expect(diff(old, new) == """
            --- a/dir/n.md
            +++ b/dir/n.md
            @@ -1,12 +1,12 @@
             l1
             l2
            -l3
            +three
             l4
             l5
             l6
             l7
             l8
            -l9
            +nine
             l10
             l11
             l12

            """)
    }

    @Test func contextZeroAndEmptyFiles() {
        #expect(diff("a\nb\nc\n", "a\nB\nc\n", context: 0) == "--- a/dir/n.md\n+++ b/dir/n.md\n@@ -2 +2 @@\n-b\n+B\n")
        #expect(diff("", "x\n") == "--- a/dir/n.md\n+++ b/dir/n.md\n@@ -0,0 +1 @@\n+x\n")
        #expect(diff("x\ny\n", "") == "--- a/dir/n.md\n+++ b/dir/n.md\n@@ -1,2 +0,0 @@\n-x\n-y\n")
    }

    @Test func pureDeletionWithContextZeroNamesTheLineBefore() {
        #expect(diff("a\nb\nc\n", "a\nc\n", context: 0) == "--- a/dir/n.md\n+++ b/dir/n.md\n@@ -2 +1,0 @@\n-b\n")
    }

    @Test func crlfLinesAreComparedWithoutTheirEnding() {
        #expect(diff("a\r\nb\r\n", "a\r\nc\r\n") == "--- a/dir/n.md\n+++ b/dir/n.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
        #expect(UnifiedDiff.lines(Array("a\r\nb\nc".utf8)) == ["a", "b", "c"])
        #expect(UnifiedDiff.lines(Array("a\n\n".utf8)) == ["a", ""])
    }
}
