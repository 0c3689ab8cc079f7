import QuireSystem

/// The journal that makes a staged write (`quire import`) all or none across a crash (FORMAT.md
/// §6.1).
///
/// A staged write puts every new file in full into a folder of its own under `.quire/staging/`,
/// makes them durable, and only then writes that folder's `journal`: one line per file, in the
/// order the files are moved into place, and a last line `end`, made durable before the first move.
/// A process killed during the moves leaves a complete journal: the next writer of the vault —
/// whoever takes its write lock, and any command that opens it — moves the files still staged, so
/// the import ends as if it had not been killed. A stage without a complete journal was killed
/// before any file was moved, and is removed. A write that fails midway (a file appeared at a
/// target) renames its journal `abort` before taking out the files it moved; a stage with `abort`
/// is taken out the same way.
///
/// A vault is untrusted: a journal is read as hostile input. Each target is checked as the writer
/// checked it (a plain relative path inside the vault, no linked folder on the way, a note path for
/// a note), only regular files named by a number are moved from the stage, never over anything,
/// and a target is taken out again only when it is the very file the journal recorded (the same
/// inode: a rename keeps it), so a journal copied from elsewhere can neither write outside the
/// vault nor remove a file of the user's.
public enum StagingJournal {
    /// The staging folder's parent, relative to the vault.
    public static let folder = Vault.folderName + "/staging"
    /// A stage's journal, and the name it takes when its write is undone.
    package static let journalName = "journal", abortName = "abort"
    /// The journal's first line.
    static let header = "quire-staging 1"

    /// One file of a journal.
    public struct Entry: Equatable, Sendable {
        /// What its target is, which decides how its path is checked.
        public enum Kind: String, Sendable {
            /// A note (``Vault/notePath(_:)``).
            case note
            /// Another file of the vault, such as an image (``Vault/filePath(_:)``).
            case file
            /// A file under `.quire/`, such as a log (``Vault/internalPath(_:)``).
            case quire
        }

        /// The staged file's name in its stage (a number).
        public var staged: String
        /// What the target is.
        public var kind: Kind
        /// The staged file's inode, which it keeps when moved.
        public var inode: UInt64
        /// The target, relative to the vault.
        public var path: String

        /// An entry.
        public init(staged: String, kind: Kind, inode: UInt64, path: String) {
            self.staged = staged
            self.kind = kind
            self.inode = inode
            self.path = path
        }
    }

    /// The journal's bytes; nil when a path holds a line break or a tab (the writer refuses it).
    public static func encode(_ entries: [Entry]) -> [UInt8]? {
        var text = header + "\n"
        for entry in entries {
            guard !entry.path.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" }) else { return nil }
            text += "\(entry.staged)\t\(entry.kind.rawValue)\t\(entry.inode)\t\(entry.path)\n"
        }
        return Array((text + "end\n").utf8)
    }

