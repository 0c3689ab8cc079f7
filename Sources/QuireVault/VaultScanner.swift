import QuireSystem
import QuireModel
import QuireSupport

/// One note file found by ``VaultScanner``.
public struct ScannedFile: Hashable, Sendable {
    /// Path relative to the vault root, `/`-separated.
    public var relativePath: String
    /// The vault root the path is relative to.
    public var root: String
    /// Path to open (the root joined with the relative path), built when needed: a big vault has
    /// many files, and the workers that read them build these in parallel.
    public var fullPath: String { root + "/" + relativePath }
}

/// One folder ``VaultScanner`` read, with the version of it that was read: a folder whose stamp
/// is unchanged holds the same names (adding, removing or renaming an entry changes its mtime).
public struct ScannedFolder: Hashable, Sendable {
    /// Path relative to the vault root (empty for the root).
    public var relativePath: String
    public var stamp: FileStamp

    package init(relativePath: String, stamp: FileStamp) {
        self.relativePath = relativePath
        self.stamp = stamp
    }
}

/// Finds the note files of a vault: every `*.md` below the root, skipping folders whose name starts
/// with `.`, following symbolic links only inside the vault and reading each folder once.
public struct VaultScanner: Sendable {
    /// The file layer used for `stat` calls.
    public var io: FileIO
    /// The files and folders left out (`ignore:`): never listed, nor a folder of them read.
    public var ignored: IgnoredPaths

    /// Creates a scanner.
    public init(io: FileIO = FileIO(), ignored: IgnoredPaths = .none) {
        self.io = io
        self.ignored = ignored
    }

    /// Lists the note files under `root`, sorted by relative path, plus diagnostics for links that
    /// leave the vault and folders that cannot be read.
    public func scan(root: String) -> (files: [ScannedFile], diagnostics: [Diagnostic], folders: [ScannedFolder]) {
        scan(root: root, concurrency: nil)
    }

    /// ``scan(root:)`` with the folders below the root read on up to `concurrency` threads (default:
    /// one per core). Reading a folder is mostly the kernel's work (about 0.2 s for the 6,700
    /// folders of a 100,000-file vault), which two cores halve.
    ///
    /// Each folder at the top is walked on its own, knowing only the folders the root lists, and
    /// the walks are put together in the root's order. A one-thread walk would also skip a folder
    /// that an earlier walk read (through a link); then the same folder shows up in two walks, and
    /// the vault is scanned again on one thread. So the result is always the one-thread result.
    func scan(root: String, concurrency: Int?) -> (files: [ScannedFile], diagnostics: [Diagnostic], folders: [ScannedFolder]) {
        var walk = Walk(io: io, root: root, realRoot: FileIO.realPath(root) ?? root, ignored: ignored)
        // Each folder's stamp is taken before it is read: a change made while reading shows as a
        // newer stamp next time.
        if let s = io.stamp(root) {
            walk.visited.insert(FileIdentity(device: s.device, inode: s.inode))
            walk.folderStamps[""] = s
        }
        let workers = max(1, min(concurrency ?? System.coreCount, 64))
        let rootStack: [Pending] = [.folder("")]
        guard workers > 1 else {
            walk.run(rootStack)
            return (walk.files, walk.diagnostics, walk.folders)
        }
        let whole = walk
        // The root, read here; then its folders, each walked on its own.
        walk.visit(.folder(""))
        let top = walk.stack.reversed()
        walk.stack = []
        let subtrees = top.filter { if case .folder = $0 { true } else { false } }
        let parts = ResultSlots<Walk>(count: subtrees.count)
        // What the root's reading found, without its results: each walk starts from it.
        var start = walk
        start.files = []
        start.folders = []
        start.diagnostics = []
        let empty = start
        inParallelChunks(of: subtrees.count, chunk: 1, concurrency: workers) { range in
            for i in range {
                var part = empty
                part.run([subtrees[i]])
                parts[i] = part
            }
            return true
        }
        var next = 0
        for item in top {
            switch item {
            case .file:
                walk.visit(item)
            case .folder:
                let part = parts.take(next)
                next += 1
                guard let part else { continue }
                walk.files += part.files
                walk.folders += part.folders
                walk.diagnostics += part.diagnostics
            }
        }
        var identities = Set<FileIdentity>()
        for f in walk.folders where !identities.insert(FileIdentity(device: f.stamp.device, inode: f.stamp.inode)).inserted {
            // A folder read by two walks: one walk skips the second time.
            var again = whole
            again.run(rootStack)
            return (again.files, again.diagnostics, again.folders)
        }
        return (walk.files, walk.diagnostics, walk.folders)
    }

