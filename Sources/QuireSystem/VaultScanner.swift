#if canImport(Glibc)
import Glibc
#endif
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
        var walk = Walk(io: io, root: root, realRoot: Self.realPath(root) ?? root, ignored: ignored)
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
            guard let dir = opendir(fullDir) else {
                diagnostics.append(Diagnostic(.error, path: relDir.isEmpty ? "." : relDir,
                                              message: "cannot read folder: \(errnoMessage(currentErrno))"))
                return
            }
            var children: [(key: String, item: Pending)] = []
            while let entry = readdir(dir) {
                let name = VaultScanner.name(of: entry)
                if name.hasPrefix(".") {  // ., .., hidden files and folders
                    if TemporaryFiles.isLeftover(name) {
                        diagnostics.append(Diagnostic(.warning, path: relDir.isEmpty ? name : relDir + "/" + name,
                            message: "temporary file left by a quire process that was killed; "
                                + "the next write in this folder removes it"))
                    }
                    continue
                }
                // A name that is not UTF-8 cannot be named again (its repaired form names no file).
                if name.utf8.contains(0xEF), !VaultScanner.isValidName(entry) {
                    diagnostics.append(Diagnostic(.warning, path: relDir.isEmpty ? name : relDir + "/" + name,
                        message: "file name is not valid UTF-8; skipped (rename it)"))
                    continue
                }
                var type = entry.pointee.d_type
                // The common case first, building no more strings than it needs.
                if type == UInt8(DT_REG) {
                    if VaultScanner.isNoteName(name) {
                        let rel = relDir.isEmpty ? name : relDir + "/" + name
                        if !ignored.isEmpty, ignored.contains(rel) { continue }
                        children.append((name, .file(rel)))
                    } else if VaultScanner.isConflictName(name) {
                        diagnostics.append(Diagnostic(.warning, path: relDir.isEmpty ? name : relDir + "/" + name,
                            message: "another program's version of a note that changed while quire wrote it; "
                                + "compare it with the note, keep what you need, and delete it"))
                    }
                    continue
                }
                let rel = relDir.isEmpty ? name : relDir + "/" + name
                if !ignored.isEmpty, ignored.contains(rel) { continue }
                let full = fullDir + "/" + name
                if type == UInt8(DT_UNKNOWN) {
                    guard let s = io.linkStamp(full) else { continue }
                    type = s.isDirectory ? UInt8(DT_DIR) : s.isSymbolicLink ? UInt8(DT_LNK)
                        : s.isRegularFile ? UInt8(DT_REG) : UInt8(DT_UNKNOWN)
                }
                if type == UInt8(DT_LNK) {
                    guard let target = VaultScanner.realPath(full), let s = io.stamp(full) else {
                        diagnostics.append(Diagnostic(.warning, path: rel, message: "broken symbolic link; skipped"))
                        continue
                    }
                    let inside = target == realRoot || target.hasPrefix(realRoot + "/")
                    if s.isDirectory {
                        if !inside {
                            diagnostics.append(Diagnostic(.warning, path: rel,
                                message: "symbolic link points outside the vault; skipped"))
                        } else if visited.insert(FileIdentity(device: s.device, inode: s.inode)).inserted {
                            folderStamps[rel] = s
                            children.append((name + "/", .folder(rel)))
                        }
                    } else if VaultScanner.isNoteName(name), !inside {
                        diagnostics.append(Diagnostic(.warning, path: rel,
                            message: "symbolic link points outside the vault; skipped"))
                    }
                    // A link to a note inside the vault would read that note twice: the note is read
                    // at its own path.
                } else if type == UInt8(DT_DIR) {
                    if let s = io.stamp(full), visited.insert(FileIdentity(device: s.device, inode: s.inode)).inserted {
                        folderStamps[rel] = s
                        children.append((name + "/", .folder(rel)))
                    }
                } else if type == UInt8(DT_REG), VaultScanner.isNoteName(name) {
                    children.append((name, .file(rel)))
                }
            }
            closedir(dir)
            stack.append(contentsOf: VaultScanner.descendingByteOrder(children.map(\.key)).lazy.map { children[$0].item })
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

    /// The name in a folder entry from `readdir`.
    static package func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: entry.pointee.d_name) { ptr in
            ptr.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
    }

    /// Whether a folder entry's name is valid UTF-8 (``name(of:)`` repairs one that is not).
    static func isValidName(_ entry: UnsafeMutablePointer<dirent>) -> Bool {
        withUnsafePointer(to: entry.pointee.d_name) { ptr in
            ptr.withMemoryRebound(to: CChar.self, capacity: 256) { String(validatingCString: $0) != nil }
        }
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

    /// The canonical absolute path, resolving every link.
    public static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}

/// A file's identity on its file system.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
}

/// Byte-wise order of two strings' UTF-8 (what `sort` and `ls` in the C locale do), with memcmp:
/// the generic `lexicographicallyPrecedes` over UTF-8 views costs a second on 100,000 paths.
package func utf8Precedes(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            let n = min(x.count, y.count)
            if n > 0, let xb = x.baseAddress, let yb = y.baseAddress {
                let c = memcmp(xb, yb, n)
                if c != 0 { return c < 0 }
            }
            return x.count < y.count
        }
    }
}