    /// The entries of a journal's bytes, or nil when it is not a whole journal (cut short by a
    /// crash, or not one at all).
    public static func decode(_ bytes: [UInt8]) -> [Entry]? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasSuffix("\nend\n") else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.first == Substring(header), lines.last == "end" else { return nil }
        lines = lines.dropFirst().dropLast()
        var entries: [Entry] = []
        for line in lines {
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, !fields[0].isEmpty, fields[0].allSatisfy(\.isASCII), fields[0].allSatisfy(\.isNumber),
                  let kind = Entry.Kind(rawValue: String(fields[1])), let inode = UInt64(fields[2]) else { return nil }
            entries.append(Entry(staged: String(fields[0]), kind: kind, inode: inode, path: String(fields[3])))
        }
        return entries
    }

    /// Writes a stage's journal, durable before it returns (the staged files must be durable already).
    package static func write(_ bytes: [UInt8], in stage: String, io: FileIO) throws(FileIOError) {
        let path = stage + "/" + journalName
        try io.createNew(path, with: bytes)
        try io.syncFile(path)
        // Its name in the stage durable too, before any move.
        try io.syncFile(stage)
    }

    /// Marks a stage's write as undone: its journal renamed `abort`, durable.
    package static func abort(in stage: String, io: FileIO) throws(FileIOError) {
        guard io.sys.rename(stage + "/" + journalName, stage + "/" + abortName) == 0 else {
            throw .system(path: stage + "/" + journalName, operation: "rename", code: currentErrno)
        }
        try io.syncFile(stage)
    }

    /// Whether a stage under `.quire/staging/` holds a journal (a write to finish, or one running
    /// now), by one listing; false when there is no staging folder (the common case: one `lstat`).
    static func hasJournal(in vault: Vault) -> Bool {
        guard vault.isInitialized, let parent = try? vault.internalFolder(folder), vault.io.linkStamp(parent) != nil else { return false }
        for stage in vault.io.names(in: parent) ?? [] where stage.hasPrefix("import-") {
            if vault.io.linkStamp(parent + "/" + stage + "/" + journalName) != nil { return true }
        }
        return false
    }

    /// What a finished recovery did.
    public struct Recovery: Equatable, Sendable {
        /// Files moved into place (a write finished).
        public var moved: [String] = []
        /// Files taken out again (a write undone).
        public var removed: [String] = []
        /// Targets where something else now is: their staged files are kept in their stage.
        public var blocked: [String] = []
    }

    /// Finishes or undoes what staged writes killed before their end left under `.quire/staging/`.
    /// The caller holds the vault's write lock (``Vault/lockForWriting()`` calls it).
    @discardableResult
    package static func recover(in vault: Vault) -> Recovery {
        var recovery = Recovery()
        let io = vault.io
        guard vault.isInitialized, let parent = try? vault.internalFolder(folder), io.linkStamp(parent)?.isDirectory == true else {
            return recovery
        }
        for stage in (io.names(in: parent) ?? []).sorted() where stage.hasPrefix("import-") {
            guard let path = try? vault.internalFolder(folder + "/" + stage), io.linkStamp(path)?.isDirectory == true else { continue }
            let journal = (try? io.read(path + "/" + journalName))?.bytes
            let aborted = journal == nil ? (try? io.read(path + "/" + abortName))?.bytes : nil
            var keep = false
            if let journal, let entries = decode(journal) {
                var made = false
                for entry in entries {
                    let source = path + "/" + entry.staged
                    guard let stamp = io.linkStamp(source), stamp.isRegularFile, stamp.inode == entry.inode,
                          let target = target(of: entry, in: vault) else { continue }
                    if io.linkStamp(target) != nil {
                        recovery.blocked.append(entry.path)
                        keep = true
                        continue
                    }
                    do {
                        try io.makeDirectories(FileIO.directory(of: target))
                        try io.moveNoReplace(source, to: target)
                        recovery.moved.append(entry.path)
                        made = true
                    } catch {
                        recovery.blocked.append(entry.path)
                        keep = true
                    }
                }
                if made { try? io.syncFileSystem(containing: vault.root) }
            } else if let aborted, let entries = decode(aborted) {
                for entry in entries where io.linkStamp(path + "/" + entry.staged) == nil {
                    guard let target = target(of: entry, in: vault), let stamp = io.linkStamp(target),
                          stamp.isRegularFile, stamp.inode == entry.inode else { continue }
                    if io.removeFile(target) { recovery.removed.append(entry.path) }
                }
            }
            guard !keep else { continue }
            // Only plain files are removed: a stage holding anything else stays.
            for name in io.names(in: path) ?? [] where io.linkStamp(path + "/" + name)?.isRegularFile == true {
                io.removeFile(path + "/" + name)
            }
            io.removeEmptyFolder(path)
        }
        io.removeEmptyFolder(parent)
        return recovery
    }

    /// An entry's target checked as its writer checked it, or nil.
    static func target(of entry: Entry, in vault: Vault) -> String? {
        switch entry.kind {
        case .note: return try? vault.notePath(entry.path)
        case .file: return try? vault.filePath(entry.path)
        case .quire:
            let prefix = Vault.folderName + "/"
            guard entry.path.hasPrefix(prefix), Vault.isPlainRelativePath(String(entry.path.dropFirst(prefix.count))),
                  !entry.path.hasPrefix(folder + "/") else { return nil }
            return try? vault.internalPath(entry.path)
        }
    }
}

extension Vault {
    /// Finishes an import a killed process left half done (see ``StagingJournal``), for a command
    /// that only reads: when a stage holds a journal, takes the write lock — which finishes it —
    /// and lets it go. Never waits: when another process holds the lock (an import running now,
    /// which finishes its own moves) it does nothing, so a shell prompt's `quire due --prompt` is
    /// never held up; nor when there is nothing to finish or the lock cannot be had.
    public func finishInterruptedWrites() {
        guard StagingJournal.hasJournal(in: self), let token = try? lockForWriting(wait: false) else { return }
        token.release()
    }
}
