@testable import QuireWatch
import QuireIndex
import Foundation
import Synchronization
import Testing
@testable import QuireSystem
@testable import QuireTestSupport

/// The inotify watcher on real temporary folders and the real kernel, plus injected failures.
@Suite struct InotifyWatcherTests {
    // MARK: - Notes

    @Test func createdNote() throws {
        try watching { s in
            try s.put("a.md")
            #expect(try s.changes() == [.changed("a.md")])
        }
    }

    @Test func modifiedNote() throws {
        try watching({ try $0.put("Deck/a.md") }) { s in
            try s.append("Deck/a.md", "more :: text\n")
            #expect(try s.changes() == [.changed("Deck/a.md")])
        }
    }

    @Test func deletedNote() throws {
        try watching({ try $0.put("a.md") }) { s in
            try s.remove("a.md")
            #expect(try s.changes() == [.removed("a.md")])
        }
    }

    @Test func renamedWithinAFolder() throws {
        try watching({ try $0.put("Deck/a.md") }) { s in
            try s.move("Deck/a.md", "Deck/b.md")
            #expect(try s.changes() == [.removed("Deck/a.md"), .changed("Deck/b.md")])
        }
    }

    @Test func movedBetweenFolders() throws {
        try watching({ try $0.put("x/a.md"); try $0.makeFolder("y/z") }) { s in
            try s.move("x/a.md", "y/z/a.md")
            #expect(try s.changes() == [.removed("x/a.md"), .changed("y/z/a.md")])
        }
    }

    @Test func movedOutOfTheVault() throws {
        try watching({ try $0.put("Deck/a.md") }) { s in
            try s.move("Deck/a.md", outside: "a.md")
            #expect(try s.changes() == [.removed("Deck/a.md")])
        }
    }

    @Test func movedInFromOutside() throws {
        try watching({ try $0.makeFolder("Deck") }) { s in
            try s.putOutside("a.md")
            try s.moveIn("a.md", "Deck/a.md")
            #expect(try s.changes() == [.changed("Deck/a.md")])
        }
    }

    @Test func aZeroTimeoutStillTakesWhatIsQueued() throws {
        try withTempDir { dir in
            let watcher = InotifyWatcher(root: dir.path)
            try watcher.start()
            defer { watcher.stop() }
            #expect(try watcher.next(timeout: .zero) == nil)
            try dir.write("a.md", "x :: y\n")
            usleep(20_000)  // the kernel has queued the events
            #expect(try watcher.next(timeout: .zero) == [.changed("a.md")])
            #expect(try watcher.next(timeout: .zero) == nil)
        }
    }

    @Test func createdThenDeletedInOneBatchIsRemoved() throws {
        try watching { s in
            try s.put("a.md")
            try s.remove("a.md")
            #expect(try s.changes() == [.removed("a.md")])
        }
    }

    @Test func deletedThenRecreatedInOneBatchIsChanged() throws {
        try watching({ try $0.put("a.md") }) { s in
            try s.remove("a.md")
            try s.put("a.md", "new :: text\n")
            #expect(try s.changes() == [.changed("a.md")])
        }
    }

    // MARK: - Folders

    @Test func createdFolderWithNotes() throws {
        try watching { s in
            try s.put("Deck/a.md")
            try s.put("Deck/Inner/b.md")
            try s.put("Deck/Inner/c.txt")
            #expect(Set(try s.changes()) == [.changed("Deck/a.md"), .changed("Deck/Inner/b.md")])
            // The new folders are watched.
            try s.put("Deck/Inner/d.md")
            #expect(try s.changes() == [.changed("Deck/Inner/d.md")])
        }
    }

    @Test func folderMovedInFromOutside() throws {
        try watching { s in
            try s.putOutside("Pack/a.md")
            try s.putOutside("Pack/Inner/b.md")
            try s.putOutside("Pack/Inner/notes.txt")
            try s.putOutside("Pack/.hidden/c.md")
            try s.moveIn("Pack", "Pack")
            #expect(try s.changes() == [.changed("Pack/Inner/b.md"), .changed("Pack/a.md")])
            try s.put("Pack/Inner/new.md")
            #expect(try s.changes() == [.changed("Pack/Inner/new.md")])
        }
    }

