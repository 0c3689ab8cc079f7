import QuireIndex
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem
import QuireVault

/// Which side of a merge conflict to keep.
public enum ConflictSide: String, Sendable, CaseIterable {
    /// The text between `<<<<<<<` and `=======` (this clone's, in a merge).
    case ours
    /// The text between `=======` and `>>>>>>>` (the other side's).
    case theirs
}

/// A note git left with conflict markers, resolved (`quire resolve`): the text from the side the
/// user chose, the scheduling lines from the review log.
public enum ConflictResolution {
    /// `bytes` with every conflict region replaced by the `side` the user keeps (a diff3 region's
    /// `|||||||` base part is dropped); lines outside conflicts are kept byte for byte.
    public static func keeping(_ side: ConflictSide, in bytes: [UInt8]) -> [UInt8] {
        enum Part { case outside, ours, base, theirs }
        var part = Part.outside
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for range in lineRanges(of: bytes) {
            let line = bytes[range]
            func isMarker(_ byte: UInt8, label: Bool) -> Bool {
                guard line.count >= 7, line.prefix(7).allSatisfy({ $0 == byte }) else { return false }
                let after = line.dropFirst(7).first
                return after == nil || after == 0x0A || after == 0x0D || (label && after == 0x20)
            }
            switch part {
            case .outside where isMarker(UInt8(ascii: "<"), label: true): part = .ours
            case .ours where isMarker(UInt8(ascii: "|"), label: true): part = .base
            case .ours where isMarker(UInt8(ascii: "="), label: false), .base where isMarker(UInt8(ascii: "="), label: false):
                part = .theirs
            case .theirs where isMarker(UInt8(ascii: ">"), label: true): part = .outside
            case .outside: out += line
            case .ours: if side == .ours { out += line }
            case .theirs: if side == .theirs { out += line }
            case .base: break
            }
        }
        return out
    }

    /// Resolves the note at `path` (relative to the vault): keeps `side` of its conflicts when
    /// given (else the note must have none left), sets its scheduling lines from the review log,
    /// and marks it resolved in git (`git add`) when git has it unmerged. Holds the write lock.
    /// - Returns: what was done, for the user.
    public static func resolve(path: String, keeping side: ConflictSide?, vault: Vault,
                               config: VaultConfig) throws(SyncError) -> [String] {
        var done: [String] = []
        // A note git took for deleted on one side that was renamed there: the rename is kept, with
        // the other side's changes (either --ours or --theirs would lose one of them).
        if let repository = GitRepository(containing: vault.root) {
            let full = FileIO.realPath(vault.fullPath(path)) ?? vault.fullPath(path)
            let rootPrefix = (FileIO.realPath(repository.root) ?? repository.root) + "/"
            if full.hasPrefix(rootPrefix) {
                let sync = try Sync(vault: vault, executable: "quire")
                if let kept = try sync.keepRenames(only: String(full.dropFirst(rootPrefix.count))), !kept.isEmpty { return kept }
            }
        }
        do throws(WriteLockError<SyncError>) {
            try vault.withWriteLock { () throws(SyncError) in
                let full: String, bytes: [UInt8]
                do throws(FileIOError) {
                    full = try vault.notePath(path)
                    bytes = try vault.io.read(full).bytes
                } catch { throw .io(error) }
                guard let conflict = NoteParser.mergeConflict(in: bytes, countingFenced: true) else { return }
                guard let side else { throw .conflictLeft(path: path, lines: conflict) }
                do throws(FileIOError) {
                    try vault.io.replace(full, with: keeping(side, in: bytes), expected: bytes)
                } catch { throw .io(error) }
                done.append("\(path): kept \(side.rawValue) text in every conflict")
            }
        } catch {
            switch error {
            case .lock(let e): throw .io(e)
            case .body(let e): throw e
            }
        }
        let index = vault.index()
        let replay = ReviewReplay(vault: vault, index: index, config: config)
        let edits = replay.plan(vault: vault).edits.filter { $0.path == path }
        let applied = vault.apply(edits)
        if let problem = applied.diagnostics.first { throw .notWritten(problem.description) }
        let changed = replay.differences.filter { $0.path == path }.count
        done.append("\(path): \(changed) scheduling line\(changed == 1 ? "" : "s") set from the review log")
        if let repository = GitRepository(containing: vault.root) {
            let inRepository = vault.fullPath(path)
            let unmerged = repository.run(["diff", "-z", "--name-only", "--diff-filter=U", "--", inRepository])
            if unmerged.status == 0, !unmerged.output.isEmpty {
                let added = repository.run(["add", "--", inRepository])
                guard added.status == 0 else { throw .git(command: "add", message: added.errorText) }
                done.append("\(path): marked resolved in git (git add)")
            }
        }
        return done
    }
}
