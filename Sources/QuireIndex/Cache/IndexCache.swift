import Dispatch
import QuireModel
import QuireSystem
import QuireParsing
import QuireSupport
import QuireVault

/// Why a cache file was not used. A cache that is missing, damaged or from another version is
/// rebuilt, never trusted; the reason is kept for `quire check` and tests.
public enum IndexCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no cache file yet.
    case missing
    /// The file was written by another cache format or parser version.
    case otherVersion(format: UInt32, parser: UInt32)
    /// The cache was written with another card syntax, other syntax settings or other ignored paths.
    case otherCardSyntax
    /// The file is cut short or does not decode.
    case malformed(String)
    /// A section's checksum does not match its bytes.
    case checksumMismatch(section: String)
    /// The file could not be read.
    case unreadable(FileIOError)

    public var description: String {
        switch self {
        case .missing: "no index cache yet"
        case .otherVersion(let f, let p): "index cache from another version (format \(f), parser \(p))"
        case .otherCardSyntax: "index cache written with another card syntax or other ignored paths"
        case .malformed(let why): "index cache damaged (\(why))"
        case .checksumMismatch(let s): "index cache damaged (checksum of \(s) does not match)"
        case .unreadable(let e): "index cache unreadable: \(e)"
        }
    }
}

/// The persistent index cache in `.quire/cache/index`: every note as parsed, with the size,
/// modification time, inode and content digest of the file it came from, so that a later run
/// re-reads only the files that changed.
///
/// Layout (little-endian; IndexCache+Sections.swift): sections written front to back in one pass —
/// the notes, each with its own checksum (decoded only when the whole index is wanted); one entry per
/// file (stamp, digest, where its note is, its deck, the scheduling states of its cards and its
/// diagnostics — all a due count needs); the name tables (decks, tags), the diagnostics that span
/// files, the folders the scan read with their stamps and the scan's own diagnostics; a table of
/// every card ID's 64-bit hash with its entry, sorted (read only to check a changed note for
/// duplicate IDs) — then a table of the sections (name, offset, length, count, checksum) and a fixed
/// trailer (magic, versions, card-syntax digest, where the section table is, checksums).
///
/// The file is replaced atomically (temporary file, then rename), so concurrent `quire` processes
/// each see a whole cache, old or new; readers keep their file open, so a replacement never
/// changes what they read.
public struct IndexCache: Sendable {
    /// Bumped when the file layout changes.
    public static let formatVersion: UInt32 = 5
    /// Bumped whenever ``NoteParser`` would read any file differently: a cache holds parse
    /// results, so a parser change must invalidate every cache.
    public static let parserVersion: UInt32 = 10
    static let magic: [UInt8] = Array("QUIREIX\0".utf8)
    /// Files modified within this long before the cache was written may have changed again within
    /// the same modification-time tick: their digest is checked (git's "racily clean" entries).
    static let racyWindowNanoseconds: Int64 = 2_000_000_000

    /// The cache file.
    public let path: String
    /// The file layer.
    public let io: FileIO

    /// The cache file's path relative to the vault root.
    static let relativePath = Vault.folderName + "/cache/index"
    /// The vault root.
    let root: String
    /// The card syntax notes are parsed with; a cache written with another is not used.
    public let syntax: CardSyntax
    /// The paths the vault leaves out; a cache written with other ones is not used.
    public let ignored: IgnoredPaths

    /// The cache of the vault at `root`.
    public init(root: String, io: FileIO = FileIO(), syntax: CardSyntax = .quire, ignored: IgnoredPaths = .none) {
        self.root = root
        self.syntax = syntax
        self.ignored = ignored
        path = root + "/" + Self.relativePath
        self.io = io
    }

    /// The digest of what decides which files are notes and which cards they hold: the card
    /// syntax's, mixed with the ignored paths' when there are any (so a cache written before
    /// `ignore:` existed is still used without it).
    public var settingsDigest: UInt64 {
        ignored.isEmpty ? syntax.digest : (syntax.digest &* 0x9E37_79B9_7F4A_7C15) ^ ignored.digest
    }

    /// What the cache knows about one file.
    struct Entry: Sendable {
        var path: String
        var size: Int64
        var mtimeNanoseconds: Int64
        var ctimeNanoseconds: Int64
        var inode: UInt64
        var digest: UInt64
        /// Where the note's bytes are in the notes section, or nil when the file held no note.
        var noteRange: Range<Int>?
        var noteChecksum: UInt64
        var deck: Int
        var archived: Bool
        /// The scheduling states of the note's cards that have one, in card order.
        var schedules: [SchedulingState]
        var diagnostics: [Diagnostic]