    @Test func renamedFolder() throws {
        try watching({ try $0.put("Old/a.md"); try $0.put("Old/Sub/b.md") }) { s in
            try s.move("Old", "New")
            #expect(try s.changes() == [.changed("New/Sub/b.md"), .changed("New/a.md"),
                                        .removed("Old/Sub/b.md"), .removed("Old/a.md")])
            // The watches follow the folder: events below it name the new paths.
            try s.put("New/Sub/c.md")
            try s.remove("New/a.md")
            #expect(try s.changes() == [.changed("New/Sub/c.md"), .removed("New/a.md")])
        }
    }

    @Test func folderMovedIntoAnotherFolder() throws {
        try watching({ try $0.put("Deck/Sub/a.md"); try $0.put("Deck/Sub/Deeper/b.md"); try $0.makeFolder("Other") }) { s in
            try s.move("Deck/Sub", "Other/Sub")
            #expect(try s.changes() == [.removed("Deck/Sub/Deeper/b.md"), .removed("Deck/Sub/a.md"),
                                        .changed("Other/Sub/Deeper/b.md"), .changed("Other/Sub/a.md")])
            try s.put("Other/Sub/Deeper/c.md")
            #expect(try s.changes() == [.changed("Other/Sub/Deeper/c.md")])
        }
    }

    @Test func folderMovedIntoAFolderMadeJustBefore() throws {
        // The new folder is listed before the move is read: the moved folder's watches are found
        // there first, and its old paths must still be removed.
        try watching({ try $0.put("Deck/a.md"); try $0.put("Deck/Sub/b.md") }) { s in
            try s.makeFolder("Other")
            try s.move("Deck", "Other/Moved")
            #expect(try s.changes() == [.removed("Deck/Sub/b.md"), .removed("Deck/a.md"),
                                        .changed("Other/Moved/Sub/b.md"), .changed("Other/Moved/a.md")])
            try s.put("Other/Moved/Sub/c.md")
            #expect(try s.changes() == [.changed("Other/Moved/Sub/c.md")])
        }
    }

    @Test func folderMadeFilledAndMovedOutBeforeRead() throws {
        try watching { s in
            try s.put("Tmp/Sub/a.md")
            try s.move("Tmp", outside: "Tmp")
            let batch = try s.watcher.next(timeout: .milliseconds(200))
            #expect(batch == nil)
        }
    }

    @Test func deletedFolderWithNotes() throws {
        try watching({ try $0.put("Gone/a.md"); try $0.put("Gone/Sub/b.md"); try $0.put("Gone/c.txt") }) { s in
            try FileManager.default.removeItem(atPath: s.vault.full("Gone"))
            let changes = try s.changes()
            #expect(changes.count == 2)
            #expect(Set(changes) == [.removed("Gone/a.md"), .removed("Gone/Sub/b.md")])
        }
    }

    @Test func folderMovedOutOfTheVault() throws {
        try watching({ try $0.put("Out/a.md"); try $0.put("Out/Sub/b.md") }) { s in
            try s.move("Out", outside: "Out")
            #expect(try s.changes() == [.removed("Out/Sub/b.md"), .removed("Out/a.md")])
            // Its watches are gone: changes out there are not the vault's.
            try s.putOutside("Out/Sub/new.md")
            try s.putOutside("Out/new.md")
            #expect(try s.watcher.next(timeout: .milliseconds(200)) == nil)
        }
    }

    @Test func folderMovedIntoAHiddenFolderIsRemoved() throws {
        try watching({ try $0.put("Deck/a.md"); try $0.makeFolder(".trash") }) { s in
            try s.move("Deck", ".trash/Deck")
            #expect(try s.changes() == [.removed("Deck/a.md")])
            try s.put(".trash/Deck/b.md")
            #expect(try s.watcher.next(timeout: .milliseconds(200)) == nil)
        }
    }

    @Test func vaultFolderMovedAway() throws {
        try watching { s in
            guard rename(s.vault.path, s.vault.path + "-moved") == 0 else { throw TestFailure("rename failed") }
            let gone = WatchError.vaultGone(path: s.vault.path, reason: "the vault folder '\(s.vault.path)' was moved or deleted: "
                + "changes are no longer seen")
            #expect(throws: gone) { try s.changes() }
            // It stays gone: every later call says so (`quire watch` exits 1 on it).
            #expect(throws: gone) { try s.watcher.next(timeout: .zero) }
        }
    }

    // MARK: - What is not a note

    @Test func editorSaveThroughSwapAndBackupFiles() throws {
        // Vim with `backupcopy=no`: a swap file, a probe file, the note renamed to a backup, a new
        // note written, the backup removed.
        try watching({ try $0.put("note.md") }) { s in
            try s.put(".note.md.swp", "swap")
            try s.put("4913", "")
            try s.remove("4913")
            try s.move("note.md", "note.md~")
            try s.put("note.md", "new :: text\n")
            try s.remove("note.md~")
            try s.append(".note.md.swp", "more")
            try s.remove(".note.md.swp")
            #expect(try s.changes() == [.changed("note.md")])
        }
    }

    @Test func editorSaveThroughATemporaryFileRenamedOverTheNote() throws {
        try watching({ try $0.put("Deck/note.md") }) { s in
            try s.put("Deck/note.md.tmp", "new :: text\n")
            try s.move("Deck/note.md.tmp", "Deck/note.md")
            #expect(try s.changes() == [.changed("Deck/note.md")])
        }
    }

    @Test func quireOwnAtomicReplace() throws {
        try watching({ try $0.put("note.md", "old :: text\n") }) { s in
            try FileIO().replace(s.vault.full("note.md"), with: Array("new :: text\n".utf8),
                                 expected: Array("old :: text\n".utf8))
            #expect(try s.changes() == [.changed("note.md")])
        }
    }

    @Test func hiddenFoldersAndFilesAreIgnored() throws {
        try watching({ try $0.put(".quire/logs/device.log"); try $0.put(".git/HEAD"); try $0.makeFolder("Deck") }) { s in
            try s.put(".quire/logs/device.log", "review")
            try s.put(".quire/cache/x.md")
            try s.put(".git/notes.md")
            try s.put(".git/objects/ab/cdef")
            try s.put(".hidden.md")
            try s.put("Deck/.hidden.md")
            try s.put("Deck/.drafts/a.md")
            try s.put("z.md")
            #expect(try s.changes() == [.changed("z.md")])
        }
    }

    @Test func nonNoteFilesAreIgnored() throws {
        try watching { s in
            try s.put("a.txt")
            try s.put("b.markdown")
            try s.put("c.md.bak")
            try s.put("md")
            try s.put(".md")
            try s.makeFolder("folder.md")
            try s.put("Upper.MD")
            #expect(try s.changes() == [.changed("Upper.MD")])
        }
    }

    // MARK: - Debouncing

    @Test func burstOfWritesIsOneChange() throws {
        // A long maximum delay, so that a slow machine cannot split the burst.
        try watching({ try $0.put("a.md") }, maximumDelay: .seconds(1)) { s in
            for i in 0..<100 { try s.put("a.md", "q\(i) :: a\n") }
            #expect(try s.changes() == [.changed("a.md")])
        }
    }

    @Test func maximumDelayEndsABatchWhileEventsKeepComing() throws {
        try watching(quietWindow: .milliseconds(30), maximumDelay: .milliseconds(60)) { s in
            let path = s.vault.full("a.md")
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let end = Date().addingTimeInterval(0.6)
                while Date() < end {
                    _ = try? writeFile(path, "q :: a\n")
                    Thread.sleep(forTimeInterval: 0.005)
                }
                done.signal()
            }
            defer { done.wait() }
            let clock = ContinuousClock()
            let start = clock.now
            let batch = try s.watcher.next(timeout: .seconds(2))
            #expect(batch == [.changed("a.md")])
            #expect(clock.now - start < .milliseconds(400), "the batch waited for the writes to stop")
        }
    }

    @Test func idleReturnsNil() throws {
        try watching({ try $0.put("a.md") }) { s in
            let clock = ContinuousClock()
            let start = clock.now
            let batch = try s.watcher.next(timeout: .milliseconds(50))
            let elapsed = clock.now - start
            #expect(batch == nil)
            #expect(elapsed >= .milliseconds(50))
            #expect(elapsed < .seconds(1))
            let immediate = try s.watcher.next(timeout: .zero)
            #expect(immediate == nil)
        }
    }

    // MARK: - Failures

    @Test func watchLimitReached() throws {
        var sys = SystemCalls.live
        sys.inotifyAddWatch = { fd, path, mask in
            if path.hasSuffix("/Limited") || path.contains("/Limited/") { errno = ENOSPC; return -1 }
            return SystemCalls.live.inotifyAddWatch(fd, path, mask)
        }
        let prepare: (TempDir) throws -> Void = {
            try $0.put("Limited/a.md")
            try $0.put("Limited/Sub/b.md")
            try $0.put("Fine/c.md")
        }
        try watching(prepare, sys: sys) { s in
            let warning = "the inotify watch limit is reached (fs.inotify.max_user_watches): 2 folders are not "
                + "watched, the first 'Limited'; changes there are seen only by a rescan (raise the limit, "
                + "e.g. sysctl fs.inotify.max_user_watches=524288)"
            #expect(try s.watcher.next(timeout: .seconds(1)) == [.rescan(reason: warning)])
            // Degraded: the folders that could be watched still are.
            try s.put("Fine/d.md")
            try s.put("Limited/unseen.md")
            try s.put("e.md")
            #expect(try s.changes() == [.changed("Fine/d.md"), .changed("e.md")])
            // An unwatched folder's notes, as listed, are still removed with it.
            try s.move("Limited", outside: "Limited")
            #expect(try s.changes() == [.removed("Limited/Sub/b.md"), .removed("Limited/a.md")])
            // A folder arriving past the limit: warned about, and its notes reported.
            try s.putOutside("Pack/Limited/f.md")
            try s.moveIn("Pack", "Fine/Pack")
            let oneFolder = "the inotify watch limit is reached (fs.inotify.max_user_watches): 1 folder is not "
                + "watched, the first 'Fine/Pack/Limited'; changes there are seen only by a rescan (raise the "
                + "limit, e.g. sysctl fs.inotify.max_user_watches=524288)"
            #expect(try s.changes() == [.rescan(reason: oneFolder), .changed("Fine/Pack/Limited/f.md")])
        }
    }

    @Test func queueOverflow() throws {
        let inotifyFD = Mutex<Int32>(-1)
        let overflowSent = Mutex(false)
        var sys = SystemCalls.live
        sys.inotifyInit1 = { flags in
            let fd = SystemCalls.live.inotifyInit1(flags)
            inotifyFD.withLock { $0 = fd }
            return fd
        }
        sys.read = { fd, buffer, count in
            guard fd == inotifyFD.withLock({ $0 }), overflowSent.withLock({ sent in defer { sent = true }; return !sent })
            else { return SystemCalls.live.read(fd, buffer, count) }
            // One `struct inotify_event`: wd -1, mask IN_Q_OVERFLOW, no cookie, no name.
            let record: [UInt32] = [UInt32(bitPattern: -1), UInt32(IN_Q_OVERFLOW), 0, 0]
            record.withUnsafeBytes { UnsafeMutableRawBufferPointer(start: buffer, count: count).copyMemory(from: $0) }
            return record.count * 4
        }
        try watching({ try $0.put("a.md") }, sys: sys) { s in
            try s.put(".trigger", "")  // makes the descriptor readable; the injected read answers
            #expect(try s.changes() == [.rescan(reason: "the kernel's inotify queue overflowed: events were lost "
                + "(raising fs.inotify.max_queued_events makes this rarer)")])
            // The watcher rewatched the vault and goes on.
            try s.put("Deck/b.md")
            try s.remove("a.md")
            #expect(Set(try s.changes()) == [.removed("a.md"), .changed("Deck/b.md")])
        }
    }

    @Test func inotifyInitFails() throws {
        var sys = SystemCalls.live
        sys.inotifyInit1 = { _ in errno = EMFILE; return -1 }
        try withTempDir { dir in
            let watcher = InotifyWatcher(root: dir.path, sys: sys)
            #expect(throws: WatchError.system(path: dir.path, operation: "inotify_init1", code: EMFILE)) {
                try watcher.start()
            }
            #expect(WatchError.system(path: dir.path, operation: "inotify_init1", code: EMFILE).description
                == "\(dir.path): inotify_init1 failed: Too many open files")
            #expect(throws: WatchError.notRunning(path: dir.path)) { try watcher.next(timeout: .zero) }
        }
    }

    @Test func missingRootFails() throws {
        try withTempDir { dir in
            let root = dir.full("missing")
            let watcher = InotifyWatcher(root: root + "/")
            #expect(watcher.root == root)
            #expect(throws: WatchError.system(path: root, operation: "inotify_add_watch", code: ENOENT)) {
                try watcher.start()
            }
            #expect(throws: WatchError.notRunning(path: root)) { try watcher.next(timeout: .zero) }
        }
    }

    @Test func rootPastTheWatchLimitFails() throws {
        var sys = SystemCalls.live
        sys.inotifyAddWatch = { _, _, _ in errno = ENOSPC; return -1 }
        try withTempDir { dir in
            let watcher = InotifyWatcher(root: dir.path, sys: sys)
            let error = WatchError.system(path: dir.path, operation: "inotify_add_watch", code: ENOSPC)
            #expect(throws: error) { try watcher.start() }
            #expect(error.description
                == "\(dir.path): inotify_add_watch failed: the inotify watch limit is reached (raise fs.inotify.max_user_watches)")
        }
    }

    @Test func readFails() throws {
        let inotifyFD = Mutex<Int32>(-1)
        var sys = SystemCalls.live
        sys.inotifyInit1 = { flags in
            let fd = SystemCalls.live.inotifyInit1(flags)
            inotifyFD.withLock { $0 = fd }
            return fd
        }
        sys.read = { fd, buffer, count in
            if fd == inotifyFD.withLock({ $0 }) { errno = EIO; return -1 }
            return SystemCalls.live.read(fd, buffer, count)
        }
        try watching(sys: sys) { s in
            try s.put("a.md")
            #expect(throws: WatchError.system(path: s.vault.path, operation: "read", code: EIO)) {
                try s.watcher.next(timeout: .seconds(2))
            }
        }
    }

    @Test func stopClosesOnceAndCanBeCalledTwice() throws {
        let inotifyFD = Mutex<Int32>(-1)
        let closes = Mutex(0)
        var sys = SystemCalls.live
        sys.inotifyInit1 = { flags in
            let fd = SystemCalls.live.inotifyInit1(flags)
            inotifyFD.withLock { $0 = fd }
            return fd
        }
        sys.close = { fd in
            if fd == inotifyFD.withLock({ $0 }) { closes.withLock { $0 += 1 } }
            return SystemCalls.live.close(fd)
        }
        try withTempDir { dir in
            do {
                let watcher = InotifyWatcher(root: dir.path, sys: sys)
                try watcher.start()
                try watcher.start()  // already started: nothing happens
                watcher.stop()
                watcher.stop()
                #expect(throws: WatchError.notRunning(path: dir.path)) { try watcher.next(timeout: .zero) }
            }
            // The watcher is gone; its deinit did not close the descriptor again.
            #expect(closes.withLock { $0 } == 1)
        }
    }

    @Test func parsesEventRecords() {
        // Two records: a named event (name NUL-padded to 16 bytes), then an overflow without a name.
        var bytes: [UInt8] = []
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        append(7); append(UInt32(IN_MOVED_FROM)); append(42); append(16)
        bytes += Array("note.md".utf8) + [UInt8](repeating: 0, count: 9)
        append(UInt32(bitPattern: -1)); append(UInt32(IN_Q_OVERFLOW)); append(0); append(0)
        bytes += [1, 2, 3]  // a truncated record is dropped
        let events = bytes.withUnsafeBytes { InotifyEvent.parse($0) }
        #expect(events == [InotifyEvent(wd: 7, mask: UInt32(IN_MOVED_FROM), cookie: 42, name: "note.md"),
                           InotifyEvent(wd: -1, mask: UInt32(IN_Q_OVERFLOW), cookie: 0, name: "")])
    }

    @Test func pollTimeoutsRoundUp() {
        #expect(InotifyWatcher.milliseconds(.zero) == 0)
        #expect(InotifyWatcher.milliseconds(.milliseconds(-5)) == 0)
        #expect(InotifyWatcher.milliseconds(.microseconds(1)) == 1)
        #expect(InotifyWatcher.milliseconds(.milliseconds(15)) == 15)
        #expect(InotifyWatcher.milliseconds(.nanoseconds(15_000_001)) == 16)
        #expect(InotifyWatcher.milliseconds(.seconds(Int64.max)) == Int32.max)
    }
}

