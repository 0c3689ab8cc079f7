import QuireModel
import QuireYAML
import QuireSystem
import QuireParsing
import QuireVault

/// One change to apply to the front matter of many notes (`quire tag`, `quire set`, `quire unset`).
public enum FrontMatterChange: Equatable, Sendable {
    case addTag(Tag)
    case removeTag(Tag)
    /// Sets a top-level key to a value given as command-line text.
    case set(key: String, value: String)
    case unset(key: String)

    /// Checks a change before any file is touched: reserved keys, and values of the keys Quire
    /// reads (those of `NoteKey.all` by their kind, and `deck`).
    public func validate() throws(EditError) {
        switch self {
        case .addTag(let tag):
            // A query word given first (`quire tag add deck:Math algebra`) is caught here too.
            if tag.name.contains(":") || tag.name.hasPrefix("-") || tag.name.contains("\"") || tag.name.contains("'") {
                throw .invalid("'\(tag.name)' cannot be a tag (no ':', quotes or leading '-'); the order is 'quire tag add TAG [QUERY]'")
            }
        case .removeTag: return
        case .set(let key, let value):
            try Self.validateKey(key)
            if value.contains(where: { $0 == "\n" || $0 == "\r" }) { throw .invalid("a value cannot span lines") }
            if let noteKey = NoteKey.named(key), noteKey.value(fromArgument: value) == nil {
                throw .invalid("'\(key)' must be \(noteKey.expectation)")
            }
            if key == "deck", DeckPath(value) == nil { throw .invalid("'deck' cannot be empty") }
        case .unset(let key):
            try Self.validateKey(key)
        }
    }

    private static func validateKey(_ key: String) throws(EditError) {
        guard !key.isEmpty, !key.contains(where: { $0.isNewline || $0 == ":" || $0 == "#" }),
              key.trimmingSpaces() == key else {
            throw .invalid("'\(key)' is not a usable key")
        }
        if key == SchedulingLine.key {
            throw .invalid("'\(SchedulingLine.key)' holds scheduling state; it is written by reviews, not by hand")
        }
        if key == "tags" { throw .invalid("use 'quire tag add|remove' to change tags") }
    }

    /// The YAML to write for a `set` value: flow lists and mappings as written, anything else as a
    /// scalar (quoted only when it must be).
    ///
    /// A value that replaces a quoted one keeps its quotes (single or double), and a value holding
    /// `,` or `:` (a date-time aside) is double-quoted: valid plain YAML, but other tools read such
    /// values as lists or mappings.
    static func yamlValue(_ text: String, replacing old: YAMLScalar? = nil) -> YAMLValue {
        if let first = text.first, first == "[" || first == "{",
           let node = try? YAMLParser.parse(text), node.scalar == nil {
            return .raw(text)
        }
        switch old?.style {
        case .singleQuoted?: return .singleQuoted(text)
        case .doubleQuoted?: return .quoted(text)
        default: break
        }
        // A date-time keeps its `:` plain, as YAML and Quire read it.
        if Timestamp(iso8601: text) != nil { return .scalar(text) }
        return text.contains(",") || text.contains(":") ? .quoted(text) : .scalar(text)
    }

    /// The item texts of the `tags` key as written: list items, or the parts of a comma string.
    static func tagItems(in frontMatter: FrontMatter) -> [String] {
        switch frontMatter.root?["tags"] {
        case .sequence(let sequence)?:
            return sequence.items.compactMap { $0.scalar?.value }
        case .scalar(let scalar)? where !scalar.isNull:
            return scalar.value.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        default:
            return []
        }
    }

    /// Whether the change takes something out of the front matter.
    static func removes(_ change: FrontMatterChange) -> Bool {
        switch change {
        case .removeTag, .unset: true
        case .addTag, .set: false
        }
    }

