import QuireApp
import QuireMarkdown
import QuireModel
import QuireSupport
import QuireSystem
import QuireVault

/// A card's two sides as HTML for the page: Markdown through cmark-gfm's safe renderer (a vault's
/// raw HTML never reaches the page), math kept byte for byte for KaTeX, the text a cloze hid
/// marked on the back, and the vault's images, sounds and videos linked through ``VaultFiles``.
struct CardHTML: Sendable {
    let vault: Vault
    /// The run's link key, which the page's file addresses carry (``RequestGate``).
    let linkKey: String

    init(vault: Vault, linkKey: String = "") {
        self.vault = vault
        self.linkKey = linkKey
    }

    /// The front and the back of `card`, a card of `note`.
    func faces(of card: Card, in note: Note) -> (front: String, back: String) {
        let front = html(card.front, notePath: note.path, side: true)
        guard card.kind == .cloze else { return (front, html(card.back, notePath: note.path, side: true)) }
        let (marked, start, end) = MarkdownHTMLRenderer.revealMarks(back: card.back, hiddenIn: card.front)
        var back = ""
        for c in html(marked, notePath: note.path, side: true) {
            switch c {
            case start: back += "<mark class=\"cloze\">"
            case end: back += "</mark>"
            default: back.append(c)
            }
        }
        return (front, back)
    }

    /// Markdown of the note at `notePath` as HTML for the page; a card's side (`side`) with its
    /// line breaks.
    func html(_ markdown: String, notePath: String, side: Bool = false) -> String {
        // A card's sides show their line breaks, as Anki and Obsidian show them; wikilinks show
        // their labels, embeds what they embed.
        let notes = embeddedNotes(markdown, notePath: notePath)
        let renderer = MarkdownHTMLRenderer(highlights: .mark, lineBreaks: side, wikilinkURL: { _ in "" },
                                            embedHTML: { [vault] link in Self.embed(link, notePath: notePath, notes: notes, vault: vault) })
        return linkingMedia(Self.rendered(markdown, by: renderer), notePath: notePath)
    }

    /// `markdown` rendered, its math kept byte for byte for KaTeX (as TeX where the renderer fails).
    static func rendered(_ markdown: String, by renderer: MarkdownHTMLRenderer) -> String {
        let (protected, spans) = MathSpans.protect(markdown)
        let html = (try? renderer.render(protected)) ?? "<p>" + HTMLText.escaped(protected) + "</p>"
        return MathSpans.restore(html, spans, mathElement)
    }

    /// A math span as the page's element: KaTeX renders each element's text (PageScript); shown
    /// as TeX where it is missing.
    static func mathElement(_ span: MathSpans.Span) -> String {
        "<span class=\"math\" data-display=\"\(span.display ? "1" : "0")\">" + HTMLText.escaped(span.tex) + "</span>"
    }

    /// The HTML of an embed `![[target]]`: an image (`|300` its width) or a link a player is made
    /// of (``linkingMedia(_:notePath:)`` points them at the vault's files), a note's section as
    /// `notes` holds it, or the target marked missing.
    static func embed(_ link: MarkdownWikilink, notePath: String, notes: [String: String], vault: Vault) -> String? {
        let target = Self.target(of: link)
        if let html = notes[target] { return "<blockquote class=\"embed\">" + html + "</blockquote>" }
        let ext = link.note.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard link.note.contains("."), Vault.openableExtensions.contains(ext), vault.attachmentPath(link.note, fromNote: notePath) != nil else {
            return "<span class=\"embed missing\">" + HTMLText.escaped(target) + "</span>"
        }
        if sounds.contains(ext) || videos.contains(ext) || ext == "pdf" {
            return "<a href=\"" + HTMLText.escaped(link.note) + "\">" + HTMLText.escaped(link.note) + "</a>"
        }
        let size = link.label.split(separator: "x").compactMap { Int($0) }
        let width = link.label != target && (1...2).contains(size.count) ? " width=\"\(size[0])\"" : ""
        return "<img src=\"" + HTMLText.escaped(link.note) + "\" alt=\"" + HTMLText.escaped(link.note) + "\"" + width + " />"
    }

