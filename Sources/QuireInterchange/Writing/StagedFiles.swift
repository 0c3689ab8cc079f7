import QuireSystem
import QuireVault

/// New files written all or none (`quire import`): each is first written in full into a folder of
/// its own under `.quire/staging/`, all made durable by one flush of the file system (one `syncfs`
/// rather than an fsync a file: 50,000 notes), then the stage's journal is written and made
/// durable, then all are moved into place, each by one rename that never replaces a file — log
/// files first, then the others (FORMAT.md §6.1). A process killed during the moves leaves the
/// journal, and the next command finishes the moves (``StagingJournal``); one killed before it
/// leaves a stage the next writer removes. When a file cannot be moved — a file appeared at its
/// path, a folder cannot be made — the ones already moved are taken out again, so the vault is left
/// as it was. The vault's write lock is held throughout.
public enum StagedFiles {
    /// The staging folder's parent, relative to the vault.
    public static let folder = StagingJournal.folder

    /// A file to write.
    public struct File {
        /// What the path names, which decides how it is checked: a note, another file of the vault
        /// (such as an image) or a file of Quire's own under `.quire/` (such as a log).
        public typealias Kind = StagingJournal.Entry.Kind

        /// Its path relative to the vault.
        public var path: String
        /// What it is, which decides how its path is checked.
        public var kind: Kind
        /// Its bytes, asked for once, when it is staged (a large media file is read then).
        public var bytes: () throws -> [UInt8]

        /// A file to write.
        public init(_ path: String, _ kind: Kind, bytes: @escaping () throws -> [UInt8]) {
            self.path = path
            self.kind = kind
            self.bytes = bytes
        }

        /// A note given with its bytes.
        public static func note(_ path: String, _ bytes: [UInt8]) -> File { File(path, .note) { bytes } }
    }

    /// Writes `files` (paths relative to the vault, none existing).
    ///
    /// - Parameters:
    ///   - budget: the most bytes the files may hold in all; past it (a media file larger than it
    ///     said) staging stops and nothing is written (``InterchangeError/overBudget(limit:)``).
    ///   - progress: called after each file is staged, with the number staged.
    public static func write(_ files: [File], to vault: Vault, budget: Int = .max, progress: (Int) -> Void = { _ in }) throws(InterchangeError) {
        let io = vault.io
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .cannotWrite(path: Vault.lockPath, reason: error.description) }
        defer { lock.release() }
        // Every target checked before anything is written.
        let targets = try Self.targets(of: files, in: vault)
        var stage = try Stage(in: vault)
        try stage.copy(files, budget: budget, progress: progress)
        CrashPoint.staged.reach()
        // The logs first.
        let order = files.indices.filter { files[$0].kind == .quire } + files.indices.filter { files[$0].kind != .quire }
        try stage.writeJournal(files, order: order)
        try stage.move(files, to: targets, order: order)
        // The renames, and the folders made for them, durable; then the journal can go.
        try? io.syncFileSystem(containing: vault.root)
        io.removeFile(stage.path + "/" + StagingJournal.journalName)
        stage.removeStage()
    }

    /// The full path of each file, every one checked before anything is written: none there yet,
    /// within Linux's limits, and one line of the journal.
    private static func targets(of files: [File], in vault: Vault) throws(InterchangeError) -> [String] {
        let io = vault.io
        var targets: [String] = []
        for file in files {
            do {
                let full = switch file.kind {
                case .note: try vault.notePath(file.path)
                case .file: try vault.filePath(file.path)
                case .quire: try vault.internalPath(file.path)
                }
                if io.linkStamp(full) != nil { throw InterchangeError.cannotWrite(path: file.path, reason: "a file is already there") }
                // Linux's limits, checked here: past them a write fails midway, after folders
                // were made for it (a deck 3,000 levels deep left 2,037 empty folders).
                if full.utf8.count > maximumPathBytes || full.split(separator: "/").contains(where: { $0.utf8.count > maximumNameBytes }) {
                    throw InterchangeError.cannotWrite(path: String(file.path.prefix(200)) + (file.path.count > 200 ? "…" : ""), reason:
                        "the path is longer than the file system allows (at most \(maximumPathBytes) bytes, \(maximumNameBytes) a name)")
                }
                // The journal holds one path a line.
                if file.path.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" }) {
                    throw InterchangeError.cannotWrite(path: file.path, reason: "the path holds a line break or a tab")
                }
                targets.append(full)
            } catch let error as InterchangeError {
                throw error
            } catch {
                throw .cannotWrite(path: file.path, reason: "\(error)")
            }
        }
        return targets
    }
    /// Linux's longest path (PATH_MAX less its NUL) and longest name (NAME_MAX), in bytes.
    static let maximumPathBytes = 4095, maximumNameBytes = 255
}

