import Dispatch
import QuireModel
import QuireSystem
import QuireParsing
import QuireSupport
import QuireVault

/// Writing the cache: a whole new file, or one updated from a snapshot.
extension IndexCache {
    // MARK: - Writing

    /// Writes a cache holding `records` (in path order) and the diagnostics that span files,
    /// replacing the old one atomically. The notes are written out as they are encoded, so the
    /// cache is never whole in memory.
    func write(_ records: [Record], crossFileDiagnostics: [Diagnostic], folders: [ScannedFolder],
               scanDiagnostics: [Diagnostic]) throws(FileIOError) {
        let file = try newFile()
        // The card-ID table is gathered and sorted on another thread while the notes are encoded.
        let idTable = BackgroundValue { Self.idTable(records) }
        var tables = NameTables()
        for record in records { tables.number(record.note) }
        let numbered = tables
        var entries = EntryWriter(capacity: records.count * 64)
        var flushed = 0
        // Notes are encoded on all cores, a wave of chunks at a time (so the cache is never whole
        // in memory), and written in order.
        let chunk = 64
        let wave = chunk * 16 * System.coreCount
        var waveStart = 0
        while waveStart < records.count {
            let waveEnd = min(records.count, waveStart + wave)
            let chunks = (waveEnd - waveStart + chunk - 1) / chunk
            let encoded = ResultSlots<EncodedChunk>(count: chunks)
            let first = waveStart
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                var w = BinaryWriter(capacity: 64 << 10)
                var places: [(start: Int, length: Int, checksum: UInt64)?] = []
                for i in (first + c * chunk)..<min(waveEnd, first + (c + 1) * chunk) {
                    places.append(Self.encodeNote(of: records[i], tables: numbered, into: &w))
                }
                encoded[c] = EncodedChunk(bytes: w.bytes, places: places)
            }
            for c in 0..<chunks {
                guard let part = encoded[c] else { continue }
                for (k, place) in part.places.enumerated() {
                    Self.encodeEntry(of: records[first + c * chunk + k], note: place, at: flushed, tables: numbered,
                                     into: &entries)
                }
                try file.write(part.bytes)
                flushed += part.bytes.count
            }
            waveStart = waveEnd
        }
        try finish(file, entryCount: records.count, notesLength: flushed, entries: entries, tables: numbered,
                   crossFileDiagnostics: crossFileDiagnostics, folders: folders, scanDiagnostics: scanDiagnostics,
                   idTable: idTable.value)
    }

    /// Creates the folder and the temporary file of a new cache.
    func newFile() throws(FileIOError) -> FileIO.TemporaryFile {
        _ = try io.pathWithoutLinkedFolders(root, Self.relativePath)
        try io.makeDirectories(FileIO.directory(of: path))
        return try io.overwriting(path)
    }

    /// Appends the entry of `record`, whose note (if any) was encoded at `place` in a buffer that
    /// starts at offset `base` of the notes section.
    static func encodeEntry(of record: Record, note place: (start: Int, length: Int, checksum: UInt64)?, at base: Int,
                            tables: NameTables, into entries: inout EntryWriter) {
        entries.add(entry(record, note: place.map { (base + $0.start, $0.length, $0.checksum) }, tables: tables))
    }

    /// Appends the note of `record` (if it has one) to `w`; returns where it is in `w` and its
    /// checksum.
    static func encodeNote(of record: Record, tables: NameTables,
                           into w: inout BinaryWriter) -> (start: Int, length: Int, checksum: UInt64)? {
        guard let note = record.note else { return nil }
        let start = w.bytes.count
        NoteCoding.encode(note, tables: tables, into: &w)
        let checksum = w.bytes.withUnsafeBytes { Checksum64.of(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        return (start, w.bytes.count - start, checksum)
    }

    /// The card-ID table of `records` as the cache stores it (see ``IDTableBuilder/encoded(concurrency:)``).
    static func idTable(_ records: [Record]) -> [UInt8] {
        var ids = IDTableBuilder()
        for (n, record) in records.enumerated() { ids.add(record.note, entry: n) }
        return ids.encoded()
    }

    /// A sorted card-ID table as the cache stores it: every hash, then every entry number,
    /// little-endian.
    static func idTable(sorted ids: [(hash: UInt64, entry: UInt32)]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: ids.count * 12) { buffer, initialized in
            guard let base = UnsafeMutableRawPointer(buffer.baseAddress) else { return }
            for (k, id) in ids.enumerated() {
                base.storeBytes(of: id.hash.littleEndian, toByteOffset: k * 8, as: UInt64.self)
                base.storeBytes(of: id.entry.littleEndian, toByteOffset: ids.count * 8 + k * 4, as: UInt32.self)
            }
            initialized = ids.count * 12
        }
    }

    /// The card-ID table of a new cache, gathered note by note: each card's ID hash with its
    /// entry's number, sorted by hash (and entry, for an ID two files use) at the end.
    struct IDTableBuilder: Sendable {
        /// The IDs by the top byte of their hash, each bucket in the order added.
        private var buckets = ByteBuckets<(hash: UInt64, entry: UInt32)>()

        /// Adds the card IDs of entry `entry`'s note.
        mutating func add(_ note: Note?, entry: Int) {
            note?.cards.withUnsafeBufferPointer { cards in
                for c in cards.indices {
                    let hash = IndexCache.idHash(cards[c].id)
                    buckets.append((hash, UInt32(truncatingIfNeeded: entry)), bucket: UInt8(truncatingIfNeeded: hash >> 56))
                }
            }
        }

        /// The table sorted by hash and entry, as ``idTable(sorted:)`` stores it. The buckets are
        /// sorted on all cores and each stored straight at its place (no sorted copy of the whole
        /// table, whose size grows with the vault's card count, to fault in).
        func encoded(concurrency: Int? = nil) -> [UInt8] {
            let buckets = self.buckets
            var starts = [0]
            for b in 0..<256 { starts.append(starts[b] + buckets.count(of: b)) }
            let first = starts, count = buckets.count
            return [UInt8](unsafeUninitializedCapacity: count * 12) { buffer, initialized in
                guard let base = UnsafeMutableRawPointer(buffer.baseAddress) else { return }
                // Each bucket is stored by one thread, at bytes no other thread touches.
                let table = Destination(base: base)
                inParallelChunks(of: 256, chunk: 16, concurrency: concurrency) { range in
                    for b in range {
                        let sorted = buckets.withBucket(b) { ids in
                            ids.sorted { $0.hash < $1.hash || ($0.hash == $1.hash && $0.entry < $1.entry) }
                        }
                        for (k, id) in sorted.enumerated() {
                            let place = first[b] + k
                            table.base.storeBytes(of: id.hash.littleEndian, toByteOffset: place * 8, as: UInt64.self)
                            table.base.storeBytes(of: id.entry.littleEndian, toByteOffset: count * 8 + place * 4, as: UInt32.self)
                        }
                    }
                    return true
                }
                initialized = count * 12
            }
        }

        /// The table's buffer, handed to the sorting threads.
        private struct Destination: @unchecked Sendable {
            let base: UnsafeMutableRawPointer
        }
    }
}

