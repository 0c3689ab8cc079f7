#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import QuireModel

extension IndexCache {
    /// Writes a new cache while the files are still being read, so that the notes are encoded and
    /// written beside the parsing instead of after it.
    ///
    /// Reading threads hand in consecutive chunks of records, numbered from 0, in any order
    /// (``add(chunk:_:)``). Whichever thread hands in the chunk the file needs next takes up the
    /// writing: it numbers decks and tags, encodes the notes and their entries and writes them, for
    /// that chunk and every later one already waiting, then goes back to reading. The others only
    /// leave their chunk and go on. Chunks are written in order, so the file is byte for byte the
    /// one ``write(_:crossFileDiagnostics:folders:scanDiagnostics:)`` makes of the same records.
    ///
    /// A failure to create or write the file is kept and thrown by ``finish(records:crossFileDiagnostics:folders:scanDiagnostics:)``;
    /// the temporary file is then removed and the old cache left as it was.
    final class NoteStream: Sendable {
        /// What the reading threads share: chunks waiting, and whether one of them is writing.
        private struct Queue {
            var waiting: [Int: [Record]] = [:]
            var next = 0
            var writing = false
        }

        /// What only the writing thread touches.
        private struct Output {
            var file: FileIO.TemporaryFile?
            var error: FileIOError?
            var tables = NameTables()
            var notes = BinaryWriter(capacity: 1 << 20)
            var entries = BinaryWriter(capacity: 1 << 20)
            var flushed = 0
            var entryCount = 0
        }

        private let cache: IndexCache
        private let queue = Mutex(Queue())
        private let output: Mutex<Output>

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

        /// Hands in chunk `number` (its records in path order); may write it and the chunks after it.
        func add(chunk number: Int, _ records: [Record]) {
            let mustWrite = queue.withLock { queue -> Bool in
                queue.waiting[number] = records
                if queue.writing { return false }
                queue.writing = true
                return true
            }
            guard mustWrite else { return }
            // Write chunks while the next one is there; the thread that hands in a later next chunk
            // after this one stopped writes it.
            while let chunk = queue.withLock({ queue -> [Record]? in
                guard let chunk = queue.waiting.removeValue(forKey: queue.next) else {
                    queue.writing = false
                    return nil
                }
                queue.next += 1
                return chunk
            }) {
                output.withLock { Self.write(chunk, to: &$0) }
            }
        }

        private static func write(_ records: [Record], to out: inout Output) {
            guard out.error == nil, out.file != nil else { return }
            for record in records {
                out.tables.number(record.note)
                let place = IndexCache.encodeNote(of: record, tables: out.tables, into: &out.notes)
                IndexCache.encodeEntry(of: record, note: place, at: out.flushed, tables: out.tables, into: &out.entries)
                out.entryCount += 1
            }
            if out.notes.bytes.count >= 1 << 20 { flush(&out) }
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

        /// Writes what follows the notes and puts the new cache in place, once every chunk of
        /// `records` (all the records, in order) was handed in.
        ///
        /// - Parameter crossFileDiagnostics: asked for only after the card-ID table is sorted, so
        ///   that the index can be built meanwhile.
        func finish(records: [Record], crossFileDiagnostics: () -> [Diagnostic], folders: [ScannedFolder],
                    scanDiagnostics: [Diagnostic]) throws(FileIOError) {
            let ids = IndexCache.sortedIDs(records)
            let result = output.withLock { out -> Result<(FileIO.TemporaryFile, Output), FileIOError> in
                Self.flush(&out)
                if let error = out.error { return .failure(error) }
                guard let file = out.file, out.entryCount == records.count else {
                    return .failure(.system(path: cache.path, operation: "write the cache", code: EIO))
                }
                out.file = nil
                return .success((file, out))
            }
            let (file, out) = try result.get()
            try cache.finish(file, entryCount: out.entryCount, notesLength: out.flushed, entries: out.entries.bytes,
                             tables: out.tables, crossFileDiagnostics: crossFileDiagnostics(), folders: folders,
                             scanDiagnostics: scanDiagnostics, sortedIDs: ids)
        }
    }
}
