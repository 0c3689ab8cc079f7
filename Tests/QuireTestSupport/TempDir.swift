import Foundation
import QuireModel
import QuireSystem
import QuireParsing

/// A temporary folder made with `mkdtemp`, removed by ``withTempDir(_:)`` when the test is done.
package struct TempDir {
    /// The folder's real path (no symbolic links in it).
    package let path: String

    package static func make() throws -> TempDir {
        var template = Array((NSTemporaryDirectory() + "quire-tests-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buf in buf.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        let raw = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return TempDir(path: FileIO.realPath(raw) ?? raw)
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Deletes a file or folder inside.
    package func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: full(relative)) }

    package func full(_ relative: String) -> String { path + "/" + relative }

    /// Writes a file, making its folders.
    package func write(_ relative: String, _ text: String) throws { try write(relative, bytes: Array(text.utf8)) }

    package func write(_ relative: String, bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: full(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    package func read(_ relative: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: full(relative)))) }

    package func text(_ relative: String) throws -> String { String(decoding: try read(relative), as: UTF8.self) }

    package func makeFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: full(relative), withIntermediateDirectories: true)
    }

    /// Makes a symbolic link at `relative` whose content is `target` (as given, relative or absolute).
    package func link(_ relative: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: full(relative), withDestinationPath: target)
    }

    /// Names in a folder (hidden ones included), sorted.
    package func entries(_ relative: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? path : full(relative)).sorted()
    }

    package func mode(_ relative: String) throws -> Int {
        var st = stat()
        guard stat(full(relative), &st) == 0 else { throw TestFailure("stat failed") }
        return Int(st.st_mode & 0o7777)
    }

    package func chmod(_ relative: String, _ mode: Int) throws {
        guard Foundation.chmod(full(relative), mode_t(mode)) == 0 else { throw TestFailure("chmod failed") }
    }
}

/// Runs `body` with a fresh temporary folder and removes the folder afterwards.
package func withTempDir<R>(_ body: (TempDir) throws -> R) throws -> R {
    let dir = try TempDir.make()
    defer { dir.remove() }
    return try body(dir)
}

package struct TestFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Parses note text as `NoteParser` sees a file.
package func parse(_ text: String, path: String = "notes.md") -> (note: Note?, diagnostics: [Diagnostic]) {
    NoteParser.parse(Array(text.utf8), path: path)
}

/// The cards of a note that must parse.
package func cards(_ text: String, path: String = "notes.md") -> [Card] {
    parse(text, path: path).note?.cards ?? []
}

/// Diagnostics as the CLI prints them.
package func printed(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.description) }

/// A `quire:` front-matter line for a card, in the stored-state format of FORMAT.md §5.
package func storedLine(_ card: Card, state: String = "review", due: String = "2026-11-25T09:00:00Z", reps: Int = 4,
                extra: String = "") -> String {
    "  \(card.id): {fp: \(card.fingerprint), state: \(state), due: \(due), reps: \(reps), lapses: 0\(extra)}"
}

/// A note with a `quire:` block holding the given lines, then the body.
package func noteWithState(_ lines: [String], body: String) -> String {
    "---\nquire:\n" + lines.joined(separator: "\n") + "\n---\n" + body
}

/// A fixed "now" for due-ness tests.
package let fixedNow = Timestamp(year: 2026, month: 11, day: 22, hour: 12)

/// Every field of a note, cards and scheduling included, as text: two notes print the same exactly
/// when the cache gave back what the parser made.
package func dump(_ note: Note) -> String {
    var s = "\(note.path)|\(note.title)|\(note.deck)|\(note.tags.map(\.name))"
    for key in NoteKey.all { s += "|\(key.name)=\(String(describing: key.value(in: note)))" }
    s += "|\(note.byteCount)|\(note.contentDigest)\n"
    for c in note.cards {
        s += "  \(c.id)|\(c.kind)|\(c.variant)|\(c.front)|\(c.back)|\(c.lines)|\(c.column)|\(c.headingPath)"
        s += "|\(c.identityText)|\(c.hasExplicitID)"
        if let st = c.schedule { s += "|\(st.fields.map { "\($0.key)=\($0.value)" })|\(st.stability?.bitPattern ?? 0)" }
        s += "\n"
    }
    return s
}
