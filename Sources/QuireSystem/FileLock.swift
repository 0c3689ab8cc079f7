#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An exclusive lock on a path between processes and threads: `flock` on the file (created if
/// missing) or folder at the path, and an in-process recursive mutex. The vault's write lock is one
/// (``Vault/lockForWriting()``, on `.quire/lock`): taken around every read-edit-write of a note and
/// every append to a log, so two `quire` commands never edit from the same stale read.
///
/// The lock is released when its holder ends, however it ends (the kernel drops a dead process's
/// `flock`). Taken again by the thread that holds it, it is only counted. Other threads of the
/// process wait on an in-process mutex first.
public enum FileLock {
    /// How long a writer waits for another one before giving up, and whom to tell that it waits.
    public struct Waiting: Sendable {
        /// Seconds to wait for the lock before ``FileIOError/locked(path:holder:seconds:)``.
        public var timeout: Double
        /// Called once when the lock is held by another process, with that process's ID when it
        /// wrote one (the CLI prints a line to standard error).
        public var onWait: @Sendable (_ holder: Int32?) -> Void

        /// Waiting settings.
        public init(timeout: Double, onWait: @escaping @Sendable (_ holder: Int32?) -> Void) {
            self.timeout = timeout
            self.onWait = onWait
        }
    }

    private static let waiting = Mutex(Waiting(timeout: 30, onWait: { _ in }))

    /// Sets how long writers wait for the lock and how waiting is told (once, from the CLI).
    public static func configure(_ settings: Waiting) { waiting.withLock { $0 = settings } }

    /// The in-process side: one recursive mutex, and per lock file the descriptor and how many
    /// times the holding thread took it.
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(m, &attributes)
        pthread_mutexattr_destroy(&attributes)
        return m
    }()
    /// Guarded by ``mutex``.
    nonisolated(unsafe) private static var held: [String: (fd: Int32, depth: Int)] = [:]

    /// A taken lock; ``release()`` it exactly once, on the thread that took it.
    public struct Token: Sendable {
        let path: String
        let sys: SystemCalls
        /// Whether this take acquired the lock, rather than counting one more take by its holder.
        package var isOutermost = false

        /// Releases the lock (the file lock goes when the outermost holder releases).
        public func release() {
            if let entry = FileLock.held[path] {
                if entry.depth <= 1 {
                    FileLock.held[path] = nil
                    _ = sys.flock(entry.fd, LOCK_UN)
                    _ = sys.close(entry.fd)
                } else {
                    FileLock.held[path] = (entry.fd, entry.depth - 1)
                }
            }
            pthread_mutex_unlock(FileLock.mutex)
        }
    }

    /// Whether the calling thread holds the lock at `path` (the holder keeps the in-process
    /// mutex, which is recursive: another thread cannot take it meanwhile).
    package static func isHeld(_ path: String) -> Bool {
        guard pthread_mutex_trylock(mutex) == 0 else { return false }
        defer { pthread_mutex_unlock(mutex) }
        return held[path] != nil
    }

    /// Takes the lock at `path` (a file, created if missing, or a folder), waiting up to the
    /// configured timeout.
    /// - Parameter wait: false to give up at once when another process holds it.
    package static func take(_ path: String, io: FileIO, wait: Bool = true) throws(FileIOError) -> Token {
        pthread_mutex_lock(mutex)
        if let entry = held[path] {
            held[path] = (entry.fd, entry.depth + 1)
            return Token(path: path, sys: io.sys)
        }
        do {
            let fd = try lockFile(path, io: io, wait: wait)
            held[path] = (fd, 1)
            return Token(path: path, sys: io.sys, isOutermost: true)
        } catch {
            pthread_mutex_unlock(mutex)
            throw error
        }
    }

    /// Opens the lock file and waits for its `flock`.
    private static func lockFile(_ path: String, io: FileIO, wait: Bool) throws(FileIOError) -> Int32 {
        let sys = io.sys
        var fd = sys.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        if fd < 0, currentErrno == EISDIR { fd = sys.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0) }
        guard fd >= 0 else {
            let code = currentErrno
            throw code == ELOOP ? .symbolicLink(path: path) : .system(path: path, operation: "open", code: code)
        }
        var st = stat()
        guard sys.fstat(fd, &st) == 0 else {
            let code = currentErrno
            _ = sys.close(fd)
            throw .system(path: path, operation: "stat", code: code)
        }
        let isFile = st.st_mode & S_IFMT == S_IFREG
        if !isFile, st.st_mode & S_IFMT != S_IFDIR {
            _ = sys.close(fd)
            throw .notRegularFile(path: path, kind: FileIOError.kind(ofMode: UInt32(st.st_mode)) ?? "special file")
        }
        let settings = waiting.withLock { $0 }
        var start: timespec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var told = false
        var pause: UInt32 = 2_000
        while sys.flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = currentErrno
            guard code == EWOULDBLOCK || code == EINTR else {
                _ = sys.close(fd)
                throw .system(path: path, operation: "lock", code: code)
            }
            let holder = isFile ? readHolder(fd, sys: sys) : nil
            guard wait else {
                _ = sys.close(fd)
                throw .locked(path: path, holder: holder, seconds: 0)
            }
            if !told {
                told = true
                settings.onWait(holder)
            }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let waited = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            if waited >= settings.timeout {
                _ = sys.close(fd)
                throw .locked(path: path, holder: holder, seconds: settings.timeout)
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        if isFile {
            // Who holds it, for the message another writer shows while it waits.
            let text = Array("\(getpid())\n".utf8)
            _ = sys.ftruncate(fd, 0)
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return fd
    }

    /// The process ID the lock's holder wrote into the file, if any.
    private static func readHolder(_ fd: Int32, sys: SystemCalls) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = buffer.withUnsafeMutableBytes { sys.pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[..<n], as: UTF8.self)
        return Int32(text.split(separator: "\n").first ?? "")
    }
}
