import QuireEmbedding
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireReview
import QuireSupport
import QuireSync
import QuireSystem
import QuireYAML
import QuireVault

/// `quire doctor`: what is installed for Quire and how healthy a vault is, each problem with how
/// to fix it. The checks read; they never change anything.
public enum Doctor {
    /// One thing checked.
    public struct Finding: Sendable, Equatable {
        /// How it went: fine, worth knowing, worth fixing, or broken.
        public enum Level: String, Sendable { case ok, note, warning, error }
        public var level: Level
        /// `installation` or `vault`.
        public var area: String
        /// What was checked, and what was found.
        public var title: String
        public var detail: String
        /// How to fix it, when it needs fixing.
        public var fix: String?

        public init(_ level: Level, _ area: String, _ title: String, _ detail: String, fix: String? = nil) {
            (self.level, self.area, self.title, self.detail, self.fix) = (level, area, title, detail, fix)
        }
    }

    /// A program Quire runs for some of its work, and the Debian package that has it.
    struct Program {
        var names: [String]
        var package: String
        var usedFor: String
    }

    static let programs: [Program] = [
        Program(names: ["git"], package: "git", usedFor: "sync, the merge driver, quire resolve"),
        Program(names: ["pdftotext"], package: "poppler-utils", usedFor: "quire import pdf"),
        Program(names: ["tesseract"], package: "tesseract-ocr", usedFor: "quire import image, scanned PDF pages"),
        Program(names: ["magick", "convert"], package: "imagemagick", usedFor: "images prepared for OCR"),
        Program(names: ["ffmpeg"], package: "ffmpeg", usedFor: "quire import audio|video, quire record"),
        Program(names: ["pocketsphinx_continuous"], package: "pocketsphinx pocketsphinx-en-us", usedFor: "transcribing recordings"),
        Program(names: ["python3"], package: "python3", usedFor: "quire model install, faster-whisper transcription"),
        Program(names: ["xdg-open"], package: "xdg-utils", usedFor: "opening a card's images, quire serve --open"),
        Program(names: ["notify-send"], package: "libnotify-bin", usedFor: "desktop reminders"),
    ]

    /// The installation: the C libraries Quire runs on, the programs it uses for optional work,
    /// the files the web page serves, and the sentence-embedding model.
    public static func installation(environment: [String: String], io: FileIO = FileIO()) -> [Finding] {
        var found: [Finding] = []
        found.append(Finding(.ok, "installation", "cmark-gfm",
                             MarkdownDocument.libraryVersion + (MarkdownDocument.usesFastPath ? " (fast path)" : " (public API: slower, same results)")))
        found.append(Finding(.ok, "installation", "libyaml", YAMLParser.libraryVersion))
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        for program in programs {
            if let (name, at) = program.names.lazy.compactMap({ name in find(name, in: path, io: io).map { (name, $0) } }).first {
                found.append(Finding(.ok, "installation", name, at))
            } else {
                found.append(Finding(.note, "installation", program.names[0], "not installed; needed for \(program.usedFor)",
                                     fix: "sudo apt-get install \(program.package)"))
            }
        }
        for (name, file, package) in [("KaTeX", "/usr/share/javascript/katex/katex.min.js", "libjs-katex"),
                                      ("highlight.js", "/usr/share/javascript/highlight.js/highlight.min.js", "libjs-highlight.js")] {
            if io.stamp(file) != nil {
                found.append(Finding(.ok, "installation", name, file))
            } else {
                found.append(Finding(.note, "installation", name, "not installed: quire serve shows math as TeX and code plain",
                                     fix: "sudo apt-get install \(package)"))
            }
        }
        if let folder = EmbeddingModel.installedFolder(environment: environment, io: io) {
            found.append(Finding(.ok, "installation", "embedding model", folder))
        } else {
            found.append(Finding(.note, "installation", "embedding model", "not installed: search ranks by words only",
                                 fix: "quire model install"))
        }
        if let folder = LanguageModelFiles.folder(environment: environment), let manifest = LanguageModelFiles.installed(in: folder, io: io) {
            if LanguageModelFiles.isRuntime(manifest.runtime, io: io) {
                found.append(Finding(.ok, "installation", "language model", "\(manifest.name) in \(folder)"))
            } else {
                found.append(Finding(.warning, "installation", "language model",
                                     "its server (llama-cpp-python) is missing from \(manifest.runtime): ask and explain quote the notes",
                                     fix: "quire model install llm"))
            }
        } else {
            found.append(Finding(.note, "installation", "language model", "not installed: ask quotes the notes, cards come from rules",
                                 fix: "quire model install llm"))
        }
        return found
    }

