@testable import QuireReview
import Foundation
import Synchronization
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport

/// Grading through injected system-call failures and a concurrent external edit: the note is old or
/// new, never torn, and after `quire replay` the log and the note agree.
@Suite struct ReviewWriterFailureTests {
    private let path = "Biology/organelles.md"

    /// Grades the first card with `sys` changed by `inject`, expects a failure, and checks that the
    /// note holds `expectedNote` (by default its old bytes), no temporary file is left, and replay
    /// finds nothing to fix.
    private func expectRefused(_ inject: @escaping (inout SystemCalls, TempDir) -> Void,
                               expectedNote: ((String) -> String)? = nil,
                               check: (ReviewError) -> Bool) throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let cards = try v.cards(path)
            // One successful grade first, so the note has a state to lose.
            _ = try v.writer().grade(cards[1].id, .good, inNote: path, at: at(20))
            let before = try dir.text(path)
            var sys = SystemCalls.live
            inject(&sys, dir)
            do {
                _ = try v.writer(io: FileIO(sys: sys)).grade(cards[0].id, .good, inNote: path, at: at(22))
                Issue.record("the grade should have failed")
            } catch {
                #expect((error as? ReviewError).map(check) == true, "unexpected error: \(error)")
            }
            #expect(try dir.text(path) == (expectedNote?(before) ?? before))
            #expect(try dir.entries("Biology") == ["organelles.md"])
            let replay = v.replay()
            #expect(replay.differences.isEmpty, "replay differs: \(replay.differences.map(\.summary))")
            #expect(replay.diagnostics.isEmpty)
        }
    }

    /// Makes `write` (or `fsync`) fail with `errno` on files whose path matches, while they are open.
    private static func failWrites(of matches: @escaping @Sendable (String) -> Bool, in sys: inout SystemCalls,
                                   fsync: Bool, errno code: Int32) {
        let live = SystemCalls.live
        let tracked = Mutex<Set<Int32>>([])
        sys.open = { p, flags, mode in
            let fd = live.open(p, flags, mode)
            if matches(p) { tracked.withLock { _ = $0.insert(fd) } }
            return fd
        }
        sys.close = { fd in
            tracked.withLock { _ = $0.remove(fd) }
            return live.close(fd)
        }
        if fsync {
            sys.fsync = { fd in
                if tracked.withLock({ $0.contains(fd) }) { errno = code; return -1 }
                return live.fsync(fd)
            }
        } else {
            sys.write = { fd, buf, n in
                if tracked.withLock({ $0.contains(fd) }) { errno = code; return -1 }
                return live.write(fd, buf, n)
            }
        }
    }

    @Test func renameFails() throws {
        try expectRefused({ sys, _ in
            sys.rename = { from, to in
                if to.hasSuffix("organelles.md") { errno = EIO; return -1 }
                return SystemCalls.live.rename(from, to)
            }
            sys.renameWithFlags = { from, to, flags in
                if to.hasSuffix("organelles.md") { errno = EIO; return -1 }
                return SystemCalls.live.renameWithFlags(from, to, flags)
            }
        }, check: { if case .io(.system(_, "rename", EIO)) = $0 { true } else { false } })
    }

    @Test func diskFullWhileWritingTheNote() throws {
        try expectRefused({ sys, _ in
            Self.failWrites(of: { $0.contains("/.organelles.md.quire-") }, in: &sys, fsync: false, errno: ENOSPC)
        }, check: { if case .io(.system(_, "write", ENOSPC)) = $0 { true } else { false } })
    }

    @Test func diskFullWhileAppendingToTheLogWritesNothing() throws {
        try expectRefused({ sys, _ in
            Self.failWrites(of: { $0.hasSuffix(".log") }, in: &sys, fsync: false, errno: ENOSPC)
        }, check: { if case .io(.system(_, "write", ENOSPC)) = $0 { true } else { false } })
    }

    @Test func fsyncOfTheNoteFails() throws {
        try expectRefused({ sys, _ in
            Self.failWrites(of: { $0.contains("/.organelles.md.quire-") }, in: &sys, fsync: true, errno: EIO)
        }, check: { if case .io(.system(_, "fsync", EIO)) = $0 { true } else { false } })
    }

    @Test func concurrentExternalEditIsKeptAndTheGradeDoesNotCount() throws {
        // Another editor saves the note while Quire writes its temporary file.
        let edited = Mutex(false)
        try expectRefused({ sys, dir in
            let live = SystemCalls.live
            sys.fsync = { fd in
                let result = live.fsync(fd)
                let first = edited.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first, let text = try? dir.text("Biology/organelles.md") {
                    try? dir.write("Biology/organelles.md", text + "\nAdded in another editor.\n")
                }
                return result
            }
        }, expectedNote: { $0 + "\nAdded in another editor.\n" },
           check: { if case .io(.changedOnDisk) = $0 { true } else { false } })
    }

    @Test func aRefusedGradeIsUndoneInTheLog() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            var sys = SystemCalls.live
            sys.rename = { from, to in
                if to.hasSuffix("organelles.md") { errno = EIO; return -1 }
                return SystemCalls.live.rename(from, to)
            }
            sys.renameWithFlags = { from, to, flags in
                if to.hasSuffix("organelles.md") { errno = EIO; return -1 }
                return SystemCalls.live.renameWithFlags(from, to, flags)
            }
            #expect(throws: ReviewError.self) {
                try v.writer(io: FileIO(sys: sys)).grade(card.id, .good, inNote: path, at: at(22))
            }
            let lines = try v.logLines()
            #expect(lines.count == 2)
            #expect(lines[0].hasPrefix("2026-11-22T09:00:00.000Z grade \(card.id) good "))
            let id = try #require(eventID(lines[0]))
            #expect(lines[1] == "2026-11-22T09:00:00.000Z undo \(card.id) of=2026-11-22T09:00:00.000Z of-id=\(id) why=note-not-written")
            #expect(ReviewHistory(v.vault.reviewLog().events).events[card.id]?.isEmpty ?? true)
        }
    }

    @Test func whenTheUndoCannotBeLoggedEitherReplayBringsTheNoteInLine() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            let before = try dir.text(path)
            // The disk fills up after the grade is logged: the note and the compensating undo both fail.
            let live = SystemCalls.live
            var sys = SystemCalls.live
            sys.open = { p, flags, mode in
                let logged = (try? String(contentsOfFile: p, encoding: .utf8))?.contains(" grade ") ?? false
                if p.hasSuffix(".log"), flags & (O_WRONLY | O_RDWR) != 0, logged { errno = ENOSPC; return -1 }
                if p.contains("/.organelles.md.quire-") { errno = ENOSPC; return -1 }
                return live.open(p, flags, mode)
            }
            do {
                _ = try v.writer(io: FileIO(sys: sys)).grade(card.id, .good, inNote: path, at: at(22))
                Issue.record("the grade should have failed")
            } catch let error as ReviewError {
                guard case .logAheadOfNote = error else { Issue.record("unexpected error \(error)"); return }
                #expect(error.description.contains("run 'quire replay'"))
            }
            #expect(try dir.text(path) == before)
            let replay = v.replay()
            #expect(replay.differences.map(\.card) == [card.id])
            let plan = replay.plan(vault: v.vault)
            #expect(v.vault.apply(plan.edits).diagnostics.isEmpty)
            #expect(v.replay().differences.isEmpty)
            #expect(try v.cards(path).first?.schedule?.reps == 1)
        }
    }
}