extension IndexCache {
    /// Writes one file's entry.
    static func encodeEntry(_ e: Entry, into entries: inout BinaryWriter) {
        entries.string(e.path)
        entries.i64(e.size)
        entries.i64(e.mtimeNanoseconds)
        entries.i64(e.ctimeNanoseconds)
        entries.u64(e.inode)
        entries.u64(e.digest)
        if let range = e.noteRange {
            entries.bool(true)
            entries.varint(range.lowerBound)
            entries.varint(range.count)
            entries.u64(e.noteChecksum)
            entries.varint(e.deck)
            entries.bool(e.archived)
            entries.varint(e.schedules.count)
            for s in e.schedules { NoteCoding.encode(s, into: &entries) }
        } else {
            entries.bool(false)
        }
        entries.varint(e.diagnostics.count)
        for d in e.diagnostics { NoteCoding.encode(d, into: &entries) }
    }

    /// Writes everything after the notes — entries, tables, card IDs, trailer — and puts the new
    /// cache in place.
    func finish(_ file: FileIO.TemporaryFile, entryCount: Int, notesLength: Int, entries: EntryWriter, tables: NameTables,
                crossFileDiagnostics: [Diagnostic], folders: [ScannedFolder], scanDiagnostics: [Diagnostic],
                idTable: [UInt8]) throws(FileIOError) {
        var tableBytes = BinaryWriter()
        tables.encode(into: &tableBytes)
        tableBytes.varint(crossFileDiagnostics.count)
        for d in crossFileDiagnostics { NoteCoding.encode(d, into: &tableBytes) }
        tableBytes.varint(folders.count)
        for f in folders {
            tableBytes.string(f.relativePath)
            tableBytes.i64(f.stamp.mtimeNanoseconds)
            tableBytes.u64(f.stamp.inode)
        }
        tableBytes.varint(scanDiagnostics.count)
        for d in scanDiagnostics { NoteCoding.encode(d, into: &tableBytes) }
        // The notes are in the file already: every writer streams them. Each further section is
        // one `add`; readers find sections by name and skip the ones they do not know.
        var sections = SectionWriter(file)
        sections.wrote(SectionName.notes, length: notesLength, count: entryCount, checksum: nil)
        try sections.add(SectionName.entries, entries.bytes.bytes, count: entryCount)
        try sections.add(SectionName.tables, tableBytes.bytes)
        try sections.add(SectionName.cardIDs, idTable, count: idTable.count / 12)
        try sections.add(SectionName.due, entries.due.encoded(), count: entries.due.items.count)
        try sections.finish(syntaxDigest: settingsDigest)
    }

