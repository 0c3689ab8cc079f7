#if canImport(Glibc)
import QuireSupport
import QuireIndex
import Glibc
#endif
import QuireSystem
import QuireVault

/// A ``FileWatcher`` over Linux inotify: one watch per non-hidden folder of the vault, added as
/// folders appear.
///
/// What it reports:
/// - a note created, written or moved in: ``FileChange/changed(_:)``; deleted or moved away:
///   ``FileChange/removed(_:)``. An editor that saves through a temporary file renamed over the note
///   gives one `changed` for the note: temporary names are not notes (hidden, or not `*.md`).
/// - a folder created or moved in: a watch on it and every folder below it, then `changed` for every
///   note found inside (listed after the watches are added, so a note written meanwhile is not
///   missed).
/// - a folder deleted or moved away (out of the vault or into a hidden folder): `removed` for every
///   note the watcher knew below it (listed when the folder was watched, or reported since). A folder
///   renamed within the vault is both: `removed` for the old paths, `changed` for the new ones.
/// - lost events (``FileChange/rescan(reason:)``): the kernel's queue overflowed (the watcher then
///   walks the vault again to repair its watches), or the vault folder itself moved or was deleted.
///
/// Degraded mode: when `inotify_add_watch` fails with ENOSPC (the user's `fs.inotify.max_user_watches`
/// is reached), the folders it could not watch are listed in a `rescan` warning and left unwatched;
/// the watcher goes on for the folders it watches. Changes in an unwatched folder are not seen, but
/// the notes listed there are still reported `removed` when the folder is deleted or moved away from a
/// watched parent. An unwatched folder is tried again when a walk passes it: when it is moved within
/// the vault, after a queue overflow, or when the watcher is started again.
///
/// Folders reached through symbolic links are not watched (``VaultScanner`` reads each folder at one
/// path only).
public final class InotifyWatcher: FileWatcher {
    /// The vault root the reported paths are relative to.
    public let root: String
    /// A batch ends when no event came for this long…
    public let quietWindow: Duration
    /// …or this long after its first change.
    public let maximumDelay: Duration

    private let sys: SystemCalls
    private let io: FileIO
    private var fd: Int32 = -1
    /// Every watched folder by watch descriptor.
    private var folders: [Int32: WatchedFolder] = [:]
    private var rootWatch: Int32 = -1
    /// The notes of folders the watch limit left unwatched, by path: removed with their folder.
    private var unwatched: [String: Set<String>] = [:]
    /// Folders moved away, by the rename's cookie: their watches stay until the end of the read, in
    /// case the folder arrives in the vault under another name (the same watches then go on).
    private var movedAway: [UInt32: [Int32]] = [:]
    /// Why the vault folder can no longer be watched, once it is gone.
    private var vaultGone: String?
    /// Changes found outside ``next(timeout:)`` (warnings from ``start()``), returned first.
    private var pending = ChangeBatch()
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// Creates a watcher; nothing is watched before ``start()``.
    ///
    /// - Parameters:
    ///   - root: the vault folder.
    ///   - sys: the system calls used.
    ///   - quietWindow: a batch ends when no event came for this long.
    ///   - maximumDelay: a batch ends at the latest this long after its first change, even if events
    ///     keep coming.
    public init(root: String, sys: SystemCalls = .live,
                quietWindow: Duration = .milliseconds(15), maximumDelay: Duration = .milliseconds(50)) {
        var root = root
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        self.root = root
        self.sys = sys
        self.io = FileIO(sys: sys)
        self.quietWindow = quietWindow
        self.maximumDelay = maximumDelay
    }

    deinit { stop() }

    // MARK: - FileWatcher

    /// Starts watching the root and every non-hidden folder below it; does nothing when already
    /// started.
    ///
    /// Folders the watch limit leaves unwatched are reported by the first ``next(timeout:)`` as a
    /// ``FileChange/rescan(reason:)`` warning.
    ///
    /// - Throws: ``WatchError/system(path:operation:code:)`` when inotify cannot be set up, the root
    ///   cannot be watched, or a folder fails for another reason than the watch limit.
    public func start() throws(WatchError) {
        guard fd < 0 else { return }
        let newFD = sys.inotifyInit1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard newFD >= 0 else { throw .system(path: root, operation: "inotify_init1", code: currentErrno) }
        fd = newFD
        do {
            var batch = ChangeBatch()
            try watchTree("", reportNotes: false, into: &batch)
            pending.add(contentsOf: batch)
        } catch {
            stop()
            throw error
        }
    }

