import QuireSystem
import Synchronization

extension Vault {
    /// The kinds of file a note may embed that Quire hands to the system's opener: images, PDFs,
    /// audio and video. Anything else (a script, a `.desktop` file) is never opened.
    public static let openableExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "tif", "tiff", "avif", "heic",
        "pdf", "mp3", "wav", "ogg", "m4a", "flac", "mp4", "webm", "mov",
    ]

    /// The full path of a file a note embeds (`![[diagram.png]]`, `![alt](../img/cat.png)`),
    /// resolved as Obsidian resolves it: beside the note (`..` and `.` taken as written, never above
    /// the vault's top), then from the vault's top, then — for a bare name, Obsidian's shortest
    /// form — the file of that name nearest the top anywhere in the vault. Nil when there is none
    /// that is safe to open: a regular file (not a link, a FIFO or a device) of an
    /// ``openableExtensions`` kind, outside hidden folders, inside the vault once links in its
    /// folders are resolved.
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
        return embeddedFile(decoded, fromNote: note)
    }

    /// The full path of the file at `relative` from the vault's top (`%XX` escapes decoded), when
    /// it is one an embed may open and its path is plain (no `.` or `..` part, no `#` or `|`): what
    /// the page serves at a file's URL. Nothing is looked for by name.
    public func file(atPlainPath relative: String) -> String? {
        let decoded = Self.percentDecoded(relative)
        guard !decoded.contains("#"), !decoded.contains("|"), let dot = decoded.lastIndex(of: "."),
              Self.openableExtensions.contains(decoded[decoded.index(after: dot)...].lowercased()) else { return nil }
        return openableFile(decoded)
    }

    /// The path (relative to the vault) of the note a wikilink or embed names (`Note`,
    /// `Folder/Note`, `Note.md`), resolved as ``attachmentPath(_:fromNote:)`` resolves a file; nil
    /// when there is none.
    public func notePath(named target: String, fromNote note: String) -> String? {
        var name = Self.percentDecoded(target).trimmingSpaces()
        guard !name.isEmpty else { return nil }
        if !name.lowercased().hasSuffix(".md") { name += ".md" }
        return embeddedFile(name, fromNote: note).map { String($0.dropFirst(root.count + 1)) }
    }

    /// The full path of the file `decoded` names from the note at `note` (see
    /// ``attachmentPath(_:fromNote:)``).
    private func embeddedFile(_ decoded: String, fromNote note: String) -> String? {
        let folder = FileIO.directory(of: note)
        let besideNote = folder.isEmpty || folder == "." || decoded.hasPrefix("/") ? nil : Self.resolved(folder + "/" + decoded)
        for relative in [besideNote, Self.resolved(decoded)].compactMap({ $0 }) {
            if let full = openableFile(relative) { return full }
        }
        guard !decoded.contains("/") else { return nil }
        return attachmentNames.nearest(decoded, in: self).flatMap(openableFile)
    }

    /// The full path of the file at `relative` when it is one an embed may open (see
    /// ``attachmentPath(_:fromNote:)``).
    func openableFile(_ relative: String) -> String? {
        guard Self.isPlainRelativePath(relative) else { return nil }
        let full = fullPath(relative)
        guard let stamp = io.linkStamp(full), stamp.isRegularFile,
              let real = FileIO.realPath(FileIO.directory(of: full)), let realRoot = FileIO.realPath(root),
              real == realRoot || real.hasPrefix(realRoot + "/") else { return nil }
        return full
    }

    /// A path with its `.` and `..` parts taken (a leading `/` means the vault's top); nil when
    /// `..` would climb above the top.
    static func resolved(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                guard parts.popLast() != nil else { return nil }
            } else {
                parts.append(part)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
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

/// The vault's attachments by file name, for embeds written by bare name (`![[slide-04.png]]`):
/// read from the folders on first use and again when a name is not found or its file is gone
/// (at most once a second), so a long-running server sees new files. Hidden folders and links
/// are not walked; at most ``limit`` entries are read.
final class AttachmentNames: Sendable {
    private struct State {
        var paths: [String: [String]] = [:]
        var read: ContinuousClock.Instant?
    }
    private let state = Mutex(State())
    /// The most folder entries one reading looks at.
    static let limit = 500_000

    /// The path (relative to the vault) of the file named `name` nearest the vault's top (fewest
    /// folders, then in byte order), if any.
    func nearest(_ name: String, in vault: Vault) -> String? {
        let key = name.lowercased()
        if let found = state.withLock({ $0.read == nil ? nil : Self.best($0.paths[key] ?? [], name) }), vault.openableFile(found) != nil {
            return found
        }
        let stale = state.withLock { state in state.read.map { ContinuousClock.now - $0 >= .seconds(1) } ?? true }
        guard stale else { return nil }
        let paths = Self.read(vault)
        state.withLock { $0 = State(paths: paths, read: ContinuousClock.now) }
        return Self.best(paths[key] ?? [], name)
    }

    /// Of the paths whose names match `name` without regard to case, the one whose name matches
    /// exactly first, then the nearest the top.
    private static func best(_ paths: [String], _ name: String) -> String? {
        paths.min { a, b in
            let (ea, eb) = (a.hasSuffix("/" + name) || a == name, b.hasSuffix("/" + name) || b == name)
            if ea != eb { return ea }
            let (da, db) = (a.split(separator: "/").count, b.split(separator: "/").count)
            return da != db ? da < db : a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }

    /// Every regular file of the vault outside hidden folders, by lower-cased name.
    private static func read(_ vault: Vault) -> [String: [String]] {
        var paths: [String: [String]] = [:]
        var folders = [""]
        var entries = 0
        while let folder = folders.popLast(), entries < limit {
            _ = vault.io.readFolder(folder.isEmpty ? vault.root : vault.fullPath(folder)) { name, kind, valid in
                entries += 1
                guard valid, !name.hasPrefix(".") else { return }
                let relative = folder.isEmpty ? name : folder + "/" + name
                switch kind {
                case .directory: folders.append(relative)
                case .regularFile, .unknown: paths[name.lowercased(), default: []].append(relative)
                case .symbolicLink, .other: break
                }
            }
        }
        return paths
    }
}
