#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import QuireModel

/// Every card's scheduling state with its note's deck, read from the index cache alone: what
/// `quire due` needs, without decoding a single card's text.
public struct ScheduleSummary: Sendable {
    /// One note's part.
    public struct NoteSchedules: Sendable {
        public var path: String
        public var deck: DeckPath
        public var archived: Bool
        /// The scheduling states of the note's cards that have one.
        public var schedules: [SchedulingState]
    }

    /// The notes, in path order.
    public var notes: [NoteSchedules]
    /// Every problem the full index would report, in the same order.
    public var diagnostics: [Diagnostic]

    /// The summary from `cache`, or nil when the cache is missing, damaged, or any note file was
    /// added, removed or changed since it was written (then build the index, which updates it).
    ///
    /// No folder is read: each folder the cache lists must still have its stamp (so it holds the
    /// same names), and each note file its size, mtime and inode — all `stat`ed in parallel.
    public static func load(root: String, cache: IndexCache, concurrency: Int? = nil) -> ScheduleSummary? {
        guard case .success(let snapshot) = cache.load(), !snapshot.folders.isEmpty else { return nil }
        let entries = snapshot.entries
        let folders = snapshot.folders
        let items = folders.count + entries.count
        let workers = max(1, min(concurrency ?? System.coreCount, items))
        let chunk = 256
        let chunks = (items + chunk - 1) / chunk
        let next = AtomicCounter()
        let stale = AtomicFlag()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            // Notes are stat'ed relative to their open folder: one name to look up, not a path.
            var folder = FolderHandle(root: root, io: cache.io)
            defer { folder.close() }
            while !stale.isSet {
                let c = next.increment()
                guard c < chunks else { break }
                for i in (c * chunk)..<min(items, (c + 1) * chunk) {
                    let unchanged: Bool
                    if i < folders.count {
                        let folder = folders[i]
                        let now = cache.io.stamp(folder.relativePath.isEmpty ? root : root + "/" + folder.relativePath)
                        unchanged = !snapshot.isRacy(mtime: folder.stamp.mtimeNanoseconds)
                            && now?.mtimeNanoseconds == folder.stamp.mtimeNanoseconds && now?.inode == folder.stamp.inode
                    } else {
                        let entry = entries[i - folders.count]
                        let stamp = folder.stamp(of: entry.path)
                        unchanged = snapshot.unchangedStamp(entry, fullPath: root + "/" + entry.path, stamp: .some(stamp)) != nil
                    }
                    if !unchanged {
                        stale.set()
                        break
                    }
                }
            }
        }
        guard !stale.isSet else { return nil }
        var notes: [NoteSchedules] = []
        notes.reserveCapacity(entries.count)
        var diagnostics = snapshot.scanDiagnostics
        for entry in entries {
            diagnostics += entry.diagnostics
            guard entry.noteRange != nil, let deck = try? snapshot.tables.deck(entry.deck) else { continue }
            notes.append(NoteSchedules(path: entry.path, deck: deck, archived: entry.archived, schedules: entry.schedules))
        }
        diagnostics += snapshot.crossFileDiagnostics
        VaultIndex.sortDiagnostics(&diagnostics)
        return ScheduleSummary(notes: notes, diagnostics: diagnostics)
    }
}

/// The folder of the last note looked at, kept open while the next notes are in it too.
private struct FolderHandle {
    let root: String
    let io: FileIO
    private var path: Substring?
    private var fd: Int32 = -1

    init(root: String, io: FileIO) {
        self.root = root
        self.io = io
    }

    /// The stamp of the note at `relativePath`.
    mutating func stamp(of relativePath: String) -> FileStamp? {
        // Byte-wise: a Character search would segment graphemes.
        let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/"))
        let dir = slash.map { relativePath[..<$0] } ?? ""
        let name = slash.map { String(relativePath[relativePath.utf8.index(after: $0)...]) } ?? relativePath
        if dir != path {
            close()
            fd = io.sys.open(dir.isEmpty ? root : root + "/" + dir, O_RDONLY | O_DIRECTORY, 0)
            path = dir
        }
        guard fd >= 0 else { return io.stamp(root + "/" + relativePath) }
        return io.stamp(in: fd, name)
    }

    mutating func close() {
        if fd >= 0 { _ = io.sys.close(fd) }
        fd = -1
        path = nil
    }
}
