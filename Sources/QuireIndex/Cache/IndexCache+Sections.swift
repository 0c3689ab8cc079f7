import QuireSystem
import QuireSupport

/// The cache file's frame: its sections one after another, a table of them, and a fixed trailer.
///
/// ```
/// notes | entries | tables | card-ids | due | … | section table | trailer
/// ```
///
/// The section table lists each section's name, offset, length, record count and checksum; the
/// trailer (magic, format and parser versions, card-syntax digest, where the table is, its checksum,
/// the trailer's own checksum) is the only part at a fixed place. Every writer of the file — a cold
/// build streaming notes while it reads (``NoteStream``), a write of parsed records, an update that
/// copies kept notes from the old file — writes its notes section and hands the rest to
/// ``IndexCache/finish(_:entryCount:notesLength:entries:tables:crossFileDiagnostics:folders:scanDiagnostics:idTable:)``,
/// which adds every other section through one ``SectionWriter``. A new section (curation state,
/// search chunk hashes) is one `add` there and one lookup by name in ``IndexCache/load()``; readers
/// skip sections they do not know.
extension IndexCache {
    /// The names of the sections every cache has.
    enum SectionName {
        /// Every note as parsed, at offset 0; each carries its own checksum (in its entry), so one
        /// damaged note costs that note only.
        static let notes = "notes"
        /// One entry per file: stamp, digest, where its note is, what a due count needs.
        static let entries = "entries"
        /// Deck and tag names, diagnostics that span files, the folders the scan read.
        static let tables = "tables"
        /// Every card ID's hash with its entry, sorted.
        static let cardIDs = "card-ids"
        /// What counting due cards needs (``DueSummary``); a cache without it is still read.
        static let due = "due"
    }

    /// One section of the file, as the section table lists it.
    struct Section: Equatable, Sendable {
        var name: String
        var offset: Int
        var length: Int
        /// How many records it holds (files for the notes and entries, IDs for the card IDs); 0 where
        /// that means nothing.
        var count: Int
        /// ``Checksum64`` of its bytes; nil for a section whose records carry checksums of their own.
        var checksum: UInt64?

        var range: Range<Int> { offset..<(offset + length) }
    }

    /// The fixed trailer: magic, format and parser versions, card-syntax digest, the section
    /// table's offset, length and checksum, and the trailer's own checksum.
    static let trailerSize = 8 + 4 + 4 + 8 + 8 + 8 + 8 + 8
    /// Longest section name read: names are short words; a longer one means a damaged table.
    static let maximumSectionNameLength = 64

    /// Writes the sections of a cache file after the notes (which its caller streamed), then the
    /// section table and the trailer, and puts the file in place.
    struct SectionWriter {
        private let file: FileIO.TemporaryFile
        private(set) var sections: [Section] = []
        private var end = 0

        init(_ file: FileIO.TemporaryFile) { self.file = file }

        /// Lists a section the caller has already written at the end of the file (the notes,
        /// streamed while they were encoded).
        mutating func wrote(_ name: String, length: Int, count: Int, checksum: UInt64?) {
            sections.append(Section(name: name, offset: end, length: length, count: count, checksum: checksum))
            end += length
        }

        /// Writes a section and lists it with its checksum.
        mutating func add(_ name: String, _ bytes: [UInt8], count: Int = 0) throws(FileIOError) {
            try file.write(bytes)
            wrote(name, length: bytes.count, count: count, checksum: Checksum64.of(bytes))
        }

        /// Writes the section table and the trailer, and replaces the old cache with the file.
        func finish(syntaxDigest: UInt64) throws(FileIOError) {
            var table = BinaryWriter()
            table.varint(sections.count)
            for s in sections {
                table.string(s.name)
                table.u64(UInt64(s.offset))
                table.u64(UInt64(s.length))
                table.u64(UInt64(s.count))
                table.bool(s.checksum != nil)
                table.u64(s.checksum ?? 0)
            }
            try file.write(table.bytes)
            var trailer = BinaryWriter(capacity: IndexCache.trailerSize)
            trailer.bytes.append(contentsOf: IndexCache.magic)
            trailer.u32(IndexCache.formatVersion)
            trailer.u32(IndexCache.parserVersion)
            trailer.u64(syntaxDigest)
            trailer.u64(UInt64(end))
            trailer.u64(UInt64(table.bytes.count))
            trailer.u64(Checksum64.of(table.bytes))
            trailer.u64(trailer.bytes.withUnsafeBytes { Checksum64.of($0) })
            try file.write(trailer.bytes)
            try file.commit()
        }
    }

