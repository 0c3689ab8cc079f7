import QuireModel

/// Errors about the vault as a whole.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    case notADirectory(String)
    case alreadyInitialized(String)
    case io(FileIOError)

    public var description: String {
        switch self {
        case .notADirectory(let p): "\(p): not a folder"
        case .alreadyInitialized(let p): "\(p): already a Quire vault (.quire/ exists)"
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

    /// The name of Quire's folder at the root.
    public static let folderName = ".quire"

    /// Opens the vault at `root` exactly.
    public init(root: String, io: FileIO = FileIO()) throws(VaultError) {
        var r = root
        while r.count > 1, r.hasSuffix("/") { r.removeLast() }
        guard let s = io.stamp(r), s.isDirectory else { throw .notADirectory(root) }
        self.root = r
        self.io = io
        isInitialized = io.stamp(r + "/" + Self.folderName)?.isDirectory ?? false
    }

    /// Finds the vault that holds `directory`: the nearest folder at or above it with `.quire/`,
    /// else `directory` itself (read-only defaults).
    public static func discover(from directory: String, io: FileIO = FileIO()) throws(VaultError) -> Vault {
        var current = VaultScanner.realPath(directory) ?? directory
        while true {
            if io.stamp(current + "/" + folderName)?.isDirectory ?? false { return try Vault(root: current, io: io) }
            guard let slash = current.lastIndex(of: "/"), current != "/" else { break }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
        return try Vault(root: directory, io: io)
    }

    /// Makes `directory` a vault: `.quire/` with config, log and cache folders, and the
    /// `.gitignore` / `.gitattributes` lines (FORMAT.md §1). Existing files are kept.
    @discardableResult
    public static func initialize(_ directory: String, io: FileIO = FileIO()) throws(VaultError) -> Vault {
        guard io.stamp(directory)?.isDirectory ?? false else {
            do { try io.makeDirectories(directory) } catch { throw .io(error) }
            return try initialize(directory, io: io)
        }
        let q = directory + "/" + folderName
        if io.stamp(q)?.isDirectory ?? false { throw .alreadyInitialized(directory) }
        do {
            try io.makeDirectories(q + "/log")
            try io.makeDirectories(q + "/cache")
            try io.replace(q + "/config.yaml", with: Array(VaultConfig.template.utf8), expected: nil)
            try appendLines(directory + "/.gitignore", [".quire/cache/", ".quire/device", ".quire/journal"], io: io)
            try appendLines(directory + "/.gitattributes", [".quire/log/*.log merge=union"], io: io)
        } catch { throw .io(error) }
        return try Vault(root: directory, io: io)
    }

    /// Adds the lines a file does not have yet, keeping its bytes and line ending.
    private static func appendLines(_ path: String, _ lines: [String], io: FileIO) throws(FileIOError) {
        let existing = (try? io.read(path))?.bytes
        let text = existing.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let have = Set(text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { $0.trimmingSpaces() })
        let missing = lines.filter { !have.contains($0) }
        guard !missing.isEmpty else { return }
        let eol = text.contains("\r\n") ? "\r\n" : "\n"
        var add = ""
        // Compare bytes: a String ending in CRLF does not have the suffix "\n" ("\r\n" is one Character).
        if let last = existing?.last, last != UInt8(ascii: "\n") { add += eol }
        add += missing.map { $0 + eol }.joined()
        try io.replace(path, with: (existing ?? []) + Array(add.utf8), expected: existing)
    }

    /// Reads and indexes every note; with `cached`, through the vault's persistent cache
    /// (`.quire/cache/index`, only in an initialized vault), updating it.
    public func index(concurrency: Int? = nil, cached: Bool = true) -> VaultIndex {
        VaultIndex.build(root: root, io: io, concurrency: concurrency, cache: cached ? cache : nil)
    }

    /// The persistent index cache, or nil when the vault has no `.quire/` folder to keep it in.
    public var cache: IndexCache? { isInitialized ? IndexCache(root: root, io: io) : nil }

    /// The full path of a note given its relative path.
    public func fullPath(_ relative: String) -> String { root + "/" + relative }
}
