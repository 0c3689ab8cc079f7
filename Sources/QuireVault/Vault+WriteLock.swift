import QuireSystem

extension Vault {
    /// The lock file's path, relative to the root.
    public static let lockPath = folderName + "/lock"

    /// Takes this vault's write lock (see ``FileLock``): `.quire/lock`, or the root folder when
    /// the vault has no `.quire/`.
    ///
    /// Whoever takes it first (not again on the same thread) finishes what a killed import left
    /// half done (``StagingJournal``), so every writer starts from a vault with all of an import or
    /// none of it.
    public func lockForWriting() throws(FileIOError) -> FileLock.Token {
        try lockForWriting(wait: true)
    }

    /// ``lockForWriting()``, or — `wait` false — ``FileIOError/locked(path:holder:seconds:)`` at
    /// once when another process holds the lock.
    public func lockForWriting(wait: Bool) throws(FileIOError) -> FileLock.Token {
        guard isInitialized else { return try FileLock.take(root, io: io, wait: wait) }
        let token = try FileLock.take(try internalPath(Self.lockPath), io: io, wait: wait)
        if token.isOutermost { StagingJournal.recover(in: self) }
        return token
    }

    /// Whether the calling thread holds this vault's write lock (for checks: every write of a
    /// note, the settings or a log happens under it).
    public var holdsWriteLock: Bool {
        guard isInitialized else { return FileLock.isHeld(root) }
        guard let path = try? internalPath(Self.lockPath) else { return false }
        return FileLock.isHeld(path)
    }

    /// Runs `body` holding the vault's write lock.
    public func withWriteLock<R, E: Error>(_ body: () throws(E) -> R) throws(WriteLockError<E>) -> R {
        let token: FileLock.Token
        do { token = try lockForWriting() } catch { throw .lock(error) }
        defer { token.release() }
        do { return try body() } catch { throw .body(error) }
    }
}

/// A failure of ``Vault/withWriteLock(_:)``: taking the lock, or the body's own.
public enum WriteLockError<Body: Error>: Error {
    case lock(FileIOError)
    case body(Body)
}
