import QuireSystem
import QuireModel
import QuireParsing

extension Vault {
    /// Makes `directory` a vault: `.quire/` with config, log and cache folders, and the
    /// `.gitignore` / `.gitattributes` lines (FORMAT.md §1). Existing files are kept.
    @discardableResult
    public static func initialize(_ directory: String, io: FileIO = FileIO()) throws(VaultError) -> Vault {
        guard io.stamp(directory)?.isDirectory ?? false else {
            do { try io.makeDirectories(directory) } catch { throw .io(error) }
            return try initialize(directory, io: io)
        }
        let q = directory + "/" + folderName
        if io.linkStamp(q) != nil { throw .alreadyInitialized(directory) }
        do {
            try io.makeDirectories(q + "/log")
            try io.makeDirectories(q + "/cache")
            // A vault the Obsidian spaced-repetition plugin uses keeps the plugin's cards: its
            // folder is there (a data.json is written only once a setting changes; without one
            // the plugin runs on its defaults, and so does Quire).
            var template = VaultConfig.template
            let pluginFolder = String(ObsidianSRSettings.dataPath.dropLast("/data.json".count))
            if io.linkStamp(directory + "/" + ObsidianSRSettings.dataPath) != nil || io.linkStamp(directory + "/" + pluginFolder) != nil {
                template = template.replacingOccurrences(of: "card_syntax: quire     #", with: "card_syntax: obsidian-sr #")
            }
            try io.replace(q + "/config.yaml", with: Array(template.utf8), expected: nil)
            try appendLines(directory + "/.gitignore", [".quire/cache/", ".quire/device", ".quire/journal", ".quire/lock"], io: io)
            try appendLines(directory + "/.gitattributes", [".quire/log/*.log merge=union", ".quire/curation/*.log merge=union"], io: io)
        } catch { throw .io(error) }
        return try Vault(root: directory, io: io)
    }

    /// Adds the lines a file does not have yet, keeping its bytes and line ending.
    package static func appendLines(_ path: String, _ lines: [String], io: FileIO) throws(FileIOError) {
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
    /// (`.quire/cache/index`, only in an initialized vault), updating it. Files read are reported
    /// to ``Vault/progress``.
    public func index(concurrency: Int? = nil, cached: Bool = true) -> VaultIndex {
        let syntax = cardSyntax()
        var index = VaultIndex.build(root: root, io: io, concurrency: concurrency,
                                     cache: cached ? cache(syntax: syntax.syntax) : nil, syntax: syntax.syntax, progress: progress)
        index.diagnostics = syntax.diagnostics + index.diagnostics
        return index
    }

    /// The persistent index cache, or nil when the vault has no `.quire/` folder to keep it in.
    public var cache: IndexCache? { cache(syntax: cardSyntax().syntax) }

    /// The persistent index cache for notes parsed with `syntax`.
    func cache(syntax: CardSyntax) -> IndexCache? {
        isInitialized ? IndexCache(root: root, io: io, syntax: syntax) : nil
    }
}
