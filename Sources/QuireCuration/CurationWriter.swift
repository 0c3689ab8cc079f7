import QuireModel
import QuireReview
import QuireSystem
import QuireYAML
import QuireVault

/// Errors of curation.
public enum CurationError: Error, Sendable, CustomStringConvertible {
    /// A file could not be read or written.
    case io(path: String, FileIOError)
    /// The note's front matter cannot take the decision.
    case edit(path: String, line: Int, column: Int, message: String)
    /// The note changed since the decision, so the undo would lose that change.
    case changedSince(path: String)

    public var description: String {
        switch self {
        case .io(let path, let error): "\(path): \(error)"
        case .edit(let path, let line, let column, let message): "\(path):\(line):\(column): error: \(message); nothing written"
        case .changedSince(let path): "\(path) changed since the decision; the undo would lose that change, so it is not made"
        }
    }
}

/// Records curation decisions (FORMAT.md §2.2): the note's front matter first — `cycle` one level
/// up (keep) or `archived: true` (archive), `reviewed`, and `created` when it was inferred — then
/// a line in this device's curation log, `.quire/curation/DEVICE.log`, append-only and merged by
/// union like the review log.
public struct CurationWriter: Sendable {
    public enum Decision: String, Sendable {
        case keep, archive
    }

    /// A decision as recorded: enough to take it back.
    public struct Recorded: Sendable {
        public var path: String
        public var decision: Decision
        public var before: [UInt8]
        public var after: [UInt8]
        public var id: String
    }

    public let vault: Vault
    public let device: String
    public let eventIDs: @Sendable () -> String

    /// The log folder, relative to the vault.
    public static let logFolder = Vault.folderName + "/curation"

    public init(vault: Vault, device: String, eventIDs: @escaping @Sendable () -> String = ReviewWriter.randomEventID) {
        self.vault = vault
        self.device = device
        self.eventIDs = eventIDs
    }

    /// Records a decision on a note in a period's review, on study-calendar day `today`.
    public func decide(_ decision: Decision, on note: CurationNote, in period: CurationPeriod, today: Int,
                       at now: Timestamp) throws(CurationError) -> Recorded {
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .io(path: note.path, error) }
        defer { lock.release() }
        let full: String, before: [UInt8]
        do {
            full = try vault.notePath(note.path)
            before = try vault.io.read(full).bytes
        } catch { throw .io(path: note.path, error) }
        var editor: FrontMatterEditor
        do {
            editor = try FrontMatterEditor(file: before)
            if note.createdInferred { try editor.set("created", to: .scalar(CurationPeriod.dateText(note.created))) }
            switch decision {
            case .keep: try editor.set("cycle", to: .scalar(period.review.output.rawValue))
            case .archive: try editor.set("archived", to: .scalar("true"))
            }
            try editor.set("reviewed", to: .scalar(CurationPeriod.dateText(today)))
        } catch {
            throw .edit(path: note.path, line: error.mark.line, column: error.mark.column, message: error.message)
        }
        let id = eventIDs()
        do { try vault.io.replace(full, with: editor.file, expected: before) } catch { throw .io(path: note.path, error) }
        try append("\(decision.rawValue) \(period.review.rawValue) \(period) id=\(id) created=\(CurationPeriod.dateText(note.created)) path=\(ReviewLog.percentEncode(note.path))", at: now)
        return Recorded(path: note.path, decision: decision, before: before, after: editor.file, id: id)
    }

    /// Takes a decision back: the note's bytes from before it, if the note is still as the
    /// decision left it; an `undo` line in the log.
    public func undo(_ recorded: Recorded, in period: CurationPeriod, at now: Timestamp) throws(CurationError) {
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .io(path: recorded.path, error) }
        defer { lock.release() }
        do {
            try vault.io.replace(try vault.notePath(recorded.path), with: recorded.before, expected: recorded.after)
        } catch .changedOnDisk {
            throw .changedSince(path: recorded.path)
        } catch {
            throw .io(path: recorded.path, error)
        }
        try append("undo \(period.review.rawValue) \(period) of-id=\(recorded.id) path=\(ReviewLog.percentEncode(recorded.path))", at: now)
    }

    /// The Markdown body of a note as it is on disk (front matter left out), or nil when it
    /// cannot be read.
    public func body(of note: CurationNote) -> String? {
        guard let bytes = try? vault.io.read(vault.notePath(note.path)).bytes,
              let frontMatter = try? FrontMatter(file: bytes) else { return nil }
        return String(decoding: bytes[frontMatter.bodyRange], as: UTF8.self)
    }

    /// Records a session's start or end (`session weekly 2026-W47 start notes=12`, `… end kept=3
    /// archived=1 left=8 status=in-progress`).
    public func session(_ what: String, in period: CurationPeriod, fields: [(String, Int)], status: PeriodStatus.State? = nil,
                        at now: Timestamp) throws(CurationError) {
        try append("session \(period.review.rawValue) \(period) \(what)" + fields.map { " \($0.0)=\($0.1)" }.joined()
                   + (status.map { " status=" + $0.rawValue.replacingSpaces() } ?? ""), at: now)
    }

    private func append(_ line: String, at now: Timestamp) throws(CurationError) {
        let relative = Self.logFolder + "/" + device + ".log"
        do {
            try vault.io.makeDirectories(try vault.internalFolder(Self.logFolder))
            let path = try vault.internalPath(relative)
            if vault.io.linkStamp(path) == nil { try vault.io.append(path, Array("# quire curation log v1\n".utf8)) }
            try vault.io.append(path, Array((now.iso8601(milliseconds: true) + " " + line + "\n").utf8))
        } catch {
            throw .io(path: relative, error)
        }
    }
}

private extension String {
    func replacingSpaces() -> String { String(map { $0 == " " ? "-" : $0 }) }
}
