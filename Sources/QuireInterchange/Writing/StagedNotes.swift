import QuireSystem

/// New notes written all or none (`quire import`): each is first written in full (and synced)
/// into a folder of its own under `.quire/staging/`, then all are moved into place, each by one
/// rename that never replaces a file. When one cannot be moved — a file appeared at its path, a
/// folder cannot be made — the ones already moved are taken out again, so the vault is left as
/// it was. The vault's write lock is held throughout.
public enum StagedNotes {
    /// The staging folder's parent, relative to the vault.
    public static let folder = Vault.folderName + "/staging"

    /// Writes `notes` (paths relative to the vault, none existing).
    ///
    /// - Parameter progress: called after each note is staged, with the number staged.
    public static func write(_ notes: [(path: String, bytes: [UInt8])], to vault: Vault,
                             progress: (Int) -> Void = { _ in }) throws(InterchangeError) {
        let io = vault.io
        let lock: VaultLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .cannotWrite(path: Vault.lockPath, reason: error.description) }
        defer { lock.release() }
        // Every target checked before anything is written.
        var targets: [String] = []
        for note in notes {
            do {
                let full = try vault.notePath(note.path)
                if io.linkStamp(full) != nil { throw InterchangeError.cannotWrite(path: note.path, reason: "a file is already there") }
                targets.append(full)
            } catch let error as InterchangeError {
                throw error
            } catch {
                throw .cannotWrite(path: note.path, reason: "\(error)")
            }
        }
        let stage: String
        do {
            stage = try vault.internalFolder(folder + "/import-" + String(UInt64.random(in: 0...UInt64.max), radix: 16))
            try io.makeDirectories(stage)
        } catch {
            throw .cannotWrite(path: folder, reason: error.description)
        }
        var staged: [String] = []
        func cleanUp(moved: [String]) {
            for path in moved { io.removeFile(path) }
            for path in staged { io.removeFile(path) }
            io.removeEmptyFolder(stage)
            if let parent = try? vault.internalFolder(folder) { io.removeEmptyFolder(parent) }
        }
        for (k, note) in notes.enumerated() {
            let path = stage + "/\(k).md"
            do {
                try io.replace(path, with: note.bytes, expected: nil)
            } catch {
                cleanUp(moved: [])
                throw .cannotWrite(path: note.path, reason: error.description)
            }
            staged.append(path)
            progress(k + 1)
        }
        var moved: [String] = []
        for (k, target) in targets.enumerated() {
            do {
                try io.makeDirectories(FileIO.directory(of: target))
                try io.moveNoReplace(staged[k], to: target)
            } catch {
                cleanUp(moved: moved)
                throw .cannotWrite(path: notes[k].path, reason: error.description)
            }
            moved.append(target)
        }
        io.removeEmptyFolder(stage)
        if let parent = try? vault.internalFolder(folder) { io.removeEmptyFolder(parent) }
    }
}
