import QuireArchive
import QuireEmbedding
import QuireIndex
import QuireModel
import QuireSystem
import QuireVault

extension SearchIndex {
    /// Brings the index up to date with the vault's notes: a note whose bytes changed since it was
    /// indexed (its digest differs) is cut into chunks again and replaced, a note gone is taken
    /// out. `progress` hears (done, total) of the notes to index.
    ///
    /// - Returns: how many notes were indexed and removed.
    @discardableResult
    public func refresh(from index: VaultIndex, vault: Vault, progress: (Int, Int) -> Void = { _, _ in }) throws(SearchError)
        -> (indexed: Int, removed: Int) {
        let stored = try digests()
        let current = Set(index.notes.map(\.path))
        let stale = index.notes.filter { stored[$0.path] != $0.contentDigest }
        var indexed = 0
        // Many notes to a transaction (one commit each would cost more than the notes).
        let batch = 256
        var start = 0
        while start < stale.count {
            progress(start, stale.count)
            let part = stale[start..<min(start + batch, stale.count)]
            do {
                try db.transaction { () throws(ArchiveError) in
                    for note in part {
                        guard let chunks = Self.chunks(of: note, in: vault) else { continue }
                        try write(path: note.path, digest: note.contentDigest, chunks: chunks, replacing: stored[note.path] != nil)
                        indexed += 1
                    }
                }
            } catch { throw .index(error.description) }
            start += part.count
        }
        if indexed > 0 { loadedVectors = nil }
        progress(stale.count, stale.count)
        let gone = stored.keys.filter { !current.contains($0) }.sorted()
        for path in gone { try remove(path: path) }
        try removeOrphans()
        return (indexed, gone.count)
    }
}

extension SearchIndex {
    /// Brings the notes at `paths` up to date (a watcher's changes): each read again and replaced
    /// when its digest changed, taken out when the vault has it no more.
    public func refresh(paths: [String], from index: VaultIndex, vault: Vault) throws(SearchError) {
        let wanted = Set(paths)
        let notes = index.notes.filter { wanted.contains($0.path) }
        try refresh(notes: notes, removing: Array(wanted.subtracting(notes.map(\.path))), vault: vault)
    }

    /// Brings `notes` up to date — each read again and replaced when its digest is not the one
    /// indexed — and takes out the notes at `gone`.
    public func refresh(notes: [Note], removing gone: [String], vault: Vault) throws(SearchError) {
        for note in notes {
            guard try digest(of: note.path) != note.contentDigest, let chunks = Self.chunks(of: note, in: vault) else { continue }
            try update(path: note.path, digest: note.contentDigest, chunks: chunks)
        }
        for path in gone.sorted() { try remove(path: path) }
    }
}

extension SearchIndex {
    /// Takes out chunks whose note the index does not list (rows planted in a shared index, or
    /// left by a version that wrote them differently): the notes table says what is indexed.
    /// Reads first (one pass over the paths' index, no write lock taken on every refresh): in
    /// an index Quire alone wrote there is nothing to take out.
    func removeOrphans() throws(SearchError) {
        do {
            var any = false
            try db.query("SELECT 1 FROM (SELECT DISTINCT path FROM info) WHERE path NOT IN (SELECT path FROM notes) LIMIT 1") { _ in any = true }
            guard any else { return }
            try db.transaction { () throws(ArchiveError) in
                let orphans = "SELECT id FROM info WHERE path NOT IN (SELECT path FROM notes)"
                var count: Int64 = 0
                try db.query("SELECT count(*) FROM (\(orphans))") { count = $0.int(0) }
                try db.execute("DELETE FROM grams WHERE rowid IN (\(orphans))")
                try db.execute("DELETE FROM chunks WHERE rowid IN (\(orphans))")
                try db.execute("DELETE FROM info WHERE path NOT IN (SELECT path FROM notes)")
                try countDeleted(count)
                try countChange()
            }
            loadedVectors = nil
        } catch { throw .index(error.description) }
    }
}