    /// What an embed names, `Note` or `Note#Heading`: the key of ``embeddedNotes(_:notePath:)``.
    static func target(of link: MarkdownWikilink) -> String { link.note + (link.heading.map { "#" + $0 } ?? "") }

    /// The notes and sections `markdown` embeds (`![[Note]]`, `![[Note#Heading]]`), each rendered
    /// once, by target; an embed inside them stays as written (no embed repeats itself).
    func embeddedNotes(_ markdown: String, notePath: String) -> [String: String] {
        var out: [String: String] = [:]
        var rest = markdown[...]
        let plain = MarkdownHTMLRenderer(highlights: .mark, wikilinkURL: { _ in "" })
        while let open = rest.firstRange(of: "![["), out.count < 8 {
            rest = rest[open.upperBound...]
            guard let close = rest.prefix(500).firstRange(of: "]]") else { continue }
            let content = rest[..<close.lowerBound]
            rest = rest[close.upperBound...]
            guard let link = MarkdownWikilink(embed: content) else { continue }
            let key = Self.target(of: link)
            guard out[key] == nil, let section = NoteEmbed.markdown(of: link, fromNote: notePath, in: vault) else { continue }
            out[key] = Self.rendered(section, by: plain)
        }
        return out
    }

    /// The HTML with each `<img>` source that names a file of the vault pointed at ``VaultFiles``
    /// (any other source is dropped: the page loads nothing from elsewhere), and each link to a
    /// sound or video of the vault made a player.
    func linkingMedia(_ html: String, notePath: String) -> String {
        var out = ""
        var rest = html[...]
        while let tag = rest.firstRange(of: "<img src=\""), let end = rest[tag.upperBound...].firstIndex(of: "\"") {
            out += links(rest[..<tag.lowerBound], notePath: notePath)
            let source = HTMLText.attributeValue(String(rest[tag.upperBound..<end]))
            if source.lowercased().hasPrefix("data:image/") {
                out += rest[tag.lowerBound..<end]
            } else if let url = fileURL(source, notePath: notePath) {
                out += "<img src=\"" + HTMLText.escaped(url)
            } else {
                out += "<img class=\"missing\" data-src=\"" + HTMLText.escaped(source)
            }
            rest = rest[end...]
        }
        return out + links(rest, notePath: notePath)
    }

    /// `<a href="…">…</a>` to a sound or video file of the vault as a player; other links as
    /// written, and a link to another file of the vault pointed at ``VaultFiles``.
    private func links(_ html: Substring, notePath: String) -> String {
        var out = ""
        var rest = html
        while let a = rest.firstRange(of: "<a href=\""), let end = rest[a.upperBound...].firstIndex(of: "\""),
              let close = rest[end...].firstRange(of: "</a>") {
            out += rest[..<a.lowerBound]
            let target = HTMLText.attributeValue(String(rest[a.upperBound..<end]))
            let ext = target.split(separator: ".").last.map { $0.lowercased() } ?? ""
            if !target.contains("://"), let url = fileURL(target, notePath: notePath) {
                if Self.sounds.contains(ext) {
                    out += "<audio controls preload=\"none\" src=\"\(HTMLText.escaped(url))\"></audio>"
                } else if Self.videos.contains(ext) {
                    out += "<video controls preload=\"none\" src=\"\(HTMLText.escaped(url))\"></video>"
                } else {
                    out += "<a href=\"\(HTMLText.escaped(url))\"" + rest[end..<close.upperBound]
                }
            } else {
                out += rest[a.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    static let sounds: Set<String> = ["mp3", "wav", "ogg", "oga", "m4a", "flac", "opus"]
    static let videos: Set<String> = ["mp4", "webm", "mov"]

    /// The page's URL of a file a note links to, when it is one ``VaultFiles`` serves.
    func fileURL(_ target: String, notePath: String) -> String? {
        guard let full = vault.attachmentPath(target, fromNote: notePath),
              full.hasPrefix(vault.root + "/") else { return nil }
        return VaultFiles.prefix + VaultFiles.encode(String(full.dropFirst(vault.root.count + 1))) + "?k=" + linkKey
    }
}
