import QuireSystem
import QuireVault

/// The vault's images, sounds, videos and PDFs as the page loads them, at `/file/PATH`.
///
/// Only what a note may embed is served (``Vault/openableExtensions``), named by a plain path
/// relative to the vault — no `..`, no `.`-folders such as `.quire/` or `.git/`, no control
/// characters — that is a regular file inside the vault once links in its folders are resolved,
/// itself not a link, FIFO or device (``Vault/file(atPlainPath:)``, read without
/// following a final link). Everything else is "not found", whatever the reason, so a page
/// learns nothing about the disk outside what notes embed.
enum VaultFiles {
    /// Where the files are, in the page's URLs.
    static let prefix = "/file/"
    /// Files above this size are not served (a note's picture is far smaller).
    static let maximumSize = 256 << 20

    /// The bytes and media type of the file at `urlPath` (which starts with ``prefix``, its
    /// `%XX` escapes as sent: decoded once, here), or nil.
    static func read(urlPath: String, vault: Vault) -> (bytes: [UInt8], type: String)? {
        guard urlPath.hasPrefix(prefix) else { return nil }
        let relative = String(urlPath.dropFirst(prefix.count))
        // A `#`/`|` suffix would be cut by the lookup and a query is never part of a file's name.
        guard !relative.contains("|"), !relative.contains("?"), !relative.contains("\\"),
              let full = vault.file(atPlainPath: relative),
              let ext = full.split(separator: ".").last.map({ $0.lowercased() }),
              let type = types[ext],
              // A file of several names may be a hard link to a file outside the vault (a link
              // made in a shared vault's folder): never served.
              vault.io.linkCount(full) == 1,
              let bytes = try? vault.io.read(full).bytes, bytes.count <= maximumSize else { return nil }
        return (bytes, type)
    }

    /// The media type of each kind of file served.
    static let types: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "bmp": "image/bmp", "avif": "image/avif", "tif": "image/tiff", "tiff": "image/tiff",
        "heic": "image/heic", "pdf": "application/pdf", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "m4a": "audio/mp4", "flac": "audio/flac", "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
    ]

    /// A vault-relative path as a URL path: every byte but letters, digits, `-._~` and `/` as `%XX`.
    static func encode(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%"
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b & 15)]))
            }
        }
        return out
    }
}