        /// Whether `stamp` describes the version of the file this entry was made from.
        func matches(_ stamp: FileStamp) -> Bool {
            stamp.size == size && stamp.mtimeNanoseconds == mtimeNanoseconds && stamp.inode == inode
                && stamp.ctimeNanoseconds == ctimeNanoseconds
        }
    }

    /// The entry of a file read now, its note's bytes at `place` in the notes section.
    static func entry(_ record: Record, note place: (offset: Int, length: Int, checksum: UInt64)?,
                      tables: NameTables) -> Entry {
        let note = place == nil ? nil : record.note
        return Entry(path: record.path, size: record.stamp.size, mtimeNanoseconds: record.stamp.mtimeNanoseconds,
                     ctimeNanoseconds: record.stamp.ctimeNanoseconds, inode: record.stamp.inode, digest: record.digest,
                     noteRange: place.map { $0.offset..<($0.offset + $0.length) }, noteChecksum: place?.checksum ?? 0,
                     deck: note.map { tables.existingNumber(of: $0.deck) } ?? 0, archived: note?.archived ?? false,
                     schedules: note?.cards.compactMap(\.schedule) ?? [], diagnostics: record.diagnostics)
    }

    /// One file as read for a new cache.
    struct Record: Sendable {
        var path: String
        var stamp: FileStamp
        var digest: UInt64
        var note: Note?
        var diagnostics: [Diagnostic]

        /// Reads and parses a scanned file.
        static func read(_ file: ScannedFile, io: FileIO, syntax: CardSyntax) -> FileRead {
            do throws(FileIOError) {
                let (bytes, stamp) = try io.read(file.fullPath)
                let parsed = NoteParser.parse(bytes, path: file.relativePath, syntax: syntax)
                let digest = parsed.note?.contentDigest ?? NoteParser.contentDigest(bytes)
                return .record(Record(path: file.relativePath, stamp: stamp, digest: digest, note: parsed.note,
                                      diagnostics: parsed.diagnostics))
            } catch {
                return .unreadable(Diagnostic(.error, path: file.relativePath, message: error.description))
            }
        }
    }

    /// A file read and parsed, or why it could not be read.
    enum FileRead: Sendable {
        case record(Record)
        case unreadable(Diagnostic)
    }

    /// The card-ID table: every card's ``IndexCache/idHash(_:)`` in ascending order, with the
    /// number of the entry whose note holds it.
    struct CardIDTable {
        var hashes: [UInt64]
        var entries: [UInt32]

        /// The entries whose notes hold a card whose ID hashes like `id`'s.
        func entries(holding id: CardID) -> [Int] {
            let h = IndexCache.idHash(id)
            var low = 0, high = hashes.count
            while low < high {
                let mid = (low + high) / 2
                if hashes[mid] < h { low = mid + 1 } else { high = mid }
            }
            var found: [Int] = []
            while low < hashes.count, hashes[low] == h {
                found.append(Int(entries[low]))
                low += 1
            }
            return found
        }
    }

    /// A cache file opened and checked: its entries and name tables. The notes section is read
    /// from the same open file on demand (`pread`, safe from several threads: hence Sendable; every
    /// stored property is immutable).
    final class Snapshot: @unchecked Sendable {
        let entries: [Entry]
        let tables: NameTables
        let crossFileDiagnostics: [Diagnostic]
        /// The folders the scan read, with their stamps then (size is not kept).
        let folders: [ScannedFolder]
        /// What the scan itself reported (links leaving the vault, unreadable folders).
        let scanDiagnostics: [Diagnostic]
        /// The cache file's modification time.
        let writtenAtNanoseconds: Int64
        private let file: ReadOnlyFile
        private let io: FileIO
        /// Where the card-ID table is, and its checksum.
        let idsRange: Range<Int>
        let idsChecksum: UInt64

        init(entries: [Entry], tables: NameTables, crossFileDiagnostics: [Diagnostic], folders: [ScannedFolder],
             scanDiagnostics: [Diagnostic], file: ReadOnlyFile, io: FileIO, idsRange: Range<Int>, idsChecksum: UInt64) {
            self.idsRange = idsRange
            self.idsChecksum = idsChecksum
            self.entries = entries
            self.tables = tables
            self.crossFileDiagnostics = crossFileDiagnostics
            self.folders = folders
            self.scanDiagnostics = scanDiagnostics
            writtenAtNanoseconds = file.stamp.mtimeNanoseconds
            self.file = file
            self.io = io
        }

