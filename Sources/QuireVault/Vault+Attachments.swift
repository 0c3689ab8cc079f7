import QuireSystem

extension Vault {
    /// The kinds of file a note may embed that Quire hands to the system's opener: images, PDFs,
    /// audio and video. Anything else (a script, a `.desktop` file) is never opened.
    public static let openableExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "tif", "tiff", "avif", "heic",
        "pdf", "mp3", "wav", "ogg", "m4a", "flac", "mp4", "webm", "mov",
    ]

    /// The full path of a file a note embeds (`![[diagram.png]]`, `![alt](img/cat.png)`), looked
    /// for beside the note, then from the vault's top; nil when there is none that is safe to
    /// open: a regular file (not a link, a FIFO or a device) of an ``openableExtensions`` kind,
    /// named by a plain relative path, inside the vault once links in its folders are resolved.
    ///
    /// - Parameters:
    ///   - target: the embed's target as written: `%XX` escapes are decoded, and a `#…` or `|…`
    ///     suffix is dropped.
    ///   - note: the embedding note's path, relative to the vault.
    public func attachmentPath(_ target: String, fromNote note: String) -> String? {
        var name = Substring(target)
        if let cut = name.firstIndex(where: { $0 == "#" || $0 == "|" }) { name = name[..<cut] }
        let decoded = Self.percentDecoded(String(name)).trimmingSpaces()
        guard let dot = decoded.lastIndex(of: "."),
              Self.openableExtensions.contains(decoded[decoded.index(after: dot)...].lowercased()) else { return nil }
        let folder = FileIO.directory(of: note)
        let candidates = (folder.isEmpty || folder == "." ? [] : [folder + "/" + decoded]) + [decoded]
        for relative in candidates where Self.isPlainRelativePath(relative) {
            let full = fullPath(relative)
            guard let stamp = io.linkStamp(full), stamp.isRegularFile else { continue }
            guard let real = FileIO.realPath(FileIO.directory(of: full)), let realRoot = FileIO.realPath(root),
                  real == realRoot || real.hasPrefix(realRoot + "/") else { continue }
            return full
        }
        return nil
    }

    /// `%20` and the like decoded; the text unchanged when an escape is malformed or the result
    /// is not UTF-8.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let b = utf8.popFirst() {
            guard b == UInt8(ascii: "%") else { bytes.append(b); continue }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return text }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }
}