    /// One file of an updated cache: an entry kept from the old cache (its note's bytes copied as
    /// they are), or a file read now.
    enum Update {
        case kept(Int)
        case read(Record)
    }

    /// Writes a new cache from `snapshot` and what changed since, without decoding a kept note:
    /// their bytes are copied from the old file, which the snapshot holds open. Deck and tag
    /// numbers of kept notes stay as they were; new ones are added to the tables.
    func write(updating snapshot: Snapshot, _ items: [Update], folders: [ScannedFolder],
               scanDiagnostics: [Diagnostic]) throws(FileIOError) {
        var tables = NameTables(decks: snapshot.tables.decks, tags: snapshot.tables.tags)
        for case .read(let record) in items { tables.number(record.note) }
        guard let oldIDs = try? snapshot.cardIDs() else { throw .inputOutput(path: path, operation: "read the old cache") }
        var newNumber = [Int](repeating: -1, count: snapshot.entries.count)
        for (n, item) in items.enumerated() { if case .kept(let e) = item { newNumber[e] = n } }
        var ids: [(hash: UInt64, entry: UInt32)] = []
        ids.reserveCapacity(oldIDs.hashes.count)
        for (k, h) in oldIDs.hashes.enumerated() {
            let old = Int(oldIDs.entries[k])
            if newNumber.indices.contains(old), newNumber[old] >= 0 { ids.append((h, UInt32(newNumber[old]))) }
        }
        _ = try io.pathWithoutLinkedFolders(root, Self.relativePath)
        let file = try io.overwriting(path)
        var notes = BinaryWriter(capacity: 1 << 20)
        var entries = EntryWriter(capacity: items.count * 64)
        var flushed = 0
        // Kept notes that follow each other in the old file are copied in one read (up to 8 MB).
        var copy: Range<Int>?
        func copyPending() throws(FileIOError) {
            guard let range = copy else { return }
            copy = nil
            guard let bytes = try? snapshot.readNotes(range) else {
                throw .inputOutput(path: path, operation: "read the old cache")
            }
            notes.bytes.append(contentsOf: bytes)
        }
        for (n, item) in items.enumerated() {
            switch item {
            case .kept(let e):
                let entry = snapshot.entries[e]
                if let range = entry.noteRange {
                    if let pending = copy, pending.upperBound == range.lowerBound, pending.count + range.count <= 8 << 20 {
                        copy = pending.lowerBound..<range.upperBound
                    } else {
                        try copyPending()
                        copy = range
                    }
                }
                // Where the note lands: after what is written, buffered, and still to copy before it.
                var moved = entry
                if let range = entry.noteRange {
                    let offset = flushed + notes.bytes.count + (copy?.count ?? 0) - range.count
                    moved.noteRange = offset..<(offset + range.count)
                }
                entries.add(moved)
            case .read(let record):
                try copyPending()
                let place = Self.encodeNote(of: record, tables: tables, into: &notes)
                for card in record.note?.cards ?? [] { ids.append((Self.idHash(card.id), UInt32(n))) }
                Self.encodeEntry(of: record, note: place, at: flushed, tables: tables, into: &entries)
            }
            if notes.bytes.count >= 4 << 20 {
                try file.write(notes.bytes)
                flushed += notes.bytes.count
                notes.bytes.removeAll(keepingCapacity: true)
            }
        }
        try copyPending()
        try file.write(notes.bytes)
        flushed += notes.bytes.count
        try finish(file, entryCount: items.count, notesLength: flushed, entries: entries, tables: tables,
                   crossFileDiagnostics: [], folders: folders, scanDiagnostics: scanDiagnostics,
                   idTable: Self.idTable(sorted: ids.sorted { $0.hash < $1.hash }))
    }
}

/// One chunk of notes encoded by a worker: the bytes, and each record's place in them.
private struct EncodedChunk: Sendable {
    var bytes: [UInt8]
    var places: [(start: Int, length: Int, checksum: UInt64)?]
}