    /// Waits for the next debounced batch (see ``FileWatcher/next(timeout:)``).
    ///
    /// - Throws: ``WatchError`` when `poll` or `read` fails, a new folder cannot be watched for
    ///   another reason than the watch limit, or the watcher is not running. After an error the
    ///   watches may be incomplete: stop the watcher, start it again and rescan.
    public func next(timeout: Duration?) throws(WatchError) -> [FileChange]? {
        guard fd >= 0 else { throw .notRunning(path: root) }
        if let vaultGone { throw .vaultGone(path: root, reason: vaultGone) }
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var batch = pending
        pending = ChangeBatch()
        var first: ContinuousClock.Instant? = batch.isEmpty ? nil : clock.now
        var last = first
        // Events already queued are looked at even when the timeout is zero (a caller polling
        // between other work).
        var looked = false
        while true {
            let now = clock.now
            let wait: Duration?
            if let first, let last {
                let end = min(last + quietWindow, first + maximumDelay)
                if end <= now { return batch.changes }
                wait = end - now
            } else if let deadline {
                if deadline <= now {
                    if looked { return nil }
                    wait = .zero
                } else {
                    wait = deadline - now
                }
            } else {
                wait = nil
            }
            looked = true
            guard try waitForEvents(wait) else { continue }
            let readAny = try readEvents(into: &batch)
            if !batch.isEmpty {
                let now = clock.now
                if first == nil { first = now }
                if readAny { last = now }
            }
        }
    }

    /// Closes the inotify descriptor (which removes every watch); safe to call more than once.
    public func stop() {
        guard fd >= 0 else { return }
        _ = sys.close(fd)
        fd = -1
        folders = [:]
        rootWatch = -1
        unwatched = [:]
        movedAway = [:]
        pending = ChangeBatch()
    }

    // MARK: - Waiting and reading