    /// Applies the change to one file's bytes; returns nil when the file would not change.
    func apply(to bytes: [UInt8]) throws(YAMLError) -> [UInt8]? {
        var editor = try FrontMatterEditor(file: bytes)
        switch self {
        case .addTag(let tag):
            // Tags compare case-insensitively and without `#` (FORMAT.md §2.1): `Exam` is already `#exam`.
            if Self.tagItems(in: editor.frontMatter).contains(where: { Tag($0) == tag }) { return nil }
            try editor.addToList("tags", tag.name)
        case .removeTag(let tag):
            let items = Self.tagItems(in: editor.frontMatter)
            guard items.contains(where: { Tag($0) == tag }) else { return nil }
            for item in items where Tag(item) == tag {
                try editor.removeFromList("tags", item)
            }
            // The last tag gone, the key goes too: `tag add` then `tag remove` gives the bytes back.
            switch editor.frontMatter.root?["tags"] {
            case .sequence(let sequence)? where sequence.items.isEmpty: try editor.remove("tags")
            case .scalar(let scalar)? where scalar.isNull || scalar.value.isEmpty: try editor.remove("tags")
            default: break
            }
        case .set(let key, let value): try editor.set(key, to: Self.yamlValue(value, replacing: editor.frontMatter.root?[key]?.scalar))
        case .unset(let key): try editor.remove(key)
        }
        guard editor.file != bytes else { return nil }
        // A front matter a removal leaves with nothing between its fences goes: `tag add` or `set`
        // on a note without one, then `tag remove` or `unset`, gives the note's bytes back.
        let left = editor.frontMatter
        if Self.removes(self), let open = left.openingFenceRange, let close = left.closingFenceRange, left.yamlRange?.isEmpty == true {
            return Array(editor.file[..<open.lowerBound] + editor.file[close.upperBound...])
        }
        return editor.file
    }
}

/// Errors of front-matter edits.
public enum EditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The requested change is not valid; nothing was touched.
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let m): m
        }
    }
}

/// One planned file edit.
public struct PlannedEdit: Sendable {
    /// Path relative to the vault root.
    public var path: String
    /// The bytes that were read and edited.
    public var original: [UInt8]
    /// The new bytes.
    public var edited: [UInt8]

    /// The unified diff of the edit.
    public var diff: String { UnifiedDiff.make(old: original, new: edited, path: path) }
}

extension Vault {
    /// Plans a change for the notes at the given relative paths: reads each file fresh and edits it
    /// in memory. Files that cannot be edited are reported and skipped; the others go on.
    public func plan(_ change: FrontMatterChange, paths: [String]) -> (edits: [PlannedEdit], diagnostics: [Diagnostic]) {
        planEdits(paths: paths) { _, bytes in try change.apply(to: bytes) }
    }

    /// Reads each file fresh and edits it in memory with `edit` (nil: no change). A file that cannot
    /// be read or edited is reported, with the location of a YAML error, and the others go on.
    func planEdits(paths: [String], _ edit: (String, [UInt8]) throws -> [UInt8]?)
        -> (edits: [PlannedEdit], diagnostics: [Diagnostic]) {
        var edits: [PlannedEdit] = []
        var diagnostics: [Diagnostic] = []
        for path in paths {
            do {
                let (bytes, _) = try io.read(try notePath(path))
                if let edited = try edit(path, bytes), edited != bytes {
                    edits.append(PlannedEdit(path: path, original: bytes, edited: edited))
                }
            } catch let error as YAMLError {
                diagnostics.append(Diagnostic(.error, path: path, line: error.mark.line, column: error.mark.column,
                                              message: error.message + "; not changed"))
            } catch {
                diagnostics.append(Diagnostic(.error, path: path, message: "\(error)"))
            }
        }
        return (edits, diagnostics)
    }

    /// Writes planned edits, each atomically and only if the file still holds the bytes that were
    /// edited, holding the vault's write lock. A failure is reported and the other files are still
    /// written. Plan the edits holding the lock too (``withWriteLock(_:)``), so that they start from
    /// what another Quire wrote.
    public func apply(_ edits: [PlannedEdit]) -> (written: [String], diagnostics: [Diagnostic]) {
        var written: [String] = []
        var diagnostics: [Diagnostic] = []
        let lock: FileLock.Token
        do { lock = try lockForWriting() } catch {
            return ([], edits.map { Diagnostic(.error, path: $0.path, message: Self.reason(error)) })
        }
        defer { lock.release() }
        for edit in edits {
            do {
                try io.replace(try notePath(edit.path), with: edit.edited, expected: edit.original)
                written.append(edit.path)
            } catch {
                diagnostics.append(Diagnostic(.error, path: edit.path, message: Self.reason(error)))
            }
        }
        return (written, diagnostics)
    }
}
