import QuireIndex
import QuireModel
import QuireSystem
import QuireYAML
import QuireVault

/// Errors of category edits.
public enum CategoryError: Error, Sendable, CustomStringConvertible {
    case invalid(String)
    case io(FileIOError)
    case edit(YAMLError)

    public var description: String {
        switch self {
        case .invalid(let m): m
        case .io(let e): e.description
        case .edit(let e): ".quire/config.yaml:\(e.mark.line - 1):\(e.mark.column): error: \(e.message); nothing written"
        }
    }
}

extension Vault {
    /// Adds a category to `.quire/config.yaml`, or sets its colour (`#rrggbb`).
    public func addCategory(_ name: String, color: String?) throws(CategoryError) {
        try editCategories { (file) throws(YAMLError) in try ConfigEdit.setCategory(name, color: color, in: file) }
    }

    /// Renames a category in `.quire/config.yaml`, keeping its colour. The notes are rewritten by
    /// the caller (``plan(_:paths:)`` with `set category`).
    public func renameCategory(_ old: String, to new: String, color: String?) throws(CategoryError) {
        try editCategories { (file) throws(YAMLError) in
            try ConfigEdit.setCategory(new, color: color, in: try ConfigEdit.removeCategory(old, in: file))
        }
    }

    /// Removes a category from `.quire/config.yaml` (its notes: `unset category` by the caller).
    public func removeCategory(_ name: String) throws(CategoryError) {
        try editCategories { (file) throws(YAMLError) in try ConfigEdit.removeCategory(name, in: file) }
    }

    /// Adds a source type to `.quire/config.yaml` (the seeded ones written first when the file
    /// has no `source_types:`).
    public func addSourceType(_ name: String) throws(CategoryError) {
        try editSourceTypes { (file) throws(YAMLError) in try ConfigEdit.addSourceType(name, in: file) }
    }

    /// Removes a source type from `.quire/config.yaml` (notes that name it keep their `source_type`).
    public func removeSourceType(_ name: String) throws(CategoryError) {
        try editSourceTypes { (file) throws(YAMLError) in try ConfigEdit.removeSourceType(name, in: file) }
    }

    private func editSourceTypes(_ edit: ([UInt8]) throws(YAMLError) -> [UInt8]) throws(CategoryError) {
        try editConfig { (file) throws(YAMLError) in
            var file = file
            if (try? YAMLParser.parse(file))?.mapping?["source_types"] == nil {
                for t in VaultConfig().sourceTypes { file = try ConfigEdit.addSourceType(t, in: file) }
            }
            return try edit(file)
        }
    }

    func editCategories(_ edit: ([UInt8]) throws(YAMLError) -> [UInt8]) throws(CategoryError) {
        try editConfig { (file) throws(YAMLError) in
            // A file without `categories:` has the seeded ones: they are written first, so that
            // an edit changes one category and keeps the others.
            var file = file
            if (try? YAMLParser.parse(file))?.mapping?["categories"] == nil {
                for c in VaultConfig.seededCategories { file = try ConfigEdit.setCategory(c.name, color: c.color, in: file) }
            }
            return try edit(file)
        }
    }

    /// Edits `.quire/config.yaml`, written atomically if the file is still as read.
    func editConfig(_ edit: ([UInt8]) throws(YAMLError) -> [UInt8]) throws(CategoryError) {
        try editConfig(checking: nil, edit, problems: { _, _ in nil })
    }

    /// Edits `.quire/config.yaml` under the write lock, written atomically if the file is still
    /// as read; refused when the result would not read, or when `problems` (given the reader's
    /// diagnostics before and after) names one.
    func editConfig(checking key: String?, _ edit: ([UInt8]) throws(YAMLError) -> [UInt8],
                    problems: ([Diagnostic], [Diagnostic]) -> String?) throws(CategoryError) {
        let lock: FileLock.Token
        do { lock = try lockForWriting() } catch { throw .io(error) }
        defer { lock.release() }
        let rel = Vault.folderName + "/config.yaml"
        let path: String
        do { path = try internalPath(rel) } catch { throw .io(error) }
        var original: [UInt8]?
        if io.linkStamp(path) != nil {
            do { original = try io.read(path).bytes } catch { throw .io(error) }
        }
        let edited: [UInt8]
        do { edited = try edit(original ?? []) } catch { throw .edit(error) }
        let after = VaultConfig.parse(edited, path: rel).diagnostics
        let errors = after.filter { $0.severity == .error }
        guard errors.isEmpty else {
            throw .invalid(errors.map { "\(rel):\($0.line ?? 0):\($0.column ?? 0): error: \($0.message)" }.joined(separator: "\n")
                           + "\nthe settings would no longer read; nothing written")
        }
        if let problem = problems(original.map { VaultConfig.parse($0, path: rel).diagnostics } ?? [], after) {
            throw .invalid(problem)
        }
        do { try io.replace(path, with: edited, expected: original) } catch { throw .io(error) }
    }
}
