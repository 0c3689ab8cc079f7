import QuireModel
import QuireSystem
import QuireVault

/// This machine's record of the exact front-matter bytes before and after each grade, so
/// `quire undo` restores a note byte for byte (`.quire/journal`, kept out of git).
///
/// One line per grade: `TIME CARD PATH BEFORE AFTER`: the path and the front matter before the
/// grade percent-encoded as in the review log, and AFTER the SipHash-2-4 of the front matter the
/// grade wrote (16 hex digits), to tell whether it is still there. The journal is only a help: it
/// is not fsynced, and when an entry is missing, or the front matter changed since, undo falls
/// back to the state the review log gives.
public struct UndoJournal: Sendable {
    /// One grade's front matter before and after.
    public struct Entry: Equatable, Sendable {
        public var time: Timestamp
        public var card: CardID
        public var path: String
        /// The bytes from the start of the file to the start of the body, before the grade.
        public var before: String
        /// ``UndoJournal/digest(_:)`` of the same bytes after the grade.
        public var after: String
    }

    /// The journal's path, relative to the root.
    public static let path = Vault.folderName + "/journal"
    /// Past this size, the journal is cut to its newer half on the next write.
    static let limit = 1 << 20

    /// The digest that identifies a front matter block: SipHash-2-4 as 16 hex digits.
    static func digest(_ block: ArraySlice<UInt8>) -> String {
        let h = SipHash24.hash(block, k0: 0x7175_6972_656a_726e)
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

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
    static package func parse(_ text: String) -> [Entry] {
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
        guard let path = try? internalPath(UndoJournal.path) else { return }
        let text = entries.map { UndoJournal.format($0) + "\n" }.joined()
        if let stamp = io.stamp(path), stamp.size > UndoJournal.limit,
           let (bytes, _) = try? io.read(path) {
            // Keep the newer half, from a line start.
            var cut = bytes.count / 2
            while cut < bytes.count, bytes[cut - 1] != UInt8(ascii: "\n") { cut += 1 }
            try? io.replace(path, with: Array(bytes[cut...]) + Array(text.utf8), expected: bytes)
            return
        }
        try? io.append(path, Array(text.utf8), sync: false)
    }

    /// The journal entry for a card's grade at `time`, if any.
    func journalEntry(card: CardID, time: Timestamp) -> UndoJournal.Entry? {
        guard let path = try? internalPath(UndoJournal.path), let (bytes, _) = try? io.read(path) else { return nil }
        return UndoJournal.parse(String(decoding: bytes, as: UTF8.self)).last { $0.card == card && $0.time == time }
    }
}
