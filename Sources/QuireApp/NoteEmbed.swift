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

    /// The section under the heading named `heading` (compared without case or `#`s), its heading
    /// line left out; nil when there is none. Headings inside fenced code are not headings.
    static func section(_ heading: String, of body: String) -> String? {
        let wanted = heading.lowercased()
        var level: Int?
        var lines: [Substring] = []
        var fence: Substring?
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix { $0 == trimmed.first }
            } else if let (depth, text) = atxHeading(line) {
                if let open = level {
                    if depth <= open { break }
                } else if text.lowercased() == wanted {
                    level = depth
                    continue
                }
            }
            if level != nil { lines.append(line) }
        }
        guard level != nil else { return nil }
        return lines.joined(separator: "\n")
    }

    /// An ATX heading's level and text (`## Text ##` → 2, `Text`).
    static func atxHeading(_ line: Substring) -> (Int, String)? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), line.count == hashes || line.dropFirst(hashes).first == " " else { return nil }
        var text = line.dropFirst(hashes).trimmingSpaces()
        while text.hasSuffix("#") { text.removeLast() }
        return (hashes, text.trimmingSpaces())
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
    /// fenced code, of files, or of notes not found stay as written. At most 8 are expanded, and
    /// what they embed is not expanded again.
    public static func expanded(_ markdown: String, fromNote note: String, in vault: Vault) -> String {
        guard markdown.contains("![[") else { return markdown }
        var out: [String] = []
        var fence: Substring?
        var expanded = 0
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingSpaces()
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix { $0 == trimmed.first }
            } else if expanded < 8, trimmed.hasPrefix("![["), trimmed.hasSuffix("]]"), trimmed.count < 500,
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
