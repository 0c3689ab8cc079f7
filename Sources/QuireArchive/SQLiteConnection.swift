internal import CSQLite

/// A SQLite database file Quire owns and keeps (a rebuildable cache, like the search index under
/// `.quire/cache/`), opened read-write through the system's SQLite library: statements and queries
/// with bound values, transactions. Defensive: a file planted in a vault runs no trigger, view or
/// schema function (its owner checks the schema is its own); a package's databases are read with
/// ``SQLiteDatabase`` instead.
public final class SQLiteConnection {
    private var db: OpaquePointer?
    /// The name in errors.
    public let name: String

    /// Opens (creating when missing) the database at `path`.
    public init(path: String, name: String) throws(ArchiveError) {
        self.name = name
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOFOLLOW
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw .invalidDatabase(name: name, reason: reason)
        }
        db = handle
        // Another quire may write the index meanwhile: wait for it a little rather than fail.
        sqlite3_busy_timeout(handle, 5000)
        // The file lives in a vault someone else may have made: none of its triggers or views
        // runs, no function from its schema, its schema tables cannot be written, and a damaged
        // page is an error rather than a crash.
        guard quire_sqlite_harden(handle) == SQLITE_OK else { throw .invalidDatabase(name: name, reason: "cannot set defensive mode") }
        for pragma in ["PRAGMA trusted_schema = OFF", "PRAGMA cell_size_check = ON"] { try execute(pragma) }
    }

    deinit { if let db { sqlite3_close_v2(db) } }

    /// Runs one statement with `values` bound to its `?`s in order.
    public func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(ArchiveError) {
        try query(sql, values) { _ throws(ArchiveError) in }
    }

    /// Runs a query with `values` bound, calling `row` for each result row in order.
    public func query(_ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteRow) throws(ArchiveError) -> Void) throws(ArchiveError) {
        guard let db else { throw .invalidDatabase(name: name, reason: "closed") }
        let statement = try prepareStatement(db, sql, name: name)
        defer { sqlite3_finalize(statement) }
        bind(values, to: statement)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw .invalidDatabase(name: name, reason: String(cString: sqlite3_errmsg(db))) }
            try row(SQLiteRow(statement: statement))
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        try inTransaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction: every query in it sees the database as it was at the
    /// first (in WAL mode, other connections' writes meanwhile are not seen).
    public func reading<T>(_ body: () throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        try inTransaction("BEGIN DEFERRED", body)
    }

    private func inTransaction<T>(_ begin: String, _ body: () throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Closes the file.
    public func close() {
        if let db { sqlite3_close_v2(db) }
        db = nil
    }
}
