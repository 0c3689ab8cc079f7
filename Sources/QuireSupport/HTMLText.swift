/// Text for HTML and XML pages: escaped going in, cmark's attribute entities decoded coming out.
public enum HTMLText {
    /// Text made safe for HTML and XML content and attribute values: the five special characters
    /// become entities, and control characters (terminal escapes among them) are dropped — unless
    /// `keepingControls` (text another program reads as its author wrote it: TeX for Anki's MathJax).
    public static func escaped(_ text: String, keepingControls: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if !keepingControls, scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An attribute value as cmark-gfm's HTML renderer writes it (`&quot;`, `&#x27;`, `&lt;`,
    /// `&gt;`, `&amp;`), decoded.
    public static func attributeValue(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacing("&quot;", with: "\"").replacing("&#x27;", with: "'").replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }
}