    /// A depth-first walk with an explicit stack of files and folders still to visit. Each
    /// folder's entries are pushed in reverse byte order of their name (a folder's name counting
    /// as `name/`), so paths come out in byte order without sorting them all at the end.
    private struct Walk: Sendable {
        let io: FileIO
        let root: String
        let realRoot: String
        let ignored: IgnoredPaths
        /// The folders read or listed to be read, so that a link does not read one again.
        var visited = Set<FileIdentity>()
        /// The stamps of folders listed to be read, taken when listed.
        var folderStamps: [String: FileStamp] = [:]
        var stack: [Pending] = []
        var files: [ScannedFile] = []
        var folders: [ScannedFolder] = []
        var diagnostics: [Diagnostic] = []

        init(io: FileIO, root: String, realRoot: String, ignored: IgnoredPaths) {
            self.io = io
            self.root = root
            self.realRoot = realRoot
            self.ignored = ignored
        }

        /// Visits `start` and everything below it.
        mutating func run(_ start: [Pending]) {
            stack = start
            while let pending = stack.popLast() { visit(pending) }
        }

        /// Takes in a file, or reads a folder and pushes what it holds.
        mutating func visit(_ pending: Pending) {
            let relDir: String
            switch pending {
            case .file(let rel):
                files.append(ScannedFile(relativePath: rel, root: root))
                return
            case .folder(let rel):
                relDir = rel
                if let stamp = folderStamps.removeValue(forKey: rel) { folders.append(ScannedFolder(relativePath: rel, stamp: stamp)) }
            }
            let fullDir = relDir.isEmpty ? root : root + "/" + relDir
            var children: [(key: String, item: Pending)] = []
            // Read from a copy: the closure below changes the walk while the folder is listed.
            let io = self.io
            let failure = io.readFolder(fullDir) { name, kind, isValidName in
                if let child = child(named: name, kind: kind, isValidName: isValidName, in: relDir, fullDir: fullDir) {
                    children.append(child)
                }
            }
            if let failure {
                diagnostics.append(Diagnostic(.error, path: relDir.isEmpty ? "." : relDir, message: "cannot read folder: \(errnoMessage(failure))"))
                return
            }
            stack.append(contentsOf: VaultScanner.descendingByteOrder(children.map(\.key)).lazy.map { children[$0].item })
        }

        /// What folder entry `name` of `relDir` adds to the walk (keyed for sorting), or nil when
        /// it adds nothing: hidden, ignored, not a note, or skipped with a warning.
        mutating func child(named name: String, kind: FolderEntryKind, isValidName: Bool, in relDir: String,
                            fullDir: String) -> (key: String, item: Pending)? {
            if name.hasPrefix(".") {  // ., .., hidden files and folders
                if TemporaryFiles.isLeftover(name) {
                    diagnostics.append(Diagnostic(.warning, path: relDir.isEmpty ? name : relDir + "/" + name,
                        message: "temporary file left by a quire process that was killed; "
                            + "the next write in this folder removes it"))
                }
                // Quire's own folder is not scanned, but the settings are written there: a
                // killed `config set` leaves its temporary file beside `config.yaml`.
                if relDir.isEmpty, name == Vault.folderName, kind == .directory {
                    _ = io.readFolder(fullDir + "/" + name) { inner, innerKind, _ in
                        guard innerKind == .regularFile, inner.hasPrefix("."), TemporaryFiles.isLeftover(inner) else { return }
                        diagnostics.append(Diagnostic(.warning, path: name + "/" + inner,
                            message: "temporary file left by a quire process that was killed; the next change of the settings removes it"))
                    }
                }
                return nil
            }
            // A name that is not UTF-8 cannot be named again (its repaired form names no file).
            guard isValidName else {
                diagnostics.append(Diagnostic(.warning, path: relDir.isEmpty ? name : relDir + "/" + name,
                    message: "file name is not valid UTF-8; skipped (rename it)"))
                return nil
            }
            // The common case first, building no more strings than it needs.
            if kind == .regularFile {
                if VaultScanner.isNoteName(name) {
                    let rel = relDir.isEmpty ? name : relDir + "/" + name
                    if !ignored.isEmpty, ignored.contains(rel) { return nil }
                    return (name, .file(rel))
                } else if VaultScanner.isConflictName(name) {
                    diagnostics.append(Diagnostic(.warning, path: relDir.isEmpty ? name : relDir + "/" + name,
                        message: "another program's version of a note that changed while quire wrote it; "
                            + "compare it with the note, keep what you need, and delete it"))
                }
                return nil
            }
            let rel = relDir.isEmpty ? name : relDir + "/" + name
            if !ignored.isEmpty, ignored.contains(rel) { return nil }
            return otherChild(named: name, kind: kind, rel: rel, full: fullDir + "/" + name)
        }