    /// Where the section table is, from the trailer (the file's last ``trailerSize`` bytes), after
    /// checking magic, versions, card syntax and the trailer's checksum.
    static func decodeTrailer(_ raw: UnsafeRawBufferPointer, syntaxDigest: UInt64)
        throws(IndexCacheError) -> (range: Range<Int>, checksum: UInt64) {
        var r = BinaryReader(raw)
        guard Array(try r.bytes(8)) == magic else { throw .malformed("not a Quire index cache") }
        let format = try r.u32(), parser = try r.u32()
        guard format == formatVersion, parser == parserVersion else { throw .otherVersion(format: format, parser: parser) }
        let syntax = try r.u64()
        let offset = try r.u64(), length = try r.u64(), checksum = try r.u64()
        let own = try r.u64()
        guard Checksum64.of(UnsafeRawBufferPointer(rebasing: raw[0..<(trailerSize - 8)])) == own else {
            throw .checksumMismatch(section: "trailer")
        }
        guard syntax == syntaxDigest else { throw .otherCardSyntax }
        guard offset <= UInt64(Int.max / 2), length <= UInt64(Int.max / 2) else { throw .malformed("section table out of range") }
        return (Int(offset)..<(Int(offset) + Int(length)), checksum)
    }

    /// The sections the table lists, by name, checked: the table's checksum, every section inside
    /// the file before the table and none overlapping another, names unique, the notes first at
    /// offset 0, and every section but the notes with a checksum.
    static func decodeSectionTable(_ raw: UnsafeRawBufferPointer, checksum: UInt64, end: Int)
        throws(IndexCacheError) -> [String: Section] {
        guard Checksum64.of(raw) == checksum else { throw .checksumMismatch(section: "section table") }
        var r = BinaryReader(raw)
        var sections: [String: Section] = [:]
        var previousEnd = 0
        for _ in 0..<(try r.count()) {
            let name = try r.string()
            guard name.utf8.count <= maximumSectionNameLength else { throw .malformed("section name too long") }
            let offset = try r.u64(), length = try r.u64(), count = try r.u64()
            let hasChecksum = try r.bool()
            let sum = try r.u64()
            guard offset <= UInt64(end), length <= UInt64(end) - offset, count <= UInt64(Int.max) else {
                throw .malformed("section \(name) out of range")
            }
            let section = Section(name: name, offset: Int(offset), length: Int(length), count: Int(count),
                                  checksum: hasChecksum ? sum : nil)
            guard section.offset >= previousEnd else { throw .malformed("sections overlap") }
            guard sections.updateValue(section, forKey: name) == nil else { throw .malformed("section \(name) twice") }
            previousEnd = section.range.upperBound
        }
        guard r.isAtEnd else { throw .malformed("section table has trailing bytes") }
        for name in [SectionName.notes, SectionName.entries, SectionName.tables, SectionName.cardIDs] {
            guard let section = sections[name] else { throw .malformed("no \(name) section") }
            if name != SectionName.notes, section.checksum == nil { throw .malformed("section \(name) has no checksum") }
        }
        guard sections[SectionName.notes]?.offset == 0 else { throw .malformed("the notes do not start the file") }
        return sections
    }

    /// The sections of a whole cache file in memory, checked as ``load()`` checks them (for tests
    /// and tools that look inside a cache).
    static func sections(ofFile bytes: [UInt8], syntaxDigest: UInt64) throws(IndexCacheError) -> [String: Section] {
        guard bytes.count >= trailerSize else { throw .malformed("shorter than its trailer") }
        return try bytes.withUnsafeBytes { raw in Result { () throws(IndexCacheError) in
            let table = try decodeTrailer(UnsafeRawBufferPointer(rebasing: raw[(raw.count - trailerSize)...]),
                                          syntaxDigest: syntaxDigest)
            guard table.range.upperBound + trailerSize == raw.count else {
                throw .malformed("sizes do not add up to the file's \(raw.count) bytes")
            }
            return try decodeSectionTable(UnsafeRawBufferPointer(rebasing: raw[table.range]), checksum: table.checksum,
                                          end: table.range.lowerBound)
        } }.get()
    }
}