// MARK: - Support

/// A watched vault and a folder beside it, outside the vault.
private struct Scene {
    let vault: TempDir
    let outside: TempDir
    let watcher: InotifyWatcher

    /// Writes a vault file (making its folders) with open/write/close, as an editor does.
    func put(_ relative: String, _ text: String = "q :: a\n") throws { try vault.put(relative, text) }

    func putOutside(_ relative: String, _ text: String = "q :: a\n") throws { try outside.put(relative, text) }

    func append(_ relative: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: vault.full(relative)))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    func remove(_ relative: String) throws {
        guard unlink(vault.full(relative)) == 0 else { throw TestFailure("unlink \(relative): errno \(errno)") }
    }

    func makeFolder(_ relative: String) throws { try vault.makeFolder(relative) }

    /// Renames within the vault.
    func move(_ from: String, _ to: String) throws { try rename(vault.full(from), vault.full(to)) }

    /// Moves a vault path out of the vault.
    func move(_ from: String, outside to: String) throws { try rename(vault.full(from), outside.full(to)) }

    /// Moves a path from outside into the vault.
    func moveIn(_ from: String, _ to: String) throws { try rename(outside.full(from), vault.full(to)) }

    private func rename(_ from: String, _ to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw TestFailure("rename \(from) → \(to): errno \(errno)") }
    }

    /// Every batch until the watcher is idle for `idle`, the first within two seconds.
    func changes(idle: Duration = .milliseconds(100)) throws -> [FileChange] {
        guard var all = try watcher.next(timeout: .seconds(2)) else { return [] }
        while let more = try watcher.next(timeout: idle) { all += more }
        return all
    }
}

