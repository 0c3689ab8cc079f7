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
    private let renderer = MarkdownHTMLRenderer(highlights: .mark)
    /// A card's sides show their line breaks, as Anki and Obsidian show them.
    private let sideRenderer = MarkdownHTMLRenderer(highlights: .mark, lineBreaks: true)

    init(vault: Vault) { self.vault = vault }

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
        let (protected, spans) = MathSpans.protect(markdown)
        let rendered = (try? (side ? sideRenderer : renderer).render(protected)) ?? "<p>" + HTMLText.escaped(protected) + "</p>"
        let math = MathSpans.restore(rendered, spans) { span in
            // KaTeX renders each element's text (PageScript); shown as TeX where it is missing.
            "<span class=\"math\" data-display=\"\(span.display ? "1" : "0")\">" + HTMLText.escaped(span.tex) + "</span>"
        }
        return linkingMedia(math, notePath: notePath)
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
        return VaultFiles.prefix + VaultFiles.encode(String(full.dropFirst(vault.root.count + 1)))
    }
}
