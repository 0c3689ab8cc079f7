/// What a ``MarkdownWalker`` wants after visiting a node.
public enum MarkdownWalkAction: Sendable {
    /// Visit the node's children next.
    case visitChildren
    /// Do not visit the node's descendants; continue with its next sibling.
    case skipChildren
}

/// Visits the nodes of a ``MarkdownDocument`` in document order (swift-markdown's `MarkupWalker`
/// idea over the flat node array).
///
/// For every node, `visit` is called before its descendants and `leave` after them; a node whose
/// children were skipped is left right after it is visited. Card extraction is such a walk.
public protocol MarkdownWalker {
    /// Called when the walk reaches `node` (`document.nodes[index]`).
    /// - Returns: whether to visit the node's children.
    mutating func visit(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) -> MarkdownWalkAction
    /// Called when the walk has finished `node` and its descendants. The default does nothing.
    mutating func leave(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument)
}

extension MarkdownWalker {
    /// Does nothing.
    public mutating func leave(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) {}
}