/// Prepares a vault, starts a watcher on it, and runs `body`.
private func watching(_ prepare: (TempDir) throws -> Void = { _ in }, sys: SystemCalls = .live,
                      quietWindow: Duration = .milliseconds(15), maximumDelay: Duration = .milliseconds(50),
                      _ body: (Scene) throws -> Void) throws {
    try withTempDir { dir in
        try dir.makeFolder("vault")
        try dir.makeFolder("outside")
        let vault = TempDir(path: dir.full("vault"))
        try prepare(vault)
        let watcher = InotifyWatcher(root: vault.path, sys: sys, quietWindow: quietWindow, maximumDelay: maximumDelay)
        try watcher.start()
        defer { watcher.stop() }
        try body(Scene(vault: vault, outside: TempDir(path: dir.full("outside")), watcher: watcher))
    }
}

/// Writes a file with one open, write and close, as an editor does.
private func writeFile(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw TestFailure("open \(path): errno \(errno)") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard Foundation.write(fd, bytes, bytes.count) == bytes.count else { throw TestFailure("write \(path)") }
}

extension TempDir {
    /// Writes a file, making its folders.
    fileprivate func put(_ relative: String, _ text: String = "q :: a\n") throws {
        let file = full(relative)
        if let slash = file.lastIndex(of: "/") {
            try FileManager.default.createDirectory(atPath: String(file[..<slash]), withIntermediateDirectories: true)
        }
        try writeFile(file, text)
    }
}