/// A stage being written under `.quire/staging/`: its folder, the copies staged in it and the
/// folders made for the files, so that a write that fails takes all of them out again.
private struct Stage {
    let vault: Vault
    let io: FileIO
    /// The stage's folder.
    let path: String
    /// The staged copies, in the files' order.
    var staged: [String] = []
    /// Folders made for the files (each level), so that a write that fails takes them out again.
    var madeFolders: [String] = []

    /// Makes a new stage's folder.
    init(in vault: Vault) throws(InterchangeError) {
        self.vault = vault
        io = vault.io
        do {
            path = try vault.internalFolder(StagedFiles.folder + "/import-" + String(UInt64.random(in: 0...UInt64.max), radix: 16))
            try io.makeDirectories(path)
        } catch {
            throw .cannotWrite(path: StagedFiles.folder, reason: error.description)
        }
    }

    /// Takes out the stage, and `.quire/staging`, once empty.
    func removeStage() {
        io.removeEmptyFolder(path)
        if let parent = try? vault.internalFolder(StagedFiles.folder) { io.removeEmptyFolder(parent) }
    }

    /// Takes out the files `moved`, the staged copies, the journal and its abort mark, the stage
    /// and the folders made for the files.
    func cleanUp(moved: [String]) {
        for file in moved { io.removeFile(file) }
        for file in staged { io.removeFile(file) }
        for name in [StagingJournal.journalName, StagingJournal.abortName] { io.removeFile(path + "/" + name) }
        removeStage()
        // Deepest first, so that each is empty when its turn comes.
        for folder in madeFolders.sorted(by: { $0.count > $1.count }) { io.removeEmptyFolder(folder) }
    }

    /// Stages each file's bytes (`0`, `1`, … in the files' order) without a flush each, then makes
    /// them durable all at once; past `budget` bytes in all, or on any failure, everything goes.
    mutating func copy(_ files: [StagedFiles.File], budget: Int, progress: (Int) -> Void) throws(InterchangeError) {
        var total = 0
        for (k, file) in files.enumerated() {
            let copy = path + "/\(k)"
            do {
                let bytes = try file.bytes()
                total += bytes.count
                guard total <= budget else { throw InterchangeError.overBudget(limit: budget) }
                try io.createNew(copy, with: bytes)
            } catch let error as InterchangeError {
                cleanUp(moved: [])
                throw error
            } catch {
                cleanUp(moved: [])
                throw .cannotWrite(path: file.path, reason: "\(error)")
            }
            staged.append(copy)
            progress(k + 1)
        }
        do { try io.syncFileSystem(containing: path) } catch {
            cleanUp(moved: [])
            throw .cannotWrite(path: StagedFiles.folder, reason: error.description)
        }
    }

    /// Writes the stage's journal — each staged copy's inode and its path in the vault, in `order`
    /// — durable before the first move: from here on the import finishes even if killed.
    func writeJournal(_ files: [StagedFiles.File], order: [Int]) throws(InterchangeError) {
        var entries: [StagingJournal.Entry] = []
        for k in order {
            guard let stamp = io.linkStamp(staged[k]) else {
                cleanUp(moved: [])
                throw .cannotWrite(path: files[k].path, reason: "its staged copy is gone")
            }
            entries.append(StagingJournal.Entry(staged: "\(k)", kind: files[k].kind, inode: stamp.inode, path: files[k].path))
        }
        guard let journal = StagingJournal.encode(entries) else {
            cleanUp(moved: [])
            throw .cannotWrite(path: StagedFiles.folder, reason: "a path holds a line break or a tab")
        }
        do { try StagingJournal.write(journal, in: path, io: io) } catch {
            cleanUp(moved: [])
            throw .cannotWrite(path: StagedFiles.folder, reason: "\(error)")
        }
    }

    /// Moves each staged copy to its target, in `order`, each by a rename that never replaces a
    /// file, making the folders it needs; when one cannot be moved the stage is marked aborted and
    /// the files already moved are taken out again.
    mutating func move(_ files: [StagedFiles.File], to targets: [String], order: [Int]) throws(InterchangeError) {
        var moved: [String] = []
        var made = Set<String>()
        for k in order {
            do {
                let parent = FileIO.directory(of: targets[k])
                if made.insert(parent).inserted, io.linkStamp(parent) == nil {
                    // The levels that are not there yet: the ones this write makes.
                    var missing = parent
                    while missing.count > vault.root.count, io.linkStamp(missing) == nil {
                        madeFolders.append(missing)
                        missing = FileIO.directory(of: missing)
                    }
                    try io.makeDirectories(parent)
                }
                try io.moveNoReplace(staged[k], to: targets[k])
            } catch {
                // Undone: marked first, so that a kill from here on takes the moved files out too.
                try? StagingJournal.abort(in: path, io: io)
                cleanUp(moved: moved)
                throw .cannotWrite(path: files[k].path, reason: error.description)
            }
            moved.append(targets[k])
            CrashPoint.stagedMove.reach()
        }
    }
}
