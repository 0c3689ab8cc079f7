#if canImport(Glibc)
import Glibc
#endif

/// Replacing a file atomically: the new bytes swapped in, what was swapped out checked, swapped
/// back on a mismatch.
extension FileIO {
    /// Replaces a file's content atomically: writes a temporary file beside it, fsyncs it, keeps the
    /// original's permission bits, and puts it in the original's place, then fsyncs the folder.
    ///
    /// With `expected`, the check that the file still holds what the caller read and the rename are
    /// made one step: the new file is swapped with the old one (`renameat2(RENAME_EXCHANGE)`), and
    /// what was swapped out is compared with `expected`; on a mismatch — another program wrote the
    /// file after it was read — the two are swapped back, so the other program's version is kept
    /// and ``FileIOError/changedOnDisk(path:)`` is thrown. A write landing in the old file after that
    /// check (a program that held it open) is found too, and that version is put back. Where the
    /// file system cannot swap, the check is made right before a plain rename.
    ///
    /// - Parameters:
    ///   - path: the file to replace (or create, when `expected` is nil and it does not exist).
    ///   - bytes: the new content.
    ///   - expected: the bytes the caller read and edited; when the file on disk no longer holds
    ///     exactly these, nothing is written and ``FileIOError/changedOnDisk(path:)`` is thrown.
    ///     Nil: the file must not exist (it is created; one that appears meanwhile is kept).
    /// - Throws: ``FileIOError``; on any failure the original file is untouched and the temporary
    ///   file is removed.
    public func replace(_ path: String, with bytes: [UInt8], expected: [UInt8]?) throws(FileIOError) {
        var mode: mode_t = 0o644
        if let expected {
            let current: [UInt8]
            let stamp: FileStamp
            do { (current, stamp) = try read(path) } catch {
                switch error {
                case .symbolicLink, .notRegularFile: throw error
                default: throw .changedOnDisk(path: path)
                }
            }
            guard current == expected else { throw .changedOnDisk(path: path) }
            mode = mode_t(stamp.mode & 0o7777)
        } else if linkStamp(path) != nil {
            throw .changedOnDisk(path: path)
        }
        let (temp, dir) = try writeTemporary(for: path, bytes, mode: mode)
        if let expected {
            try swapIn(temp, path, expected: expected, written: bytes)
        } else {
            try renameNoReplace(temp, path)
            Self.syncFolder(dir, sys: sys)
        }
    }

    /// Puts the written temporary file at `path` only if `path` holds `expected` (see
    /// ``replace(_:with:expected:)``); the temporary file is gone afterwards either way, unless it
    /// holds another program's version that could not be put back.
    func swapIn(_ temp: String, _ path: String, expected: [UInt8], written: [UInt8]) throws(FileIOError) {
        // The file about to be swapped out, held open with a write lease where the kernel grants
        // one: granted only while no other program has the file open, and then any program that
        // starts to open it before the swap waits for Quire, and breaks the lease.
        let current = try? openRegular(path)
        let leased = current.map { takeWriteLease($0.fd) } ?? false
        defer {
            if let current {
                if leased { _ = sys.lease(current.fd, .release) }
                _ = sys.close(current.fd)
            }
        }
        // Ours gets a lease too: while it is at `path`, a program may open it, and if Quire then
        // swaps back, what that program writes must not go to a removed file.
        let ours = leased ? try? openRegular(temp) : nil
        let oursLeased = ours.map { sys.lease($0.fd, .take) } ?? false
        defer {
            if let ours {
                if oursLeased { _ = sys.lease(ours.fd, .release) }
                _ = sys.close(ours.fd)
            }
        }
        // (Where the swap fails, the way below tries it again and handles the error.)
        if let current, leased, oursLeased, let ours, sys.renameWithFlags(temp, path, .exchange) == 0 {
            try finishLeasedSwap(temp, path, current: current, ours: ours.fd, expected: expected, written: written)
            return
        }
        guard sys.renameWithFlags(temp, path, .exchange) == 0 else {
            let code = currentErrno
            try renameWithoutExchange(temp, path, expected: expected, exchangeError: code)
            return
        }
        try finishSwap(temp, path, expected: expected, written: written)
    }

    /// Takes a write lease on `fd`: a writer that opens, writes and closes in quick succession is
    /// waited out for a few milliseconds. Whether the lease was granted.
    private func takeWriteLease(_ fd: Int32) -> Bool {
        for attempt in 0..<10 {
            if sys.lease(fd, .take) { return true }
            guard currentErrno == EAGAIN || currentErrno == EBUSY else { return false }
            usleep(UInt32(200 << min(attempt, 4)))
        }
        return false
    }

    /// After a swap made with both files leased: removes the old file (`current`, now at `temp`)
    /// when it held `expected` and no program began to open it meanwhile; else swaps back.
    private func finishLeasedSwap(_ temp: String, _ path: String, current: (fd: Int32, stat: stat), ours: Int32,
                                  expected: [UInt8], written: [UInt8]) throws(FileIOError) {
        var st = stat()
        let swappedOut = sys.lstat(temp, &st) == 0 && UInt64(st.st_ino) == UInt64(current.stat.st_ino)
            && UInt64(st.st_dev) == UInt64(current.stat.st_dev)
            ? try? readAll(current.fd, path: temp, sizeHint: Int(current.stat.st_size)) : nil
        // Unchanged, and no one began to open it meanwhile (an open that found the old file
        // before the swap would write it after): the old file can go.
        guard swappedOut == expected, sys.lease(current.fd, .check) else {
            try swapBack(temp, path, written: written, ours: ours)
        }
        _ = sys.unlink(temp)
        Self.syncFolder(Self.directory(of: path), sys: sys)
    }

