import QuireModel
import QuireSystem
import QuireSupport
import QuireVault

extension Vault {
    /// The log folder's path relative to the root.
    public static let logFolder = folderName + "/log"

    /// Relative paths of the review-log files, sorted.
    public func reviewLogFiles() -> [String] {
        guard let folder = try? internalFolder(Self.logFolder), let names = io.names(in: folder) else { return [] }
        return names.filter { $0.hasSuffix(".log") && !$0.hasPrefix(".") }.map { Self.logFolder + "/" + $0 }.sorted()
    }

    /// Every event of every log file, with problems as diagnostics: a line that cannot be read (a
    /// torn write, a hand edit) is reported with its location and skipped, and so is an event
    /// whose `path=` is not a plain path to a note inside the vault.
    public func reviewLog() -> (events: [ReviewEvent], diagnostics: [Diagnostic]) {
        var events: [ReviewEvent] = []
        var diagnostics: [Diagnostic] = []
        for rel in reviewLogFiles() {
            do {
                let (bytes, _) = try io.read(try internalPath(rel))
                let parsed = ReviewLog.parse(bytes)
                // The paths are checked on every core, each part checking each path it meets once
                // (most events name one of a few thousand).
                let all = parsed.events
                let chunk = max(1, (all.count + 15) / 16)
                let found = ResultSlots<[(position: Int, reason: String, path: String)]>(count: 16)
                inParallelChunks(of: all.count, chunk: chunk, concurrency: nil) { range in
                    var checked: [String: String?] = [:]
                    var unsafe: [(position: Int, reason: String, path: String)] = []
                    for position in range {
                        guard let path = all[position].field("path") else { continue }
                        let reason: String?
                        if let known = checked[path] {
                            reason = known
                        } else {
                            reason = Self.unsafeReason(path)
                            checked[path] = .some(reason)
                        }
                        if let reason { unsafe.append((position, reason, path)) }
                    }
                    found[range.lowerBound / chunk] = unsafe
                    return true
                }
                let unsafe = (0..<16).flatMap { found.take($0) ?? [] }
                if unsafe.isEmpty {
                    if events.isEmpty { events = all } else { events += all }
                } else {
                    let skipped = Set(unsafe.map(\.position))
                    events += all.enumerated().filter { !skipped.contains($0.offset) }.map(\.element)
                    diagnostics += unsafe.map { u in
                        Diagnostic(.error, path: rel, line: parsed.lines[u.position], column: 1, message: "path=\(u.path): \(u.reason); event skipped")
                    }
                }
                diagnostics += parsed.errors.map { Diagnostic(.error, path: rel, line: $0.line, column: $0.column, message: $0.message) }
            } catch {
                diagnostics.append(Diagnostic(.error, path: rel, message: error.description))
            }
        }
        return (events, diagnostics)
    }

    /// The path the newest logged event of a card names, found by reading each log file from its
    /// end (no log is parsed whole): a hint for finding the card's note without indexing the vault.
    ///
    /// Of the log files, the event with the latest time wins; within one file, the last line that
    /// names the card and a `path=`. Nil when no log names one.
    public func lastLoggedPath(of card: CardID) -> String? {
        let needle = Array(card.rawValue.utf8)
        var best: (time: Timestamp, path: String)?
        for rel in reviewLogFiles() {
            guard let full = try? internalPath(rel) else { continue }
            try? io.scanLinesBackward(full) { raw in
                let bytes = raw.last == 0x0D ? raw.dropLast() : raw
                guard Self.contains(bytes, needle), let line = String(validating: bytes, as: UTF8.self),
                      let event = try? ReviewLog.parseLine(line[...], number: 0),
                      event.card == card, let path = event.field("path"),
                      Self.unsafeReason(path) == nil else { return false }
                if best.map({ event.time > $0.time }) ?? true { best = (event.time, path) }
                return true
            }
        }
        return best?.path
    }

    /// Whether `bytes` hold `needle` (memchr for its first byte, then memcmp).
    private static func contains(_ bytes: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        return bytes.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { n in
                guard var p = haystack.baseAddress, let nb = n.baseAddress else { return false }
                let end = p + haystack.count
                while end - p >= n.count, let hit = RawBytes.first(first, in: p, count: end - p - n.count + 1) {
                    if RawBytes.equal(hit, nb, count: n.count) { return true }
                    p = UnsafeRawPointer(hit) + 1
                }
                return false
            }
        }
    }

    /// The log as statistics read it (``StatisticsLog``): lines that cannot be read and unsafe
    /// paths are skipped, as ``reviewLog()`` skips them (and reports them).
    public func statisticsLog() -> StatisticsLog {
        StatisticsLog(files: reviewLogFiles().compactMap { rel in (try? io.read(try internalPath(rel)))?.bytes })
    }

    /// Problems in the review log files.
    public func reviewLogDiagnostics() -> [Diagnostic] { reviewLog().diagnostics }
}
