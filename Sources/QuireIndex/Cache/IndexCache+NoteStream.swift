import Synchronization
import QuireModel
import QuireSystem
import QuireSupport
import QuireVault

extension IndexCache {
    /// Writes a new cache while the files are still being read, so that the notes are encoded and
    /// written beside the parsing instead of after it.
    ///
    /// The reading threads hand in consecutive chunks of records in path order, one thread at a
    /// time (``write(_:)``; the index build takes its chunks in order, see ``InOrderChunks``). Each
    /// chunk's decks and tags are numbered, its notes and entries encoded and written, and its card
    /// IDs gathered, so the file is byte for byte the one
    /// ``write(_:crossFileDiagnostics:folders:scanDiagnostics:)`` makes of the same records.
    ///
    /// A failure to create or write the file is kept and thrown by ``finish(recordCount:crossFileDiagnostics:folders:scanDiagnostics:)``;
    /// the temporary file is then removed and the old cache left as it was.
    final class NoteStream: Sendable {
        /// What the writing thread keeps between chunks.
        private struct Output {
            var file: FileIO.TemporaryFile?
            var error: FileIOError?
            var tables = NameTables()
            var notes = BinaryWriter(capacity: 1 << 20)
            var entries = EntryWriter(capacity: 1 << 20)
            var ids = IDTableBuilder()
            var flushed = 0
            var entryCount = 0
        }

        private let cache: IndexCache
        private let output: Mutex<Output>
        /// The card-ID table being sorted, once every record is in (see ``recordsAreIn()``).
        private let idTable = Mutex<BackgroundValue<[UInt8]>?>(nil)

        /// Opens the new cache's temporary file.
        init(_ cache: IndexCache) {
            self.cache = cache
            var first = Output()
            do throws(FileIOError) {
                first.file = try cache.newFile()
            } catch {
                first.error = error
            }
            output = Mutex(first)
        }

        /// Encodes and writes the records that follow those written so far (in path order).
        func write(_ records: [Record]) {
            output.withLock { out in
                guard out.error == nil, out.file != nil else { return }
                for record in records {
                    out.tables.number(record.note)
                    let place = IndexCache.encodeNote(of: record, tables: out.tables, into: &out.notes)
                    IndexCache.encodeEntry(of: record, note: place, at: out.flushed, tables: out.tables, into: &out.entries)
                    out.ids.add(record.note, entry: out.entryCount)
                    out.entryCount += 1
                }
                if out.notes.bytes.count >= 1 << 20 { Self.flush(&out) }
            }
        }

        /// Starts sorting the card-ID table on other threads. Called once every record is written,
        /// it lets the sort run beside what the index build does next; no record may follow.
        func recordsAreIn() {
            let ids = output.withLock { out in
                let ids = out.ids
                out.ids = IDTableBuilder()
                return ids
            }
            idTable.withLock { $0 = BackgroundValue { ids.encoded() } }
        }

        private static func flush(_ out: inout Output) {
            guard out.error == nil, let file = out.file, !out.notes.bytes.isEmpty else { return }
            do throws(FileIOError) {
                try file.write(out.notes.bytes)
                out.flushed += out.notes.bytes.count
                out.notes.bytes.removeAll(keepingCapacity: true)
            } catch {
                out.error = error
                out.file = nil
            }
        }

        /// Writes what follows the notes and puts the new cache in place, once all `recordCount`
        /// records were handed in.
        func finish(recordCount: Int, crossFileDiagnostics: [Diagnostic], folders: [ScannedFolder],
                    scanDiagnostics: [Diagnostic]) throws(FileIOError) {
            let result = output.withLock { out -> Result<(FileIO.TemporaryFile, Output), FileIOError> in
                Self.flush(&out)
                if let error = out.error { return .failure(error) }
                guard let file = out.file, out.entryCount == recordCount else {
                    return .failure(.inputOutput(path: cache.path, operation: "write the cache"))
                }
                out.file = nil
                var taken = Output()
                swap(&taken, &out)
                return .success((file, taken))
            }
            let (file, out) = try result.get()
            let ids = idTable.withLock { $0 }?.value ?? out.ids.encoded()
            try cache.finish(file, entryCount: out.entryCount, notesLength: out.flushed, entries: out.entries,
                             tables: out.tables, crossFileDiagnostics: crossFileDiagnostics, folders: folders,
                             scanDiagnostics: scanDiagnostics, idTable: ids)
        }
    }
}
