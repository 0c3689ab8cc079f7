import Testing
@testable import QuireModel

@Suite struct DiagnosticTests {
    @Test func descriptionLeavesOutUnknownParts() {
        #expect(Diagnostic(.error, path: "a.md", line: 3, column: 7, message: "bad").description == "a.md:3:7: error: bad")
        #expect(Diagnostic(.warning, path: "a.md", line: 3, message: "w").description == "a.md:3: warning: w")
        #expect(Diagnostic(.note, path: "a.md", message: "n").description == "a.md: note: n")
        #expect(Diagnostic(.note, path: "a.md", column: 4, message: "n").description == "a.md: note: n")
    }

    @Test func severityOrder() {
        #expect(Diagnostic.Severity.note < .warning)
        #expect(Diagnostic.Severity.warning < .error)
        #expect(!(Diagnostic.Severity.error < .error))
    }
}
