import QuireModel

/// A card side's Markdown carried through Anki unchanged: an exported field's HTML ends with an
/// HTML comment holding the Markdown it was rendered from and a checksum of the HTML
/// (`<!--quire:MARKDOWN-BASE64:HTML-HASH-->`), which Anki keeps and does not show. An import finds
/// it, and when the HTML is still the one exported (not edited in Anki) and embeds no media, takes
/// the Markdown back as written — soft line breaks, escapes, all — instead of converting the HTML.
enum MarkdownStash {
    private static let open = "<!--quire:", close = "-->"

    /// `html` with `markdown` stashed after it.
    static func stash(_ markdown: String, in html: String) -> String {
        html + open + base64(Array(markdown.utf8)) + ":" + hash(html) + close
    }

    /// The field's HTML without a stash, and the stashed Markdown when it still applies.
    static func take(_ field: String) -> (html: String, markdown: String?) {
        guard field.hasSuffix(close), let start = field.range(of: open, options: .backwards) else { return (field, nil) }
        let html = String(field[..<start.lowerBound])
        let body = field[start.upperBound..<field.index(field.endIndex, offsetBy: -close.count)]
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, String(parts[1]) == hash(html), !html.contains("<img"), !html.contains("[sound:"),
              let bytes = unbase64(parts[0]), let markdown = String(validating: bytes, as: UTF8.self) else { return (html, nil) }
        return (html, markdown)
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
