import QuireSystem
import QuireVault

/// Note paths among a command's query words (`quire generate ML/*.md`, the shell's expansion;
/// `quire review ML/`): each word that names a Markdown file or a folder of the vault — from the
/// working directory, from the vault's top, or in full — becomes a `path:` term, all of them one
/// `or` group; the other words stay the query's. A word becomes a path only when it holds a `/` or
/// ends with `.md`, and the file or folder exists: `cells` stays a word to search for.
public enum NotePathWords {
    /// `words` with the note paths among them as `path:` terms.
    public static func mapped(_ words: [String], vault: Vault, workingDirectory: String) -> [String] {
        var paths: [String] = [], rest: [String] = []
        for word in words {
            if let path = relativePath(word, vault: vault, workingDirectory: workingDirectory) { paths.append(path) } else { rest.append(word) }
        }
        guard !paths.isEmpty else { return words }
        let terms = paths.map { "path:\"" + $0.replacing("\"", with: "\\\"") + "\"" }
        let group = terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " or ") + ")"
        return [group] + rest
    }

    /// The vault-relative path `word` names, when it is a path to a Markdown file or a folder
    /// inside the vault.
    public static func relativePath(_ word: String, vault: Vault, workingDirectory: String) -> String? {
        guard !word.isEmpty, word.contains("/") || word.lowercased().hasSuffix(".md"), !word.hasPrefix("-"),
              !(word.first.map { "(\"'".contains($0) } ?? false), !word.contains(":") || word.hasPrefix("/") else { return nil }
        guard let root = FileIO.realPath(vault.root) else { return nil }
        for candidate in [word.hasPrefix("/") ? word : workingDirectory + "/" + word, vault.root + "/" + word] {
            guard let real = FileIO.realPath(candidate), real.hasPrefix(root + "/"),
                  let stamp = vault.io.stamp(real), stamp.isDirectory || (stamp.isRegularFile && real.lowercased().hasSuffix(".md")) else { continue }
            return String(real.dropFirst(root.count + 1))
        }
        return nil
    }
}