        /// What an entry that the folder listing did not call a regular file adds: a folder (or a
        /// link to one inside the vault) not read yet, or a note; links outside the vault and
        /// broken ones are warned about.
        mutating func otherChild(named name: String, kind: FolderEntryKind, rel: String,
                                 full: String) -> (key: String, item: Pending)? {
            var kind = kind
            if kind == .unknown {
                guard let s = io.linkStamp(full) else { return nil }
                kind = s.isDirectory ? .directory : s.isSymbolicLink ? .symbolicLink : s.isRegularFile ? .regularFile : .other
            }
            if kind == .symbolicLink {
                guard let target = FileIO.realPath(full), let s = io.stamp(full) else {
                    diagnostics.append(Diagnostic(.warning, path: rel, message: "broken symbolic link; skipped"))
                    return nil
                }
                let inside = target == realRoot || target.hasPrefix(realRoot + "/")
                if s.isDirectory {
                    if !inside {
                        diagnostics.append(Diagnostic(.warning, path: rel,
                            message: "symbolic link points outside the vault; skipped"))
                    } else if visited.insert(FileIdentity(device: s.device, inode: s.inode)).inserted {
                        folderStamps[rel] = s
                        return (name + "/", .folder(rel))
                    }
                } else if VaultScanner.isNoteName(name), !inside {
                    diagnostics.append(Diagnostic(.warning, path: rel,
                        message: "symbolic link points outside the vault; skipped"))
                }
                // A link to a note inside the vault would read that note twice: the note is read
                // at its own path.
            } else if kind == .directory {
                if let s = io.stamp(full), visited.insert(FileIdentity(device: s.device, inode: s.inode)).inserted {
                    folderStamps[rel] = s
                    return (name + "/", .folder(rel))
                }
            } else if kind == .regularFile, VaultScanner.isNoteName(name) {
                return (name, .file(rel))
            }
            return nil
        }
    }

    /// The positions of `keys` in reverse byte order. Most keys differ in their first eight bytes,
    /// compared as one integer; only keys that share them are compared whole.
    static func descendingByteOrder(_ keys: [String]) -> [Int] {
        let prefixes = keys.map { key -> UInt64 in
            var key = key
            return key.withUTF8 { utf8 in
                var prefix: UInt64 = 0
                for i in 0..<8 { prefix = prefix << 8 | UInt64(i < utf8.count ? utf8[i] : 0) }
                return prefix
            }
        }
        return keys.indices.sorted { a, b in
            prefixes[a] != prefixes[b] ? prefixes[a] > prefixes[b] : utf8Precedes(keys[b], keys[a])
        }
    }

    /// A file or folder the scan has found but not yet listed or read.
    private enum Pending: Sendable {
        case file(String)
        case folder(String)
    }



    /// Whether a file name is one ``FileIO`` gives a version it could not put in place
    /// (`NAME.md.quire-conflict-PID-RANDOM`).
    static func isConflictName(_ name: String) -> Bool {
        name.utf8.count > 20 && name.utf8.contains(UInt8(ascii: "-")) && name.contains(".md.quire-conflict-")
    }

    /// Whether a file name is a note's (`*.md`, case-insensitive).
    public static func isNoteName(_ name: String) -> Bool {
        let u = name.utf8
        guard u.count > 3 else { return false }
        var i = u.index(u.endIndex, offsetBy: -3)
        guard u[i] == UInt8(ascii: ".") else { return false }
        i = u.index(after: i)
        guard u[i] | 0x20 == UInt8(ascii: "m") else { return false }
        i = u.index(after: i)
        return u[i] | 0x20 == UInt8(ascii: "d")
    }

}

/// A file's identity on its file system.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
}

