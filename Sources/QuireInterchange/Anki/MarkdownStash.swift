import QuireModel

/// A card side's Markdown carried through Anki unchanged: an exported field's HTML ends with an
/// HTML comment holding the Markdown it was rendered from, a checksum of the HTML and, when the
/// side embeds media, which link target became which media file
/// (`<!--quire:MARKDOWN-BASE64:HTML-HASH:MEDIA-BASE64-->`; exports before media maps had no third
/// part), which Anki keeps and does not show.
/// An import finds it, and when the HTML is still the one exported (not edited in Anki) takes the
/// Markdown back as written — soft line breaks, escapes, all — instead of converting the HTML,
/// its media links pointing where the import puts each file.
enum MarkdownStash {
    private static let open = "<!--quire:", close = "-->"

    /// What a field's stash gives back.
    struct Stash: Equatable {
        /// The Markdown as written.
        var markdown: String
        /// Each link target of the Markdown that is a media file, with the file's media name.
        var media: [Media] = []
    }

    /// A link target and the media file it became.
    struct Media: Equatable {
        var target: String
        var name: String
    }

    /// `html` with `markdown` stashed after it, and the media its targets became.
    static func stash(_ markdown: String, in html: String, media: [Media] = []) -> String {
        var map = ""
        for m in media { map += m.target + "\u{1F}" + m.name + "\u{1E}" }
        // The media part is always there (empty when nothing was packaged): an image it does not
        // name kept its target, which was not a file of the vault.
        return html + open + base64(Array(markdown.utf8)) + ":" + hash(html) + ":" + base64(Array(map.utf8)) + close
    }

    /// The field's HTML without a stash, and the stash when it still applies: the HTML unchanged,
    /// and any media it embeds named in the stash.
    static func take(_ field: String) -> (html: String, stash: Stash?) {
        guard field.hasSuffix(close), let start = field.range(of: open, options: .backwards) else { return (field, nil) }
        let html = String(field[..<start.lowerBound])
        let body = field[start.upperBound..<field.index(field.endIndex, offsetBy: -close.count)]
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, String(parts[1]) == hash(html),
              let bytes = unbase64(parts[0]), let markdown = String(validating: bytes, as: UTF8.self) else { return (html, nil) }
        var media: [Media] = []
        if parts.count == 3 {
            guard let bytes = unbase64(parts[2]), let map = String(validating: bytes, as: UTF8.self) else { return (html, nil) }
            for entry in map.split(separator: "\u{1E}") {
                let pair = entry.split(separator: "\u{1F}", omittingEmptySubsequences: false)
                guard pair.count == 2 else { return (html, nil) }
                media.append(Media(target: String(pair[0]), name: String(pair[1])))
            }
        } else if html.contains("<img") || html.contains("[sound:") {
            // Media without a map (an older export): the HTML's names are all there is.
            return (html, nil)
        }
        return (html, Stash(markdown: markdown, media: media))
    }

    /// The stashed Markdown with each media link's target replaced by `path(name)` (kept when nil).
    static func relinked(_ stash: Stash, path: (String) -> String?) -> String {
        var markdown = stash.markdown
        for m in stash.media {
            guard let new = path(m.name), new != m.target else { continue }
            markdown = markdown.replacing("](" + m.target + ")", with: "](" + new + ")")
                .replacing("](" + m.target + " ", with: "](" + new + " ")
                .replacing("](<" + m.target + ">", with: "](<" + new + ">")
        }
        return markdown
    }

    static func hash(_ text: String) -> String {
        var h = SipHash24(k0: 0x7175_6972_6553_7461, k1: 0x7368_0000_0000_0001)
        h.combine(text)
        let v = h.finalize()
        return String(v, radix: 16)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64 with the URL alphabet, no padding (nothing an HTML comment could end on).
    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 4 / 3 + 4)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i]), b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0, b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let n = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if i + 1 < bytes.count { out.append(alphabet[Int(n >> 6 & 63)]) }
            if i + 2 < bytes.count { out.append(alphabet[Int(n & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unbase64(_ text: Substring) -> [UInt8]? {
        var values: [UInt32] = []
        for b in text.utf8 {
            guard let v = alphabet.firstIndex(of: b) else { return nil }
            values.append(UInt32(v))
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let chunk = values[i..<min(i + 4, values.count)]
            var n: UInt32 = 0
            for (k, v) in chunk.enumerated() { n |= v << (18 - 6 * UInt32(k)) }
            out.append(UInt8(n >> 16 & 255))
            if chunk.count > 2 { out.append(UInt8(n >> 8 & 255)) }
            if chunk.count > 3 { out.append(UInt8(n & 255)) }
            i += 4
        }
        return out
    }
}
