import Testing
@testable import QuireMarkdown

/// Records visit/leave events; skips the children of the kinds in `skip`.
struct EventRecorder: MarkdownWalker {
    var skip: Set<MarkdownNodeKind> = []
    var events: [String] = []

    mutating func visit(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) -> MarkdownWalkAction {
        events.append("+\(node.kind)")
        return skip.contains(node.kind) ? .skipChildren : .visitChildren
    }

    mutating func leave(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) {
        events.append("-\(node.kind)")
    }
}

/// Uses only `visit` (the default `leave`).
struct CodeCollector: MarkdownWalker {
    var codes: [String] = []
    mutating func visit(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) -> MarkdownWalkAction {
        if node.kind == .code { codes.append(node.literal ?? "") }
        return node.kind == .blockQuote ? .skipChildren : .visitChildren
    }
}

@Suite struct MarkdownWalkerTests {
    @Test func visitAndLeaveNestInDocumentOrder() {
        let document = MarkdownDocument(parsing: "# H\n\n- a *b*\n")
        var recorder = EventRecorder()
        document.walk(&recorder)
        #expect(recorder.events == [
            "+document", "+heading", "+text", "-text", "-heading",
            "+list", "+item", "+paragraph", "+text", "-text", "+emphasis", "+text", "-text", "-emphasis",
            "-paragraph", "-item", "-list", "-document",
        ])
    }

    @Test func skipChildrenLeavesRightAway() {
        let document = MarkdownDocument(parsing: "> q `x`\n\np `y`\n")
        var recorder = EventRecorder(skip: [.blockQuote])
        document.walk(&recorder)
        #expect(recorder.events == [
            "+document", "+blockQuote", "-blockQuote", "+paragraph", "+text", "-text", "+code", "-code",
            "-paragraph", "-document",
        ])
        var collector = CodeCollector()
        document.walk(&collector)
        #expect(collector.codes == ["y"])
    }
}
