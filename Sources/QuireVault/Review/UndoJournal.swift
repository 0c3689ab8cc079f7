import QuireModel

/// This machine's record of the exact front-matter bytes before and after each grade, so
/// `quire undo` restores a note byte for byte (`.quire/journal`, kept out of git).
///
/// One line per grade: `TIME CARD PATH BEFORE AFTER`, the last three percent-encoded as in the
/// review log. The journal is only a help: when an entry is missing, or the front matter changed
/// since, undo falls back to the state the review log gives.
public struct UndoJournal: Sendable {
    /// One grade's front matter before and after.
    public struct Entry: Equatable, Sendable {
        public var time: Timestamp
        public var card: CardID
        public var path: String
        /// The bytes from the start of the file to the start of the body, before the grade.
        public var before: String
        /// The same bytes after the grade.
        public var after: String
    }

    /// The journal's path, relative to the root.
    public static let path = Vault.folderName + "/journal"
    /// Past this size, the journal is cut to its newer half on the next write.
    static let limit = 1 << 20

    /// Formats an entry as a line (without the line ending).
    static func format(_ e: Entry) -> String {
        func field(_ s: String) -> String {
            let encoded = ReviewLog.percentEncode(s)
            return encoded.isEmpty ? "-" : encoded == "-" ? "%2D" : encoded
        }
        return [e.time.iso8601(milliseconds: true), e.card.rawValue, field(e.path), field(e.before), field(e.after)]
            .joined(separator: " ")
    }

    /// Parses the journal, skipping lines it cannot read.
    static func parse(_ text: String) -> [Entry] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: false)
            guard f.count == 5, let time = Timestamp(iso8601: f[0]), let card = CardID(f[1]) else { return nil }
            func decode(_ s: Substring) -> String? { s == "-" ? "" : ReviewLog.percentDecode(s) }
            guard let path = decode(f[2]), let before = decode(f[3]), let after = decode(f[4]) else { return nil }
            return Entry(time: time, card: card, path: path, before: before, after: after)
        }
    }
}

extension Vault {
    /// Adds entries to the journal (best effort: a failure only makes a later undo use the log).
    func appendToJournal(_ entries: [UndoJournal.Entry]) {
        guard !entries.isEmpty else { return }
        let path = fullPath(UndoJournal.path)
        let text = entries.map { UndoJournal.format($0) + "\n" }.joined()
        if let stamp = io.stamp(path), stamp.size > UndoJournal.limit,
           let (bytes, _) = try? io.read(path) {
            // Keep the newer half, from a line start.
            var cut = bytes.count / 2
            while cut < bytes.count, bytes[cut - 1] != UInt8(ascii: "\n") { cut += 1 }
            try? io.replace(path, with: Array(bytes[cut...]) + Array(text.utf8), expected: bytes)
            return
        }
        try? io.append(path, Array(text.utf8))
    }

    /// The journal entry for a card's grade at `time`, if any.
    func journalEntry(card: CardID, time: Timestamp) -> UndoJournal.Entry? {
        guard let (bytes, _) = try? io.read(fullPath(UndoJournal.path)) else { return nil }
        return UndoJournal.parse(String(decoding: bytes, as: UTF8.self)).last { $0.card == card && $0.time == time }
    }
}