    /// An executable named `name` in one of the folders of `path`.
    static func find(_ name: String, in path: [String], io: FileIO) -> String? {
        for folder in path where !folder.isEmpty {
            let full = folder + "/" + name
            if let stamp = io.stamp(full), stamp.isRegularFile, stamp.mode & 0o111 != 0 { return full }
        }
        return nil
    }

    /// The vault: made by init, its settings, its files, its log against its notes, its caches,
    /// git's merge driver, leftovers of interrupted writes, and the watcher's limit.
    public static func vault(_ loaded: LoadedVault, inotifyLimit: Int?) -> [Finding] {
        let vault = loaded.vault
        guard vault.isInitialized else {
            return [Finding(.error, "vault", "vault", "\(vault.root) has no .quire folder: reviews cannot be recorded",
                            fix: "quire init \(vault.root)")]
        }
        let (config, settings) = vault.config()
        return [Finding(.ok, "vault", "vault", "\(vault.root): \(Plural.counted(loaded.index.notes.count, "note")), \(Plural.counted(loaded.index.cardCount, "card"))")]
            + settingsFindings(settings) + noteFindings(loaded, config: config) + logFindings(loaded, config: config)
            + storageFindings(vault) + gitFindings(vault) + watcherFindings(loaded, limit: inotifyLimit)
    }

    /// Whether the settings file reads.
    private static func settingsFindings(_ settings: [Diagnostic]) -> [Finding] {
        var found: [Finding] = []
        let settingsErrors = settings.filter { $0.severity == .error }.count
        if settingsErrors > 0 {
            found.append(Finding(.error, "vault", "settings", "\(Plural.counted(settingsErrors, "error")) in .quire/config.yaml",
                                 fix: "quire check lists them with their lines"))
        } else if !settings.isEmpty {
            found.append(Finding(.warning, "vault", "settings", "\(Plural.counted(settings.count, "warning")) in .quire/config.yaml",
                                 fix: "quire check lists them with their lines"))
        } else {
            found.append(Finding(.ok, "vault", "settings", "read without a problem"))
        }
        return found
    }

    /// The notes: Obsidian's template folders read as notes, files that cannot be read, temporary files a killed process left.
    private static func noteFindings(_ loaded: LoadedVault, config: VaultConfig) -> [Finding] {
        var found: [Finding] = []
        let vault = loaded.vault
        // Obsidian's template folders (placeholders, no notes) read as notes: a vault set up
        // before `ignore:` existed, or whose template folder moved since.
        let ignored = IgnoredPaths(config.ignore)
        let templates = Vault.templateFolders(vault.root, io: vault.io).filter { !ignored.contains($0) }
        if !templates.isEmpty {
            let list = "[" + (config.ignore + templates).map(VaultConfig.flowItem).joined(separator: ", ") + "]"
            found.append(Finding(.warning, "vault", "templates",
                                 "Obsidian's template folder\(templates.count == 1 ? "" : "s") \(templates.map { "'\($0)'" }.joined(separator: ", ")) "
                                 + "read as notes (their placeholders are no YAML)",
                                 fix: "quire config set ignore \"\(list)\""))
        }
        // A leftover temporary file is named by TemporaryFiles' rule; the scanner reports it.
        func isLeftover(_ d: Diagnostic) -> Bool { TemporaryFiles.writer(ofName: String(d.path.split(separator: "/").last ?? "")) != nil }
        let leftovers = loaded.index.diagnostics.filter(isLeftover)
        let unreadable = loaded.errors.filter { !isLeftover($0) }
        if unreadable.isEmpty {
            found.append(Finding(.ok, "vault", "notes", "every note reads"))
        } else {
            found.append(Finding(.error, "vault", "notes", "\(Plural.counted(unreadable.count, "file")) cannot be read (left out of study)",
                                 fix: "quire check --errors-only lists them at path:line:column"))
        }
        if !leftovers.isEmpty {
            found.append(Finding(.warning, "vault", "temporary files", "\(leftovers.count) left by quire processes that were killed",
                                 fix: "delete them (quire check names them); the files they were to replace are intact"))
        }
        return found
    }

