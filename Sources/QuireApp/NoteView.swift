import QuireModel
import QuireVault
import QuireYAML

/// A note to read where a search hit points (the page's "Read", for a phone that cannot open the
/// computer's editor): its body without front matter, cut at the hit's line into what comes
/// before and what comes from there, so that a page renders both and scrolls to the cut.
public struct NoteView: Sendable, Equatable {
    /// The note's Markdown before the hit's line.
    public var before: String
    /// The note's Markdown from the hit's line.
    public var from: String

    /// The note at `path` (relative to the vault) cut at `line` (1-based, front matter counted,
    /// as search cites it); nil when it cannot be read.
    public init?(path: String, line: Int, in vault: Vault) {
        guard Vault.isPlainRelativePath(path), path.lowercased().hasSuffix(".md"),
              let file = try? vault.io.read(vault.fullPath(path)).bytes else { return nil }
        let (body, firstLine) = FrontMatter.body(of: file)
        let lines = String(decoding: body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let cut = min(max(0, line - firstLine), lines.count)
        before = lines[..<cut].joined(separator: "\n")
        from = lines[cut...].joined(separator: "\n")
    }
}
