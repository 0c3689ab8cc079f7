import QuireSystem
import QuireModel
import QuireParsing
import QuireSupport
import QuireVault

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
            // Obsidian's template folders hold placeholders (`date: {{date}}`), no notes: left out.
            let templates = templateFolders(directory, io: io)
            if !templates.isEmpty {
                let list = "[" + templates.map { VaultConfig.flowItem($0) }.joined(separator: ", ") + "]"
                template = template.replacingOccurrences(of: "# ignore: [Templates]  #", with: "ignore: " + list + "  #")
            }
            try io.replace(q + "/config.yaml", with: Array(template.utf8), expected: nil)
            try appendLines(directory + "/.gitignore", [".quire/cache/", ".quire/device", ".quire/journal", ".quire/lock"], io: io)
            try appendLines(directory + "/.gitattributes", [".quire/log/*.log merge=union", ".quire/curation/*.log merge=union"], io: io)
        } catch { throw .io(error) }
        return try Vault(root: directory, io: io)
    }

    /// The template folders Obsidian's core Templates plugin (`.obsidian/templates.json`,
    /// `folder`) and the Templater plugin (`templates_folder`) name, as vault-relative paths; those
    /// that are no plain path inside the vault (or files that are no small regular JSON file) are
    /// passed over.
    public static func templateFolders(_ directory: String, io: FileIO) -> [String] {
        var found: [String] = []
        for (file, key) in [(".obsidian/templates.json", "folder"), (".obsidian/plugins/templater-obsidian/data.json", "templates_folder")] {
            guard let stamp = io.linkStamp(directory + "/" + file), stamp.isRegularFile, stamp.size < 1 << 20,
                  let path = try? io.pathWithoutLinkedFolders(directory, file), let bytes = try? io.read(path).bytes,
                  let json = try? JSONValue(parsing: bytes), case .object(let fields) = json,
                  case .string(let raw)? = fields.last(where: { $0.0 == key })?.1 else { continue }
            var folder = raw.trimmingSpaces()
            while folder.hasPrefix("/") { folder.removeFirst() }
            while folder.hasSuffix("/") { folder.removeLast() }
            guard !folder.isEmpty, !folder.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
                  !folder.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }), !found.contains(folder) else { continue }
            found.append(folder)
        }
        return found
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
        let ignored = ignoredPaths()
        var index = VaultIndex.build(root: root, io: io, concurrency: concurrency,
                                     cache: cached ? cache(syntax: syntax.syntax, ignored: ignored) : nil, syntax: syntax.syntax,
                                     ignored: ignored, progress: progress)
        index.diagnostics = syntax.diagnostics + index.diagnostics
        return index
    }

    /// The persistent index cache, or nil when the vault has no `.quire/` folder to keep it in.
    public var cache: IndexCache? { cache(syntax: cardSyntax().syntax, ignored: ignoredPaths()) }

    /// The persistent index cache for notes parsed with `syntax`, `ignored` left out.
    func cache(syntax: CardSyntax, ignored: IgnoredPaths) -> IndexCache? {
        isInitialized ? IndexCache(root: root, io: io, syntax: syntax, ignored: ignored) : nil
    }
}
