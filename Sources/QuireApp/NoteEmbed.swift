import Foundation
import QuireMarkdown
import QuireModel
import QuireVault
import QuireYAML

/// What an Obsidian note embed shows (`![[Note]]`, `![[Note#Heading]]`): the note's body without
/// its front matter, or the section under the heading (to the next heading of its level or
/// higher), as Markdown — for a page or a screen to render in place.
public enum NoteEmbed {
    /// The most of a note an embed shows; the rest is cut with an ellipsis line.
    public static let maximumBytes = 20_000

    /// The Markdown `link` embeds from the note at `note` (a path relative to the vault), or nil
    /// when it names no note of the vault (a file embed, a missing note, a heading not found).
    public static func markdown(of link: MarkdownWikilink, fromNote note: String, in vault: Vault) -> String? {
        let target = link.note.isEmpty ? note : vault.notePath(named: link.note, fromNote: note)
        guard let target, target.lowercased().hasSuffix(".md"), Vault.isPlainRelativePath(target),
              let file = try? vault.io.read(vault.fullPath(target)).bytes else { return nil }
        let body = String(decoding: FrontMatter.body(of: file).bytes, as: UTF8.self)
        guard let heading = link.heading else { return cut(body) }
        return section(heading, of: body).map(cut)
    }

    /// The section under the heading named `heading` (compared without case), its heading left
    /// out, to the next heading of its level or higher; nil when there is none. The headings are
    /// cmark's: none in code, setext ones too.
    static func section(_ heading: String, of body: String) -> String? {
        let document = MarkdownDocument(parsing: body, options: .indexing)
        let headings = document.children(of: 0).filter { document.nodes[$0].kind == .heading }
        let wanted = heading.lowercased()
        guard let k = headings.firstIndex(where: { document.plainText(of: $0).trimmingSpaces().lowercased() == wanted }) else { return nil }
        let level = document.nodes[headings[k]].headingLevel
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        // Lines are 1-based: the section runs from the line after the heading to the line before
        // the next heading of its level or higher.
        let start = min(document.nodes[headings[k]].range.end.line, lines.count)
        let next = headings[(k + 1)...].first { document.nodes[$0].headingLevel <= level }
        let end = next.map { max(start, document.nodes[$0].range.start.line - 1) } ?? lines.count
        return lines[start..<end].joined(separator: "\n")
    }

    /// `markdown` cut to ``maximumBytes`` at a line's end.
    static func cut(_ markdown: String) -> String {
        guard markdown.utf8.count > maximumBytes else { return markdown }
        var kept = Substring(markdown).utf8.prefix(maximumBytes)
        if let newline = kept.lastIndex(of: 10) { kept = kept[..<newline] }
        return String(decoding: kept, as: UTF8.self) + "\n\n…"
    }

    /// `markdown` with each note embed `![[Note]]` or `![[Note#Heading]]` standing alone on its
    /// line replaced by what it embeds, as a quote (for a screen that draws Markdown); embeds in
    /// code (cmark's code blocks), of files, or of notes not found stay as written. At most 8 are
    /// expanded, and what they embed is not expanded again.
    public static func expanded(_ markdown: String, fromNote note: String, in vault: Vault) -> String {
        guard markdown.contains("![[") else { return markdown }
        let document = MarkdownDocument(parsing: markdown, options: .indexing)
        var code = IndexSet()
        for node in document.nodes where node.kind == .codeBlock || node.kind == .htmlBlock {
            code.insert(integersIn: node.range.start.line...max(node.range.start.line, node.range.end.line))
        }
        var out: [String] = []
        var expanded = 0
        for (k, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingSpaces()
            if expanded < 8, !code.contains(k + 1), trimmed.hasPrefix("![["), trimmed.hasSuffix("]]"), trimmed.count < 500,
               let link = MarkdownWikilink(embed: trimmed.dropFirst(3).dropLast(2)),
               let text = Self.markdown(of: link, fromNote: note, in: vault) {
                expanded += 1
                out += text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? ">" : "> " + $0 }
                continue
            }
            out.append(String(line))
        }
        return out.joined(separator: "\n")
    }
}
