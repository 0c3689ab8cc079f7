import Foundation
import Synchronization
import Testing
import QuireCuration
import QuireGeneration
import QuireInterchange
import QuireModel
import QuireReview
import QuireScheduling
import QuireSupport
import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// Every writer of a vault writes under the vault's write lock, taken inside the library: the
/// system layer is wrapped so that each file a writer creates, replaces or appends to in the vault
/// (the cache aside, which readers write too) records whether the writing thread held the lock,
/// and every library writer is run on a real vault.
@Suite(.serialized) struct VaultWriteLockTests {
    /// The writes seen: the path, and whether the lock was held.
    final class Seen: Sendable {
        let writes = Mutex<[(path: String, locked: Bool)]>([])
        let vault = Mutex<Vault?>(nil)
    }

    static func system(_ seen: Seen, root: String) -> SystemCalls {
        var sys = SystemCalls.live
        let live = SystemCalls.live
        @Sendable func record(_ path: String) {
            guard path.hasPrefix(root + "/"), !path.contains("/.quire/cache/"), !path.hasSuffix("/.quire/lock") else { return }
            let locked = seen.vault.withLock { $0?.holdsWriteLock ?? false }
            seen.writes.withLock { $0.append((String(path.dropFirst(root.count + 1)), locked)) }
        }
        sys.rename = { a, b in record(b); return live.rename(a, b) }
        sys.renameWithFlags = { a, b, flags in record(b); return live.renameWithFlags(a, b, flags) }
        sys.open = { path, flags, mode in
            if flags & O_CREAT != 0 || flags & O_APPEND != 0 || flags & O_WRONLY != 0 || flags & O_RDWR != 0 {
                // A temporary file's creation is not the write; its rename into place is.
                if !path.contains(".tmp") && !path.contains("/.quire-tmp") { record(path) }
            }
            return live.open(path, flags, mode)
        }
        return sys
    }

    @Test func everyWriterHoldsTheLock() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "scheduler: fsrs\n")
            try dir.write("Biology/cells.md", "---\ndeck: Biology\ncreated: 2026-11-20\n---\n\nWhat makes ATP? :: The mitochondrion\n\nWhat holds DNA? :: The nucleus\n")
            let seen = Seen()
            let vault = try Vault(root: dir.path, io: FileIO(sys: Self.system(seen, root: dir.path)))
            seen.vault.withLock { $0 = vault }
            var generator = SplitMix64(seed: 7)
            // The device file, made on first use.
            let device = try vault.deviceID(using: &generator)
            // Notes: quire new, quire add, card generation.
            try NoteCreation.plan("A new note\n\nSome text.", fields: [("category", "Idea")], tags: ["x"], folder: "Inbox",
                                  vault: vault, created: at(26)).write(to: vault)
            try CardAddition.plan("What is RNA? :: ribonucleic acid", to: "Biology/cells.md", vault: vault, syntax: .quire).write(to: vault)
            try CardInsertion.write([CardProposal(format: .qa, front: "What is a gene?", back: "a unit of heredity", line: 1, headingPath: [], rule: "test", score: 1)], to: "Biology/genes.md",
                                    in: vault, created: at(26))
            // The settings: categories, source types, FSRS parameters, the card syntax.
            try vault.addCategory("Idea", color: "blue")
            try vault.renameCategory("Idea", to: "Ideas", color: "blue")
            try vault.removeCategory("Ideas")
            try vault.addSourceType("podcast")
            try vault.removeSourceType("podcast")
            try vault.setFittedParameters(FSRSParameters.fsrs6Defaults, fittedOn: Day(number: 20_000), deck: nil)
            try vault.setCardSyntax("quire")
            // Front-matter edits (tag, set, unset).
            let (edits, _) = vault.plan(.set(key: "cycle", value: "weekly"), paths: ["Biology/cells.md"])
            _ = vault.apply(edits)
            // Reviews: a grade, a suspension, an undo.
            let (config, _) = try vault.readConfig()
            let writer = ReviewWriter(vault: vault, config: config, device: device)
            let note = try #require(vault.index(cached: false).notes.first { $0.path == "Biology/cells.md" })
            let card = try #require(note.cards.first?.id)
            _ = try writer.grade(card, .good, inNote: note.path, at: at(26), answerMilliseconds: 1000)
            _ = try writer.record([.init(card: card, action: .suspend)], inNote: note.path, at: at(26, 10))
            _ = try writer.undoLast(at: at(26, 11), undoing: { _ in true })
            // Curation: keep a note, and undo it.
            let curationNote = try #require(vault.index(cached: false).notes.first { $0.path == "Biology/cells.md" })
            let curation = CurationWriter(vault: vault, device: device)
            let period = CurationPeriod(.weekly, containing: 20_412)
            let kept = try curation.decide(.keep, on: CurationNote(curationNote, utcOffsetSeconds: 0) { nil }, in: period, today: 20_420, at: at(26, 12))
            try curation.undo(kept, in: period, at: at(26, 13))
            // An import's staged files.
            try StagedFiles.write([.note("Imported/one.md", Array("Q? :: A\n".utf8))], to: vault)

            let writes = seen.writes.withLock { $0 }
            #expect(writes.count >= 15, "\(writes)")
            for write in writes where !write.locked {
                Issue.record("\(write.path) was written without the vault's write lock")
            }
        }
    }
}