    /// Where the exchange failed with `exchangeError`: when the file system cannot swap, checks
    /// `path` and renames `temp` over it, as close together as possible; else fails. The
    /// temporary file is removed on any failure.
    private func renameWithoutExchange(_ temp: String, _ path: String, expected: [UInt8],
                                       exchangeError code: Int32) throws(FileIOError) {
        guard code == EINVAL || code == ENOSYS || code == ENOTSUP else {
            _ = sys.unlink(temp)
            throw code == ENOENT ? .changedOnDisk(path: path) : .system(path: path, operation: "rename", code: code)
        }
        guard (try? read(path).bytes) == expected else {
            _ = sys.unlink(temp)
            throw .changedOnDisk(path: path)
        }
        guard sys.rename(temp, path) == 0 else {
            let code = currentErrno
            _ = sys.unlink(temp)
            throw .system(path: path, operation: "rename", code: code)
        }
        Self.syncFolder(Self.directory(of: path), sys: sys)
    }

    /// After a swap made without leases: removes the old file (now at `temp`) when it held
    /// `expected`, else swaps back; a write that lands in it after the check is put back.
    private func finishSwap(_ temp: String, _ path: String, expected: [UInt8], written: [UInt8]) throws(FileIOError) {
        // `temp` now names what was at `path`: keep it open, so a write made through a descriptor
        // opened before the swap is still seen after the name is gone.
        let old = try? openRegular(temp)
        let swappedOut = old.flatMap { try? readAll($0.fd, path: temp, sizeHint: Int($0.stat.st_size)) }
        guard let old, swappedOut == expected else {
            if let old { _ = sys.close(old.fd) }
            // Another program wrote the file since it was read: swap back.
            try swapBack(temp, path, written: written)
        }
        defer { _ = sys.close(old.fd) }
        _ = sys.unlink(temp)
        // The folder is made durable before the last look at the old file: a write through a
        // descriptor opened before the swap usually lands within the time that takes.
        Self.syncFolder(Self.directory(of: path), sys: sys)
        var st = stat()
        guard sys.fstat(old.fd, &st) == 0, Int64(st.st_size) != Int64(expected.count)
            || st.st_mtim.tv_sec != old.stat.st_mtim.tv_sec || st.st_mtim.tv_nsec != old.stat.st_mtim.tv_nsec else { return }
        // It landed after the check, in the version now gone: put that version back in place of
        // ours (as any refused write leaves the note), ours kept beside it if it was written to too.
        var late: [UInt8] = []
        var offset: Int64 = 0
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { sys.pread(old.fd, $0.baseAddress, $0.count, offset) }
            if n < 0, currentErrno == EINTR { continue }
            guard n > 0 else { break }
            late += chunk[..<n]
            offset += Int64(n)
        }
        let (back, _) = try writeTemporary(for: path, late, mode: mode_t(st.st_mode & 0o7777))
        try swapBack(back, path, written: written)
    }

    /// Where a version of `path` that could not be put in place is kept: beside it, visible, not a
    /// note (`NAME.quire-conflict-PID-RANDOM`).
    static func conflictName(for path: String) -> String {
        path + ".quire-conflict-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// fsyncs a folder, so a rename in it is durable; best effort.
    static func syncFolder(_ dir: String, sys: SystemCalls) {
        let dfd = sys.open(dir, O_RDONLY | O_DIRECTORY, 0)
        if dfd >= 0 {
            _ = sys.fsync(dfd)
            _ = sys.close(dfd)
        }
    }

    /// Puts the other program's version (at `temp`) in place of ours at `path`, and throws.
    ///
    /// Ours was at `path` for a moment, and a program that opened it then may have written to it:
    /// when it no longer holds exactly what Quire wrote, it is kept beside the note
    /// (``FileIOError/conflictKept(path:kept:)``) instead of removed.
    ///
    /// - Parameter ours: our version open with a write lease, when it has one: it is read through
    ///   that descriptor (an open of our own would break the lease), and removed only while no
    ///   program has begun to open it.
    func swapBack(_ temp: String, _ path: String, written: [UInt8], ours: Int32? = nil) throws(FileIOError) -> Never {
        guard sys.renameWithFlags(temp, path, .exchange) == 0 else {
            let kept = Self.conflictName(for: path)
            _ = sys.rename(temp, kept)
            throw .conflictKept(path: path, kept: kept)
        }
        let now: [UInt8]?
        if let ours {
            var st = stat()
            now = sys.lease(ours, .check) && sys.fstat(ours, &st) == 0 && Int(st.st_size) == written.count
                ? try? readAll(ours, path: temp, sizeHint: written.count) : nil
        } else {
            now = try? read(temp).bytes
        }
        if now == written {
            _ = sys.unlink(temp)
            throw .changedOnDisk(path: path)
        }
        let kept = Self.conflictName(for: path)
        _ = sys.rename(temp, kept)
        throw .conflictKept(path: path, kept: kept)
    }
}