extension SearchIndex {
    /// Whether the index was found holding exactly the notes `token` stands for (a caller's
    /// digest of their paths and digests) and nothing was written to it since: then it is current
    /// without reading every note's digest (100,000 rows).
    public func isSynced(_ token: UInt64) throws(SearchError) -> Bool {
        do { return try db.reading { () throws(ArchiveError) in try syncedToken() == token } } catch { throw .index(error.description) }
    }

    /// The token the index was marked synced with, when no write came since (inside the caller's
    /// transaction).
    func syncedToken() throws(ArchiveError) -> UInt64? {
        var synced: String?
        try db.query("SELECT value FROM meta WHERE key = 'synced'") { synced = $0.text(0) }
        let parts = (synced ?? "").split(separator: " "), changes = try changeStamp().changes
        return parts.count == 2 && parts[1] == "\(changes)" ? UInt64(parts[0]) : nil
    }

    /// Every note in the index with the digest it was indexed from, and the count of changes
    /// they are as of (read together).
    public func digestsAndChanges() throws(SearchError) -> (digests: [String: UInt64], changes: Int64) {
        do {
            return try db.reading { () throws(ArchiveError) in
                var stored: [String: UInt64] = [:]
                try db.query("SELECT path, digest FROM notes") { row in
                    if let p = row.text(0) { stored[p] = UInt64(bitPattern: row.int(1)) }
                }
                return (stored, try changeStamp().changes)
            }
        } catch { throw .index(error.description) }
    }

    /// Records that the index holds exactly the notes `token` stands for, as found at `changes`
    /// (``digestsAndChanges()``): written only when no write came in between.
    public func markSynced(_ token: UInt64, asOf changes: Int64) throws(SearchError) {
        do {
            try db.transaction { () throws(ArchiveError) in
                guard try changeStamp().changes == changes else { return }
                try db.execute("INSERT OR REPLACE INTO meta VALUES ('synced', ?)", [.text("\(token) \(changes)")])
            }
        } catch { throw .index(error.description) }
    }

    /// The hits of notes the index lists: a hit of a path it does not list (a row planted in a
    /// shared index) is never shown.
    public func listed(_ hits: [SearchHit]) throws(SearchError) -> [SearchHit] {
        do { return try listedHits(hits) } catch { throw .index(error.description) }
    }

    /// ``listed(_:)`` inside the caller's transaction.
    func listedHits(_ hits: [SearchHit]) throws(ArchiveError) -> [SearchHit] {
        var listed: [String: Bool] = [:]
        var kept: [SearchHit] = []
        for hit in hits {
            if listed[hit.path] == nil {
                var found = false
                try db.query("SELECT 1 FROM notes WHERE path = ?", [.text(hit.path)]) { _ in found = true }
                listed[hit.path] = found
            }
            if listed[hit.path] == true { kept.append(hit) }
        }
        return kept
    }
}

extension SearchIndex {
    /// ``search(_:limit:matchAll:)`` — only hits of notes the index lists — together with the
    /// token the index was marked synced with
    /// (``markSynced(_:asOf:)``) when the mark still holds — read in one transaction, so that the
    /// hits are those of the notes the token stands for. A caller that checks the notes meanwhile
    /// (on another thread) uses the hits when its token is the same.
    public func searchMarked(_ words: String, limit: Int) throws(SearchError) -> (token: UInt64?, hits: [SearchHit]) {
        var failure: SearchError?
        let found: (token: UInt64?, hits: [SearchHit])
        do {
            found = try db.reading { () throws(ArchiveError) in
                let hits: [SearchHit]
                do throws(SearchError) { hits = try search(words, limit: limit) } catch {
                    failure = error
                    return (nil, [])
                }
                return (try syncedToken(), try listedHits(hits))
            }
        } catch { throw .index(error.description) }
        if let failure { throw failure }
        return found
    }
}
