import QuireSystem
import QuireModel
import QuireSupport

/// Errors about the vault as a whole.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    case notADirectory(String)
    case alreadyInitialized(String)
    /// `.quire` is a symbolic link: Quire's own files would be read and written elsewhere.
    case linkedQuireFolder(String)
    case io(FileIOError)

    public var description: String {
        switch self {
        case .notADirectory(let p): "\(p): not a folder"
        case .alreadyInitialized(let p): "\(p): already a Quire vault (.quire/ exists)"
        case .linkedQuireFolder(let p):
            "\(p): is a symbolic link; Quire keeps its files only in a real .quire folder inside the vault"
        case .io(let e): e.description
        }
    }
}

/// A vault on disk: its root and settings.
public struct Vault: Sendable {
    /// The root folder (as given or found; no trailing `/`).
    public let root: String
    /// Whether the root holds a `.quire/` folder.
    public let isInitialized: Bool
    /// The file layer.
    public let io: FileIO
    /// Where a build of the index reports the files it has read (a command shows it as a bar),
    /// or nil.
    public var progress: WorkProgress?
    /// The vault's attachments by name, read when an embed names one by bare name.
    let attachmentNames = AttachmentNames()

    /// The name of Quire's folder at the root.
    public static let folderName = ".quire"

    /// Opens the vault at `root` exactly.
    public init(root: String, io: FileIO = FileIO()) throws(VaultError) {
        var r = root
        while r.count > 1, r.hasSuffix("/") { r.removeLast() }
        guard let s = io.stamp(r), s.isDirectory else { throw .notADirectory(root) }
        self.root = r
        self.io = io
        let quire = io.linkStamp(r + "/" + Self.folderName)
        if quire?.isSymbolicLink == true { throw .linkedQuireFolder(r + "/" + Self.folderName) }
        isInitialized = quire?.isDirectory ?? false
    }

    /// Finds the vault that holds `directory`: the nearest folder at or above it with `.quire/`,
    /// else `directory` itself (read-only defaults).
    public static func discover(from directory: String, io: FileIO = FileIO()) throws(VaultError) -> Vault {
        var current = FileIO.realPath(directory) ?? directory
        while true {
            if let s = io.linkStamp(current + "/" + folderName), s.isDirectory || s.isSymbolicLink {
                return try Vault(root: current, io: io)
            }
            guard let slash = current.lastIndex(of: "/"), current != "/" else { break }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
        return try Vault(root: directory, io: io)
    }

    /// The full path of a note given its relative path.
    public func fullPath(_ relative: String) -> String { root + "/" + relative }
}

extension Vault {
    /// The full path of a file under `.quire/`, after checking that `.quire` and every folder on the
    /// way to it is a real folder, not a symbolic link: nothing of Quire's own is read or written
    /// through a link (a cloned vault could point `.quire/log` anywhere). The file itself is opened
    /// without following a link by ``FileIO``.
    public func internalPath(_ relative: String) throws(FileIOError) -> String {
        try io.pathWithoutLinkedFolders(root, relative)
    }

    /// The full path of a folder under `.quire/`, checked like ``internalPath(_:)`` down to the
    /// folder itself.
    public func internalFolder(_ relative: String) throws(FileIOError) -> String {
        try io.pathWithoutLinkedFolders(root, relative, lastIsFolder: true)
    }

    /// The full path of a note named by a relative path from an untrusted place (the review log's
    /// `path=`, a cache, a package), or an error when the path is not a plain path to a note inside
    /// the vault: it must be relative, without empty, `.` or `..` parts, without hidden parts (which
    /// the scanner never reads) and end in `.md`; and once resolved, links included, it must stay
    /// inside the vault, its last part not a link.
    public func notePath(_ relative: String) throws(FileIOError) -> String {
        if let reason = Self.unsafeReason(relative) { throw .unsafePath(path: relative, reason: reason) }
        return try pathInside(relative)
    }

    /// The full path of a file that is not a note (an imported media file), checked like
    /// ``notePath(_:)`` but for the `.md` ending.
    public func filePath(_ relative: String) throws(FileIOError) -> String {
        guard Self.isPlainRelativePath(relative) else { throw .unsafePath(path: relative, reason: "not a plain relative path") }
        return try pathInside(relative)
    }

    /// `relative`'s full path, once its last part is known not to be a link and the nearest folder
    /// on its way that exists (links resolved) is inside the vault: a file about to be made in a
    /// linked folder is refused too.
    private func pathInside(_ relative: String) throws(FileIOError) -> String {
        let full = fullPath(relative)
        if let s = io.linkStamp(full), s.isSymbolicLink { throw .symbolicLink(path: relative) }
        var folder = FileIO.directory(of: full)
        var real = FileIO.realPath(folder)
        while real == nil, folder.count > root.count {
            folder = FileIO.directory(of: folder)
            real = FileIO.realPath(folder)
        }
        if let real, let realRoot = FileIO.realPath(root), real != realRoot, !real.hasPrefix(realRoot + "/") {
            throw .unsafePath(path: relative, reason: "leads outside the vault through a symbolic link")
        }
        return full
    }

    /// Why a relative path is not a plain path to a note, or nil when it is.
    static package func unsafeReason(_ path: String) -> String? {
        if isPlainRelativePath(path) { return VaultScanner.isNoteName(path) ? nil : "not a note (.md) file" }
        // Which rule it breaks, for the message.
        if path.isEmpty { return "empty path" }
        if path.hasPrefix("/") { return "not a path relative to the vault" }
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty { return "empty part in the path" }
            if part == "." || part == ".." { return "'\(part)' in the path" }
            if part.hasPrefix(".") { return "hidden folder or file in the path" }
            if part.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "control character in the path" }
        }
        return "not a plain relative path"
    }

    /// Whether a relative path stays in the vault and names nothing the scanner skips: no leading
    /// `/` or `.`, no `/.` (so no `..`, `.` or hidden part), no empty part, no control character.
    /// One pass over its bytes (the cache holds one path per file, the log one per event).
    static package func isPlainRelativePath(_ path: String) -> Bool {
        var previous: UInt8 = UInt8(ascii: "/")
        for b in path.utf8 {
            if b < 0x20 || b == 0x7F { return false }
            if previous == UInt8(ascii: "/"), b == UInt8(ascii: "/") || b == UInt8(ascii: ".") { return false }
            previous = b
        }
        return !path.isEmpty && previous != UInt8(ascii: "/")
    }
}