    /// The review log against the notes' scheduling lines, and its lines that cannot be used.
    private static func logFindings(_ loaded: LoadedVault, config: VaultConfig) -> [Finding] {
        var found: [Finding] = []
        let vault = loaded.vault
        let replay = ReviewReplay(vault: vault, index: loaded.index, config: config)
        let drift = replay.differences.count
        if drift > 0 {
            found.append(Finding(.warning, "vault", "review log", "\(drift) card\(drift == 1 ? "'s" : "s'") scheduling line\(drift == 1 ? "" : "s") differ from the log",
                                 fix: "quire replay (the log is the truth; quire replay --check shows them first)"))
        } else {
            found.append(Finding(.ok, "vault", "review log", "\(replay.eventCount) events; every scheduling line agrees"))
        }
        let logProblems = replay.diagnostics.filter { $0.severity != .note }.count
        if logProblems > 0 {
            found.append(Finding(.warning, "vault", "review log lines", "\(Plural.counted(logProblems, "line")) of the log cannot be used",
                                 fix: "quire check lists them; they are skipped"))
        }
        return found
    }

    /// The index cache, and what an interrupted import left in staging.
    private static func storageFindings(_ vault: Vault) -> [Finding] {
        var found: [Finding] = []
        if vault.cache != nil {
            found.append(Finding(.ok, "vault", "index cache", ".quire/cache/ in use"))
        } else {
            found.append(Finding(.note, "vault", "index cache", "none yet, or unreadable: the next command rebuilds it"))
        }
        if let staging = try? vault.internalFolder(Vault.folderName + "/staging"), let names = vault.io.names(in: staging), !names.isEmpty {
            // What is left after opening the vault finished what it could: files of a killed
            // import whose place another file took meanwhile.
            found.append(Finding(.warning, "vault", "staging", "\(Plural.counted(names.count, "item")) in .quire/staging/ from an interrupted import "
                                 + "that could not be finished (a file took the place of one of its files)",
                                 fix: "each stage's journal names its files' places: move what you want to keep by hand, then remove .quire/staging/"))
        }
        return found
    }

    /// In a git clone: the merge driver and the ignored files.
    private static func gitFindings(_ vault: Vault) -> [Finding] {
        var found: [Finding] = []
        if vault.io.linkStamp(vault.root + "/.git") != nil {
            if GitSetup.isRegistered(vault: vault) {
                found.append(Finding(.ok, "vault", "git", "the merge driver is set up in this clone"))
            } else {
                found.append(Finding(.warning, "vault", "git", "the merge driver is not set up in this clone: a merge may conflict on scheduling lines",
                                     fix: "quire git setup"))
            }
            let ignore = String(decoding: (try? vault.io.read(vault.root + "/.gitignore").bytes) ?? [], as: UTF8.self)
            let missing = GitSetup.localFiles.filter { !ignore.contains($0) }
            if !missing.isEmpty {
                found.append(Finding(.warning, "vault", ".gitignore", "does not keep \(missing.joined(separator: ", ")) out of git",
                                     fix: "quire git setup"))
            }
        }
        return found
    }

    /// The watcher's folders against the system's inotify limit.
    private static func watcherFindings(_ loaded: LoadedVault, limit inotifyLimit: Int?) -> [Finding] {
        var found: [Finding] = []
        if let limit = inotifyLimit {
            var folders = Set<String>()
            for note in loaded.index.notes { folders.insert(FileIO.directory(of: note.path)) }
            if folders.count * 5 > limit * 4 {
                found.append(Finding(.warning, "vault", "watcher", "\(Plural.counted(folders.count, "folder")) near the system's limit of \(limit) watches",
                                     fix: "sudo sysctl fs.inotify.max_user_watches=524288 (and in /etc/sysctl.d/ to keep it)"))
            } else {
                found.append(Finding(.ok, "vault", "watcher", "\(Plural.counted(folders.count, "folder")), within the limit of \(limit) watches"))
            }
        }
        return found
    }

    /// `1 note`, `3 notes`.

    /// The findings as JSON (`quire doctor --json`).
    public static func json(_ findings: [Finding]) -> JSONValue {
        .array(findings.map { f in
            .object([("level", .string(f.level.rawValue)), ("area", .string(f.area)), ("title", .string(f.title)),
                     ("detail", .string(f.detail)), ("fix", .optional(f.fix))])
        })
    }
}
