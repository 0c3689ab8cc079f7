import QuireModel
import QuireSystem
import QuireYAML
import QuireVault

/// A new note (`quire new`): its first line is the title, the rest the body; the front matter
/// holds the title, `created`, and the category, source, source type, deck and tags given. The
/// file name comes from the title — letters, digits, spaces, `-` and `_` kept — in the notes
/// folder, never over an existing file (` 2`, ` 3`, … are added).
public struct NoteCreation: Sendable {
    /// The note's path in the vault.
    public var path: String
    /// Its bytes.
    public var bytes: [UInt8]

    /// Plans a note from `text` (title on its first line).
    /// - Parameters:
    ///   - fields: front-matter keys after `title` and `created`, in order (`category`, `source`, …),
    ///     skipped when nil.
    ///   - tags: the `tags` list, when not empty.
    ///   - folder: the folder, relative to the vault ("" for its top).
    public static func plan(_ text: String, fields: [(String, String?)], tags: [String], folder: String,
                            vault: Vault, created: Timestamp) throws(EditError) -> NoteCreation {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard var title = lines.first, !title.isEmpty else { throw .invalid("the note has no title: its first line is the title") }
        while title.hasPrefix("#") { title.removeFirst() }
        title = title.trimmingSpaces()
        guard !title.isEmpty else { throw .invalid("the note has no title: its first line is the title") }
        var body = Array(lines.dropFirst())
        while body.first?.isEmpty == true { body.removeFirst() }
        while body.last?.isEmpty == true { body.removeLast() }

        var editor: FrontMatterEditor
        do {
            editor = try FrontMatterEditor(file: [])
            try editor.set("title", to: .scalar(title))
            try editor.set("created", to: .scalar(created.iso8601(milliseconds: false)))
            for (key, value) in fields { if let value, !value.isEmpty { try editor.set(key, to: .scalar(value)) } }
            if !tags.isEmpty { try editor.set("tags", to: .flowSequence(tags.map { .scalar($0) })) }
        } catch {
            throw .invalid("cannot write the note's front matter: \(error.message)")
        }
        let bytes = editor.file + Array(((body.isEmpty ? "" : "\n" + body.joined(separator: "\n") + "\n")).utf8)

        let name = fileName(for: title)
        let path = try freePath(folder: folder, name: name) { path throws(EditError) in
            let full: String
            do throws(FileIOError) { full = try vault.notePath(path) } catch { throw .invalid(error.description) }
            return vault.io.linkStamp(full) != nil
        }
        guard let path else { throw .invalid("too many notes named '\(name)' in \(folder.isEmpty ? "the vault's top folder" : folder)") }
        return NoteCreation(path: path, bytes: bytes)
    }

    /// A file name (without `.md`) for a note titled `title`: its letters, digits, `-` and `_`,
    /// other characters turned into spaces and runs of spaces into one, at most 80 characters
    /// (cut between words), no leading `-`; "Note" when nothing is left.
    public static func fileName(for title: String) -> String {
        var name = ""
        for c in title.unicodeScalars {
            let keep = c.properties.isAlphabetic || c.properties.numericType != nil || c == "-" || c == "_"
            if keep {
                name.unicodeScalars.append(c)
            } else if !name.isEmpty, name.last != " " {
                name.append(" ")
            }
        }
        let whole = name.trimmingSpaces()
        name = Self.prefix(String(name.prefix(80)), bytes: maximumNameBytes).trimmingSpaces()
        // Cut between words, not inside one (unless the first word alone is too long).
        if name.count < whole.count, let space = name.lastIndex(of: " ") { name = String(name[..<space]).trimmingSpaces() }
        while name.hasPrefix("-") { name.removeFirst() }
        return name.isEmpty ? "Note" : name
    }

    /// The most UTF-8 bytes of a name Quire makes: with ` 1000.md`, and a writer's temporary name
    /// around it (`.NAME.quire-PID-RANDOM.tmp`, FORMAT.md §1.1), it stays under the 255 bytes file
    /// systems allow (80 characters of a script written in three-byte characters would not).
    public static let maximumNameBytes = 160

    /// The longest prefix of `text` (whole characters) of at most `bytes` UTF-8 bytes.
    public static func prefix(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var out = ""
        var count = 0
        for c in text {
            let n = c.utf8.count
            guard count + n <= bytes else { break }
            out.append(c)
            count += n
        }
        return out
    }

    /// The first of `folder/name.md`, `folder/name 2.md`, … `folder/name 1000.md` that is not
    /// `taken`; nil when all are.
    public static func freePath<E: Error>(folder: String, name: String, taken: (String) throws(E) -> Bool) throws(E) -> String? {
        let prefix = folder.isEmpty ? "" : folder + "/"
        for n in 1...1000 {
            let path = prefix + name + (n == 1 ? "" : " \(n)") + ".md"
            if try !taken(path) { return path }
        }
        return nil
    }

    /// Writes the note, which must not exist (one made meanwhile is kept, and this one refused).
    public func write(to vault: Vault) throws(EditError) {
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .invalid(error.description) }
        defer { lock.release() }
        do {
            let full = try vault.notePath(path)
            try vault.io.makeDirectories(FileIO.directory(of: full))
            try vault.io.replace(full, with: bytes, expected: nil)
        } catch {
            throw .invalid(error.description)
        }
    }
}
