internal import CSQLite

/// A SQLite database read from bytes (an Anki collection taken out of its package), read-only,
/// through the system's SQLite library.
///
/// The database is untrusted: it is opened from memory (no file, no journal, nothing written),
/// with `query_only`, without trusting its schema (`trusted_schema=OFF`: no function of its views
/// or triggers runs), and every statement is stopped after a number of steps proportional to the
/// database's size, so a crafted view or a corrupt page cannot hang the import. ``tableNames``
/// lets a reader check that a name is a real table, not a view.
public final class SQLiteDatabase {
    private var db: OpaquePointer?
    /// The name in errors.
    public let name: String
    /// The most virtual-machine steps a statement may take.
    private let stepBudget: Int32

    /// Opens `bytes` as a database.
    ///
    /// - Throws: ``ArchiveError/invalidDatabase(name:reason:)`` when they are not one.
    public init(bytes: [UInt8], name: String) throws(ArchiveError) {
        self.name = name
        // Generous: a full scan of every page a few hundred times over.
        stepBudget = Int32(clamping: max(10_000_000, bytes.count / 4 * 200))
        var handle: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw .invalidDatabase(name: name, reason: "SQLite could not start")
        }
        db = handle
        // SQLite takes the image as its own memory (freed with the connection).
        let size = Int64(bytes.count)
        guard size > 0, let image = sqlite3_malloc64(UInt64(size)) else {
            close()
            throw .invalidDatabase(name: name, reason: bytes.isEmpty ? "empty" : "out of memory")
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { image.copyMemory(from: base, byteCount: source.count) }
        }
        // A database saved in WAL mode (header bytes 18 and 19 are 2) cannot be opened from memory
        // without its WAL file: it is read as the rollback-journal database it also is.
        if bytes.count > 19, bytes[18] == 2, bytes[19] == 2 {
            image.storeBytes(of: 1, toByteOffset: 18, as: UInt8.self)
            image.storeBytes(of: 1, toByteOffset: 19, as: UInt8.self)
        }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY)
        guard sqlite3_deserialize(handle, "main", image.assumingMemoryBound(to: UInt8.self), size, size, flags) == SQLITE_OK else {
            let reason = String(cString: sqlite3_errmsg(handle))
            close()
            throw .invalidDatabase(name: name, reason: reason)
        }
        for pragma in ["PRAGMA query_only = ON", "PRAGMA trusted_schema = OFF", "PRAGMA cell_size_check = ON"] {
            sqlite3_exec(handle, pragma, nil, nil, nil)
        }
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, 256 << 20)
        sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, 1 << 20)
        // A database that is not one fails here, on its first read.
        do {
            _ = try tableNames()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func close() {
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    /// The names of the database's tables (not views).
    public func tableNames() throws(ArchiveError) -> Set<String> {
        var names = Set<String>()
        try query("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
            if let name = row.text(0) { names.insert(name) }
        }
        return names
    }

    /// The columns of a table.
    public func columnNames(of table: String) throws(ArchiveError) -> [String] {
        var names: [String] = []
        try query("SELECT name FROM pragma_table_info('" + table.replacingSingleQuotes() + "')") { row in
            if let name = row.text(0) { names.append(name) }
        }
        return names
    }

    /// A table's generated columns (`GENERATED ALWAYS AS …`, virtual or stored): values the
    /// database computes rather than holds, which a hostile file can make any size.
    public func generatedColumns(of table: String) throws(ArchiveError) -> [String] {
        var names: [String] = []
        try query("SELECT name FROM pragma_table_xinfo('" + table.replacingSingleQuotes() + "') WHERE hidden IN (2, 3)") { row in
            names.append(row.text(0) ?? "")
        }
        return names
    }

    /// Runs a query, calling `row` for each result row in order.
    ///
    /// - Throws: ``ArchiveError/invalidDatabase(name:reason:)`` when the statement fails (a missing
    ///   table, a corrupt page, too many steps), or what `row` throws.
    public func query(_ sql: String, _ row: (SQLiteRow) throws(ArchiveError) -> Void) throws(ArchiveError) {
        guard let db else { throw .invalidDatabase(name: name, reason: "closed") }
        let statement = try prepareStatement(db, sql, name: name)
        defer { sqlite3_finalize(statement) }
        // Count the steps: a statement past its budget is interrupted.
        var budget = StepBudget(left: stepBudget / 1000)
        try withUnsafeMutablePointer(to: &budget) { context throws(ArchiveError) in
            sqlite3_progress_handler(db, 1000, { raw in
                guard let budget = raw?.assumingMemoryBound(to: StepBudget.self) else { return 1 }
                budget.pointee.left -= 1
                return budget.pointee.left < 0 ? 1 : 0
            }, context)
            defer { sqlite3_progress_handler(db, 0, nil, nil) }
            while true {
                let status = sqlite3_step(statement)
                if status == SQLITE_DONE { break }
                guard status == SQLITE_ROW else {
                    let reason = status == SQLITE_INTERRUPT ? "a statement ran too long" : String(cString: sqlite3_errmsg(db))
                    throw ArchiveError.invalidDatabase(name: name, reason: reason)
                }
                try row(SQLiteRow(statement: statement))
            }
        }
    }
}

/// A compiled statement (finalize it), or the database's reason it cannot be.
func prepareStatement(_ db: OpaquePointer, _ sql: String, name: String) throws(ArchiveError) -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
        let reason = String(cString: sqlite3_errmsg(db))
        sqlite3_finalize(statement)
        throw .invalidDatabase(name: name, reason: reason)
    }
    return statement
}

/// What a statement may still do: thousands of virtual-machine steps.
private struct StepBudget { var left: Int32 }

/// One result row, valid only inside the query's row callback.
public struct SQLiteRow {
    let statement: OpaquePointer

    /// The number of columns.
    public var count: Int { Int(sqlite3_column_count(statement)) }

    /// Whether column `i` is NULL.
    public func isNull(_ i: Int) -> Bool { sqlite3_column_type(statement, Int32(i)) == SQLITE_NULL }

    /// Column `i` as an integer (0 for NULL; text converted as SQLite converts it).
    public func int(_ i: Int) -> Int64 { sqlite3_column_int64(statement, Int32(i)) }

    /// Column `i` as a floating-point number.
    public func double(_ i: Int) -> Double { sqlite3_column_double(statement, Int32(i)) }

    /// Column `i` as text (invalid UTF-8 repaired with U+FFFD); nil for NULL.
    public func text(_ i: Int) -> String? {
        guard !isNull(i), let p = sqlite3_column_text(statement, Int32(i)) else { return isNull(i) ? nil : "" }
        let n = Int(sqlite3_column_bytes(statement, Int32(i)))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Calls `body` with column `i`'s bytes in place (valid only during the call; empty for NULL).
    public func withBytes<T>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let p = sqlite3_column_blob(statement, Int32(i))
        let n = Int(sqlite3_column_bytes(statement, Int32(i)))
        return body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
    }

    /// Column `i` as bytes (text or blob); empty for NULL.
    public func bytes(_ i: Int) -> [UInt8] {
        guard let p = sqlite3_column_blob(statement, Int32(i)) else { return [] }
        let n = Int(sqlite3_column_bytes(statement, Int32(i)))
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}

extension String {
    fileprivate func replacingSingleQuotes() -> String { split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") }
}