        /// Whether a file matching `entry` may still have changed unseen.
        func isRacy(_ entry: Entry) -> Bool { isRacy(mtime: entry.mtimeNanoseconds) }

        /// Whether something modified at `mtime` may have changed again within the same clock tick
        /// after it was read for this cache.
        func isRacy(mtime: Int64) -> Bool { mtime + IndexCache.racyWindowNanoseconds > writtenAtNanoseconds }

        /// Whether the folders the scan read now differ from the cached ones (or are racy).
        func foldersDiffer(from scanned: [ScannedFolder]) -> Bool {
            foldersDiffer(from: scanned, countingRacy: true)
        }

        /// Whether the folders differ; with `countingRacy`, a racy cached folder counts as
        /// different (it cannot be trusted until a cache written later vouches for it).
        func foldersDiffer(from scanned: [ScannedFolder], countingRacy: Bool) -> Bool {
            scanned.count != folders.count || zip(scanned, folders).contains { a, b in
                a.relativePath != b.relativePath || !folder(b, isStill: a.stamp, countingRacy: countingRacy)
            }
        }

        /// Whether a cached folder has the stamp `now` (same modification time and inode), and —
        /// with `countingRacy` — was not modified so shortly before the cache was written that a
        /// change could hide in the same tick.
        func folder(_ cached: ScannedFolder, isStill now: FileStamp?, countingRacy: Bool = true) -> Bool {
            now?.mtimeNanoseconds == cached.stamp.mtimeNanoseconds && now?.inode == cached.stamp.inode
                && !(countingRacy && isRacy(mtime: cached.stamp.mtimeNanoseconds))
        }

        /// The file's current stamp when it still holds what `entry` was made from, else nil.
        func unchangedStamp(_ entry: Entry, fullPath: String) -> FileStamp? {
            unchangedStamp(entry, stamp: io.stamp(fullPath), fullPath: fullPath)
        }

        /// `stamp` (the file's current stamp) when the file still holds what `entry` was made
        /// from, else nil. Files modified within ``IndexCache/racyWindowNanoseconds`` before the
        /// cache was written are read and their digest compared.
        func unchangedStamp(_ entry: Entry, stamp: FileStamp?, fullPath: String) -> FileStamp? {
            guard let stamp, entry.matches(stamp) else { return nil }
            if isRacy(entry) {
                guard let bytes = try? io.read(fullPath).bytes, NoteParser.contentDigest(bytes) == entry.digest else { return nil }
            }
            return stamp
        }

