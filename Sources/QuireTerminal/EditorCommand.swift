import Foundation
import QuireSystem

/// Text written by the user in `$VISUAL` or `$EDITOR` (`vi` without either), on a temporary file
/// that starts as `template` (`quire add`, `quire new`).
package enum EditorCommand {
    /// The user's editor — `$VISUAL`, else `$EDITOR`, else `vi` — as written and as the words to
    /// run (a command with options, like `code --wait`, is split at its spaces).
    package static var command: (name: String, words: [String]) {
        let environment = ProcessInfo.processInfo.environment
        let editor = environment["VISUAL"] ?? environment["EDITOR"] ?? "vi"
        return (editor, editor.split(separator: " ").map(String.init))
    }

    /// The text, or nil when it was left as the template or empty; throws when the editor fails.
    package static func text(startingWith template: String, nothingDone: String) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quire-\(UUID().uuidString).md")
        try Data(template.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (editor, words) = Self.command
        let status = ChildProcess.runAttached(words + [file.path])
        guard status == 0 else { throw CLIError("the editor (\(editor)) exited with status \(status); \(nothingDone)") }
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        return text == template || text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text
    }
}
