import QuireYAML

/// Lossless edits of `.quire/config.yaml` (a YAML document without `---` fences): the same
/// editor as front matter, on the file framed as one, so comments, order and quoting stay.
public enum ConfigEdit {
    /// Sets `name` under `categories:` to `color` (a quoted `#rrggbb`, or null), adding the
    /// mapping when the file has none.
    public static func setCategory(_ name: String, color: String?, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
            try editor.setEntry(name, in: "categories", to: color.map { .quoted($0) } ?? .raw("null"))
        }
    }

    /// Removes `name` from `categories:`.
    public static func removeCategory(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in
            try editor.removeEntry(name, in: "categories")
        }
    }

    /// Adds a source type to `source_types:`, making the list when the file has none.
    public static func addSourceType(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in try editor.addToList("source_types", name) }
    }

    /// Removes a source type from `source_types:`.
    public static func removeSourceType(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in try editor.removeFromList("source_types", name) }
    }

    /// Sets `card_syntax` (FORMAT.md §3.8): `quire` or `obsidian-sr`.
    public static func setCardSyntax(_ name: String, in file: [UInt8]) throws(YAMLError) -> [UInt8] {
        try framed(file) { (editor: inout FrontMatterEditor) throws(YAMLError) in try editor.set("card_syntax", to: .raw(name)) }
    }

    /// Runs an edit on the file framed by `---` lines, and takes the frame off again.
    private static func framed(_ file: [UInt8], _ edit: (inout FrontMatterEditor) throws(YAMLError) -> Void) throws(YAMLError) -> [UInt8] {
        let fence = Array("---\n".utf8)
        var body = file
        if let last = body.last, last != 0x0A { body.append(0x0A) }
        var editor = try FrontMatterEditor(file: fence + body + fence)
        try edit(&editor)
        let out = editor.file
        guard out.count >= 2 * fence.count, out.prefix(fence.count).elementsEqual(fence),
              out.suffix(fence.count).elementsEqual(fence) else {
            throw .verificationFailed(reason: "the settings file lost its frame", at: .start)
        }
        return Array(out.dropFirst(fence.count).dropLast(fence.count))
    }
}
