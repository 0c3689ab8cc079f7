import Testing
@testable import QuireMarkdown

@Suite struct SourceLocationTests {
    @Test func ordersByLineThenColumn() {
        #expect(SourceLocation(line: 1, column: 9) < SourceLocation(line: 2, column: 1))
        #expect(SourceLocation(line: 2, column: 1) < SourceLocation(line: 2, column: 3))
        #expect(!(SourceLocation(line: 2, column: 3) < SourceLocation(line: 2, column: 3)))
    }

    @Test func rangeContainsItsEnds() {
        let range = SourceRange(2, 3, 4, 5)
        #expect(range.contains(SourceLocation(line: 2, column: 3)))
        #expect(range.contains(SourceLocation(line: 4, column: 5)))
        #expect(range.contains(SourceLocation(line: 3, column: 99)))
        #expect(!range.contains(SourceLocation(line: 4, column: 6)))
        #expect(range.description == "2:3-4:5")
    }

    @Test func lineTableHandlesAllLineEndings() {
        let bytes = Array("a\nbc\r\nd\re".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let table = LineTable(buffer)
            #expect(table.lineCount == 4)
            #expect(table.location(of: 3) == SourceLocation(line: 2, column: 2))
            #expect(table.location(of: 6) == SourceLocation(line: 3, column: 1))
            #expect(table.contentEnd(of: 2, in: buffer) == 4)
            #expect(table.line(containing: 9, hint: 1) == 4)
        }
    }
}
