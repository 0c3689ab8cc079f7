internal import CSQLite

/// A value bound to a statement's `?` (``SQLiteWriter``).
public enum SQLiteValue: Sendable, Equatable {
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// A new SQLite database written to a file (an Anki collection being exported), through the
/// system's SQLite library: statements with bound values, in one transaction.
public final class SQLiteWriter {
    private var db: OpaquePointer?
    /// The name in errors.
    public let name: String

    /// Creates the database at `path`, which must not exist; a transaction is begun.
    public init(path: String, name: String) throws(ArchiveError) {
        self.name = name
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw .invalidDatabase(name: name, reason: reason)
        }
        db = handle
        try execute("PRAGMA journal_mode = DELETE")
        try execute("BEGIN")
    }

    deinit { if let db { sqlite3_close_v2(db) } }

    /// Runs one statement with `values` bound to its `?`s in order.
    public func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(ArchiveError) {
        guard let db else { throw .invalidDatabase(name: name, reason: "closed") }
        let statement = try prepareStatement(db, sql, name: name)
        defer { sqlite3_finalize(statement) }
        bind(values, to: statement)
        var status = sqlite3_step(statement)
        while status == SQLITE_ROW { status = sqlite3_step(statement) }
        guard status == SQLITE_DONE else { throw .invalidDatabase(name: name, reason: String(cString: sqlite3_errmsg(db))) }
    }

    /// Commits the transaction and closes the file.
    public func finish() throws(ArchiveError) {
        try execute("COMMIT")
        if let db { sqlite3_close_v2(db) }
        db = nil
    }
}

/// Binds `values` to a statement's `?`s in order (text and blobs copied by SQLite).
func bind(_ values: [SQLiteValue], to statement: OpaquePointer) {
    for (k, value) in values.enumerated() {
        let i = Int32(k + 1)
        switch value {
        case .int(let v): sqlite3_bind_int64(statement, i, v)
        case .double(let v): sqlite3_bind_double(statement, i, v)
        case .text(let v): sqlite3_bind_text(statement, i, v, -1, quire_sqlite_transient())
        case .blob(let v): v.withUnsafeBytes { _ = sqlite3_bind_blob(statement, i, $0.baseAddress, Int32($0.count), quire_sqlite_transient()) }
        case .null: sqlite3_bind_null(statement, i)
        }
    }
}