        /// The card-ID table, checked against its checksum.
        func cardIDs() throws(IndexCacheError) -> CardIDTable {
            let bytes = try cardIDBytes()
            let count = bytes.count / 12
            guard count * 12 == bytes.count else { throw .malformed("card-ID table size") }
            var hashes = [UInt64](repeating: 0, count: count), entries = [UInt32](repeating: 0, count: count)
            bytes.withUnsafeBytes { raw in
                for i in 0..<count {
                    hashes[i] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                    entries[i] = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count * 8 + i * 4, as: UInt32.self))
                }
            }
            return CardIDTable(hashes: hashes, entries: entries)
        }

        /// Whether the card-ID table reads back with its checksum.
        func cardIDsIntact() -> Bool { (try? cardIDBytes()) != nil }

        /// The card-ID table's bytes, checked against its checksum.
        private func cardIDBytes() throws(IndexCacheError) -> [UInt8] {
            let bytes = try IndexCache.read(file, offset: Int64(idsRange.lowerBound), count: idsRange.count)
            guard Checksum64.of(bytes) == idsChecksum else { throw .checksumMismatch(section: "card IDs") }
            return bytes
        }

        /// Reads part of the notes section (the notes section starts the file).
        func readNotes(_ range: Range<Int>) throws(IndexCacheError) -> [UInt8] {
            try IndexCache.read(file, offset: Int64(range.lowerBound), count: range.count)
        }

        /// Decodes one entry's note from `notes`, the bytes of the notes section from `start` on.
        func note(_ entry: Entry, in notes: UnsafeRawBufferPointer, from start: Int) throws(IndexCacheError) -> Note? {
            guard let range = entry.noteRange else { return nil }
            guard range.lowerBound >= start, range.upperBound - start <= notes.count else { throw .malformed("note out of range") }
            let bytes = UnsafeRawBufferPointer(rebasing: notes[(range.lowerBound - start)..<(range.upperBound - start)])
            guard Checksum64.of(bytes) == entry.noteChecksum else { throw .checksumMismatch(section: "note \(entry.path)") }
            var r = BinaryReader(bytes)
            let note = try NoteCoding.decodeNote(path: entry.path, tables: tables, &r)
            guard r.isAtEnd else { throw .malformed("note \(entry.path) has trailing bytes") }
            return note
        }
    }

    // MARK: - Reading

    /// The notes that held a card with this ID when the cache was written (normally one; none when
    /// the cache is missing or damaged), read from the card-ID table without decoding any note:
    /// where to look for a card the log has never named. The caller checks the note still holds it.
    public func notePaths(holding id: CardID) -> [String] {
        guard case .success(let snapshot) = load(), let table = try? snapshot.cardIDs() else { return [] }
        return table.entries(holding: id).filter(snapshot.entries.indices.contains).map { snapshot.entries[$0].path }
    }

    /// Opens the cache and reads its section table, checked: the trailer's magic, versions, card
    /// syntax and checksum, the sizes, the table's checksum and layout.
    func openSections() -> Result<(file: ReadOnlyFile, sections: [String: Section]), IndexCacheError> {
        // Never through a linked `.quire/cache`, never a FIFO or device (it would block or not end).
        do { _ = try io.pathWithoutLinkedFolders(root, Self.relativePath) } catch { return .failure(.unreadable(error)) }
        let file: ReadOnlyFile
        do {
            file = try ReadOnlyFile(path: path, io: io)
        } catch {
            return .failure(error.isNotFound ? .missing : .unreadable(error))
        }
        let fileSize = file.stamp.size
        do throws(IndexCacheError) {
            guard fileSize >= Int64(Self.trailerSize) else { throw IndexCacheError.malformed("shorter than its trailer") }
            let trailer = try Self.read(file, offset: fileSize - Int64(Self.trailerSize), count: Self.trailerSize)
            let table = try trailer.withUnsafeBytes { raw in Result { () throws(IndexCacheError) in
                try Self.decodeTrailer(raw, syntaxDigest: settingsDigest)
            } }.get()
            guard Int64(table.range.upperBound) + Int64(Self.trailerSize) == fileSize else {
                throw IndexCacheError.malformed("sizes do not add up to the file's \(fileSize) bytes")
            }
            let tableBytes = try Self.read(file, offset: Int64(table.range.lowerBound), count: table.range.count)
            let sections = try tableBytes.withUnsafeBytes { raw in Result { () throws(IndexCacheError) in
                try Self.decodeSectionTable(raw, checksum: table.checksum, end: table.range.lowerBound)
            } }.get()
            return .success((file, sections))
        } catch {
            return .failure(error)
        }
    }

    /// Opens and checks the cache: header, versions, checksums, tables and entries.
    func load() -> Result<Snapshot, IndexCacheError> {
        let file: ReadOnlyFile, sections: [String: Section]
        switch openSections() {
        case .success(let opened): (file, sections) = opened
        case .failure(let error): return .failure(error)
        }
        do throws(IndexCacheError) {
            // decodeSectionTable checked that these four are there.
            guard let notesSection = sections[SectionName.notes], let entriesSection = sections[SectionName.entries],
                  let tablesSection = sections[SectionName.tables], let idsSection = sections[SectionName.cardIDs] else {
                throw IndexCacheError.malformed("a section is missing")
            }
            let entryCount = entriesSection.count
            let notesLength = notesSection.length
            let entriesLength = entriesSection.length, entriesChecksum = entriesSection.checksum
            let tablesLength = tablesSection.length, tablesChecksum = tablesSection.checksum
            guard notesSection.count == entryCount else { throw IndexCacheError.malformed("notes and entries disagree") }
            let body = try Self.read(file, offset: Int64(entriesSection.offset), count: entriesLength)
                + Self.read(file, offset: Int64(tablesSection.offset), count: tablesLength)
            let (tables, cross, entries, folders, scanned) = try body.withUnsafeBytes { raw in Result { () throws(IndexCacheError) in
                let entriesBytes = UnsafeRawBufferPointer(rebasing: raw[0..<entriesLength])
                let tablesBytes = UnsafeRawBufferPointer(rebasing: raw[entriesLength...])
                guard Checksum64.of(tablesBytes) == tablesChecksum else { throw IndexCacheError.checksumMismatch(section: "tables") }
                guard Checksum64.of(entriesBytes) == entriesChecksum else { throw IndexCacheError.checksumMismatch(section: "entries") }
                var r = BinaryReader(tablesBytes)
                let tables = try NameTables.decode(&r)
                var cross: [Diagnostic] = []
                for _ in 0..<(try r.count()) { cross.append(try NoteCoding.decodeDiagnostic(&r)) }
                var folders: [ScannedFolder] = []
                for _ in 0..<(try r.count()) {
                    let path = try r.string()
                    guard path.isEmpty || Vault.isPlainRelativePath(path) else {
                        throw IndexCacheError.malformed("folder outside the vault")
                    }
                    let mtime = try r.i64(), inode = try r.u64()
                    folders.append(ScannedFolder(relativePath: path, stamp: FileStamp(size: 0, mtimeNanoseconds: mtime, inode: inode,
                                                                                      device: 0, mode: 0)))
                }
                var scanned: [Diagnostic] = []
                for _ in 0..<(try r.count()) { scanned.append(try NoteCoding.decodeDiagnostic(&r)) }
                guard r.isAtEnd else { throw IndexCacheError.malformed("tables have trailing bytes") }
                var e = BinaryReader(entriesBytes)
                var entries: [Entry] = []
                entries.reserveCapacity(min(entryCount, entriesLength / 32 + 1))
                for _ in 0..<entryCount {
                    let entry = try Self.decodeEntry(&e, tables: tables)
                    if let range = entry.noteRange, range.upperBound > notesLength { throw IndexCacheError.malformed("note out of range") }
                    entries.append(entry)
                }
                guard e.isAtEnd else { throw IndexCacheError.malformed("entries have trailing bytes") }
                return (tables, cross, entries, folders, scanned)
            } }.get()
            return .success(Snapshot(entries: entries, tables: tables, crossFileDiagnostics: cross, folders: folders,
                                     scanDiagnostics: scanned, file: file, io: io,
                                     idsRange: idsSection.range, idsChecksum: idsSection.checksum ?? 0))
        } catch {
            return .failure(error)
        }
    }

    static func decodeEntry(_ r: inout BinaryReader, tables: NameTables) throws(IndexCacheError) -> Entry {
        let path = try r.string()
        // The cache is a file in the vault like any other: a path in it that leaves the vault makes
        // it damaged (rebuilt), never a file to read.
        guard Vault.isPlainRelativePath(path) else { throw .malformed("path outside the vault") }
        let size = try r.i64(), mtime = try r.i64(), ctime = try r.i64(), inode = try r.u64(), digest = try r.u64()
        var range: Range<Int>?
        var checksum: UInt64 = 0
        var deck = 0, archived = false
        var schedules: [SchedulingState] = []
        if try r.bool() {
            let start = try r.varint(), length = try r.varint()
            guard start >= 0, length >= 0 else { throw .malformed("bad note range") }
            range = start..<(start + length)
            checksum = try r.u64()
            deck = try r.varint()
            _ = try tables.deck(deck)
            archived = try r.bool()
            let n = try r.count()
            schedules.reserveCapacity(n)
            for _ in 0..<n { schedules.append(try NoteCoding.decodeSchedule(&r)) }
        }
        var diagnostics: [Diagnostic] = []
        for _ in 0..<(try r.count()) { diagnostics.append(try NoteCoding.decodeDiagnostic(&r)) }
        return Entry(path: path, size: size, mtimeNanoseconds: mtime, ctimeNanoseconds: ctime, inode: inode, digest: digest,
                     noteRange: range,
                     noteChecksum: checksum, deck: deck, archived: archived, schedules: schedules, diagnostics: diagnostics)
    }

    /// Reads exactly `count` bytes at `offset`.
    static func read(_ file: ReadOnlyFile, offset: Int64, count: Int) throws(IndexCacheError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try file.read(at: offset, count: count) } catch { throw .unreadable(error) }
        guard bytes.count == count else { throw .malformed("truncated") }
        return bytes
    }
}

extension IndexCache {
    /// A card ID's 64-bit FNV-1a hash, as the card-ID table keeps it.
    static func idHash(_ id: CardID) -> UInt64 {
        var text = id.rawValue
        return text.withUTF8 { bytes in
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            return h
        }
    }
}

extension IndexCache {
    /// The note in the file at `path` (relative to `root`), read and parsed now as a full build
    /// parses it; nil when the file cannot be read or holds no note.
    public func readNote(root: String, path: String) -> Note? {
        guard let (bytes, _) = try? io.read(root + "/" + path) else { return nil }
        return NoteParser.parse(bytes, path: path, syntax: syntax).note
    }
}