    /// Waits until the descriptor is readable or `wait` passed (nil: no limit); true when readable.
    private func waitForEvents(_ wait: Duration?) throws(WatchError) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let result = sys.poll(&poller, 1, wait.map(Self.milliseconds) ?? -1)
        if result < 0 {
            let code = currentErrno
            if code == EINTR { return false }
            throw .system(path: root, operation: "poll", code: code)
        }
        if result > 0, poller.revents & Int16(POLLNVAL | POLLERR) != 0 {
            throw .system(path: root, operation: "poll", code: EBADF)
        }
        return result > 0
    }

    /// A wait in whole milliseconds for `poll`, rounded up so that a wait never ends early.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return 0 }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (ms, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return Int32.max }
        return Int32(clamping: ms + (attoseconds + perMillisecond - 1) / perMillisecond)
    }

    /// Reads every queued event and applies it; true when any was read.
    private func readEvents(into batch: inout ChangeBatch) throws(WatchError) -> Bool {
        var readAny = false
        // A bounded drain: a folder written to without pause cannot keep the batch from ending.
        var reads = 0
        while reads < 64 {
            let n = buffer.withUnsafeMutableBytes { sys.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let code = currentErrno
                if code == EINTR { continue }
                if code == EAGAIN { break }
                throw .system(path: root, operation: "read", code: code)
            }
            if n == 0 { break }
            reads += 1
            readAny = true
            let events = buffer.withUnsafeBytes { InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            for event in events { try apply(event, into: &batch) }
        }
        // A folder whose arrival in the vault did not follow its leaving went out of the vault (or
        // into a hidden folder): its watches would report paths that are not the vault's.
        for wds in movedAway.values {
            for wd in wds where folders[wd] == nil { _ = sys.inotifyRmWatch(fd, wd) }
        }
        movedAway = [:]
        return readAny
    }

    // MARK: - Applying events

    private func apply(_ event: InotifyEvent, into batch: inout ChangeBatch) throws(WatchError) {
        let mask = event.mask
        if mask & Self.queueOverflow != 0 {
            batch.add(.rescan(reason: "the kernel's inotify queue overflowed: events were lost "
                + "(raising fs.inotify.max_queued_events makes this rarer)"))
            try rewatch(into: &batch)
            return
        }
        if mask & Self.ignored != 0 {
            // The watch is gone (its folder was deleted, or the watcher removed it).
            folders[event.wd] = nil
            return
        }
        guard let folder = folders[event.wd] else { return }  // a folder already forgotten
        if mask & (Self.deleteSelf | Self.moveSelf | Self.unmount) != 0 {
            // A subfolder's own deletion or move is handled from its parent's event, by name.
            if event.wd == rootWatch {
                let reason = mask & Self.unmount != 0
                    ? "the file system holding the vault was unmounted: changes are no longer seen"
                    : "the vault folder '\(root)' was moved or deleted: changes are no longer seen"
                vaultGone = reason
                throw .vaultGone(path: root, reason: reason)
            }
            return
        }
        guard !event.name.isEmpty, !event.name.hasPrefix(".") else { return }
        let path = Self.join(folder.path, event.name)
        if mask & Self.isDirectory != 0 {
            if mask & (Self.delete | Self.movedFrom) != 0 {
                let wds = forgetTree(path, into: &batch)
                if mask & Self.movedFrom != 0 { movedAway[event.cookie, default: []] += wds }
            }
            if mask & (Self.create | Self.movedTo) != 0 {
                // A folder moved within the vault keeps its watches: adding them again returns the
                // same descriptors, now mapped to the new paths.
                if mask & Self.movedTo != 0 { movedAway[event.cookie] = nil }
                try watchTree(path, reportNotes: true, into: &batch)
            }
            return
        }
        guard VaultScanner.isNoteName(event.name),
              mask & (Self.delete | Self.movedFrom | Self.create | Self.modify | Self.closeWrite | Self.movedTo) != 0
        else { return }
        // What is at the path now decides, not the event: a swap (`renameat2(RENAME_EXCHANGE)`, as
        // Quire writes) reports the note moved away after it was moved in. Like the scanner, only a
        // regular file is a note: a symbolic link, FIFO or device with a note's name is none.
        var st = stat()
        if sys.lstat(fullPath(path), &st) == 0, st.st_mode & S_IFMT == S_IFREG {
            folders[event.wd]?.notes.insert(event.name)
            batch.add(.changed(path))
        } else {
            folders[event.wd]?.notes.remove(event.name)
            batch.add(.removed(path))
        }
    }

    /// Forgets the folder at `path` and every folder below it, adding `removed` for the notes known
    /// there; returns their watch descriptors.
    private func forgetTree(_ path: String, into batch: inout ChangeBatch) -> [Int32] {
        let prefix = path + "/"
        let wds = folders.filter { $0.value.path == path || $0.value.path.hasPrefix(prefix) }.map(\.key)
        for wd in wds {
            guard let folder = folders.removeValue(forKey: wd) else { continue }
            for name in folder.notes { batch.add(.removed(Self.join(folder.path, name))) }
        }
        for (folder, notes) in unwatched where folder == path || folder.hasPrefix(prefix) {
            unwatched[folder] = nil
            for name in notes { batch.add(.removed(Self.join(folder, name))) }
        }
        return wds
    }

    /// After lost events: walks the whole vault again, watching every folder (adding the ones
    /// missed) and listing its notes, and drops the watches of folders no longer there.
    private func rewatch(into batch: inout ChangeBatch) throws(WatchError) {
        let before = Set(folders.keys)
        folders = [:]
        unwatched = [:]
        try watchTree("", reportNotes: false, into: &batch)
        for wd in before.subtracting(folders.keys) { _ = sys.inotifyRmWatch(fd, wd) }
    }

    // MARK: - Walking folders

    /// Watches the folder at `top` (vault-relative, "" for the root) and every non-hidden folder
    /// below it, and records their notes, adding `changed` for each when `reportNotes`.
    ///
    /// Each folder is watched before it is listed, so a note written in between is reported by an
    /// event if not by the listing. A folder gone meanwhile is skipped: its own events follow.
    private func watchTree(_ top: String, reportNotes: Bool, into batch: inout ChangeBatch) throws(WatchError) {
        var failed: [String] = []
        var stack = [top]
        while let path = stack.popLast() {
            let full = fullPath(path)
            let wd = sys.inotifyAddWatch(fd, full, Self.folderMask)
            if wd < 0 {
                let code = currentErrno
                if path.isEmpty { throw .system(path: full, operation: "inotify_add_watch", code: code) }
                switch code {
                case ENOENT, ENOTDIR: continue
                case ENOSPC: failed.append(path)
                default: throw .system(path: full, operation: "inotify_add_watch", code: code)
                }
            }
            guard let listing = try list(path) else { continue }
            if wd >= 0 {
                if let old = folders[wd], old.path != path {
                    // The folder moved before its move was read (a folder made and filled in one go):
                    // its old paths are gone, and the move's own event will find nothing left there.
                    for name in old.notes { batch.add(.removed(Self.join(old.path, name))) }
                }
                folders[wd] = WatchedFolder(path: path, notes: listing.notes)
                unwatched[path] = nil
                if path.isEmpty { rootWatch = wd }
            } else {
                unwatched[path] = listing.notes
            }
            if reportNotes {
                for name in listing.notes { batch.add(.changed(Self.join(path, name))) }
            }
            stack.append(contentsOf: listing.folders.sorted(by: >).map { Self.join(path, $0) })
        }
        if let first = failed.min(by: utf8Precedes) {
            let count = failed.count == 1 ? "1 folder is" : "\(failed.count) folders are"
            batch.add(.rescan(reason: "the inotify watch limit is reached (fs.inotify.max_user_watches): "
                + "\(count) not watched, the first '\(first)'; changes there are seen only by a rescan "
                + "(raise the limit, e.g. sysctl fs.inotify.max_user_watches=524288)"))
        }
    }

    /// The note names and non-hidden subfolder names of a folder (symbolic links skipped), or nil
    /// when it is gone.
    private func list(_ path: String) throws(WatchError) -> (notes: Set<String>, folders: [String])? {
        let full = fullPath(path)
        var notes: Set<String> = []
        var subfolders: [String] = []
        let failure = io.readFolder(full) { name, kind, _ in
            if name.hasPrefix(".") { return }  // ., .., hidden files and folders
            var kind = kind
            if kind == .unknown {
                guard let s = io.linkStamp(full + "/" + name) else { return }
                kind = s.isDirectory ? .directory : s.isRegularFile ? .regularFile : .other
            }
            if kind == .directory {
                subfolders.append(name)
            } else if kind == .regularFile, VaultScanner.isNoteName(name) {
                notes.insert(name)
            }
        }
        if let code = failure {
            if code == ENOENT || code == ENOTDIR, !path.isEmpty { return nil }
            throw .system(path: full, operation: "open folder", code: code)
        }
        return (notes, subfolders)
    }

    private func fullPath(_ path: String) -> String {
        path.isEmpty ? root : root == "/" ? "/" + path : root + "/" + path
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    // MARK: - Masks

    private static let create = UInt32(IN_CREATE)
    private static let modify = UInt32(IN_MODIFY)
    private static let closeWrite = UInt32(IN_CLOSE_WRITE)
    private static let delete = UInt32(IN_DELETE)
    private static let movedFrom = UInt32(IN_MOVED_FROM)
    private static let movedTo = UInt32(IN_MOVED_TO)
    private static let deleteSelf = UInt32(IN_DELETE_SELF)
    private static let moveSelf = UInt32(IN_MOVE_SELF)
    private static let unmount = UInt32(IN_UNMOUNT)
    private static let queueOverflow = UInt32(IN_Q_OVERFLOW)
    private static let ignored = UInt32(IN_IGNORED)
    private static let isDirectory = UInt32(IN_ISDIR)

    /// What a folder's watch asks for. IN_EXCL_UNLINK: no events for a file already deleted but
    /// still open.
    private static let folderMask = create | modify | closeWrite | delete | movedFrom | movedTo
        | deleteSelf | moveSelf | UInt32(IN_ONLYDIR) | UInt32(IN_EXCL_UNLINK)
}

/// A watched folder: its vault-relative path and the notes known in it.
private struct WatchedFolder {
    var path: String
    var notes: Set<String>
}

/// One `struct inotify_event`, copied out of a read buffer.
struct InotifyEvent: Equatable, Sendable {
    var wd: Int32
    var mask: UInt32
    var cookie: UInt32
    /// The file name within the watched folder; empty for events on the folder itself.
    package var name: String

    /// The events in a buffer filled by `read` on an inotify descriptor; a truncated last event is
    /// dropped.
    static package func parse(_ bytes: UnsafeRawBufferPointer) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + header <= bytes.count {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + header
            guard nameStart + length <= bytes.count else { break }
            // The name is NUL-padded to the record's length.
            let nameBytes = bytes[nameStart..<(nameStart + length)].prefix { $0 != 0 }
            events.append(InotifyEvent(
                wd: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                mask: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                cookie: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self),
                name: String(decoding: nameBytes, as: UTF8.self)))
            offset = nameStart + length
        }
        return events
    }
}
