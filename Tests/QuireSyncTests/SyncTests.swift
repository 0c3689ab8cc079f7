import Foundation
import Testing
import QuireIndex
import QuireModel
@testable import QuireSystem
@testable import QuireSync
@testable import QuireTestSupport
import QuireVault

/// A sync meeting git's index lock: one a running git command holds is waited for, one a killed
/// command left is removed and the sync goes on (the crash trial's finding: every later sync
/// failed on it).
@Suite(.serialized) struct SyncTests {
    /// A vault that is a git work tree with one commit, no upstream.
    static func repository(_ dir: TempDir) throws -> (Vault, GitRepository) {
        #expect(ChildProcess.run(["git", "init", "-q", "-b", "main", dir.path]).status == 0)
        try dir.write(".quire/config.yaml", "scheduler: fsrs\n")
        try dir.write("cells.md", "What makes ATP? :: The mitochondrion\n")
        let repository = try #require(GitRepository(containing: dir.path))
        let identity = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
        #expect(repository.run(["add", "-A"]).status == 0)
        #expect(repository.run(identity + ["commit", "-q", "-m", "start"]).status == 0)
        #expect(repository.run(["config", "user.name", "t"]).status == 0)
        #expect(repository.run(["config", "user.email", "t@example.org"]).status == 0)
        return (try Vault(root: dir.path), repository)
    }

    static let now = Timestamp(iso8601: "2026-11-27T12:00:00Z")!

    /// The lock's modification time set `seconds` before `now`.
    static func age(_ path: String, seconds: Int64) {
        let t = now.milliseconds / 1000 - seconds
        var times = [timespec(tv_sec: Int(t), tv_nsec: 0), timespec(tv_sec: Int(t), tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// `.git/index.lock` as a git killed a minute ago leaves it; its path.
    static func leftLock(_ dir: TempDir) throws -> String {
        try dir.write(".git/index.lock", "")
        age(dir.full(".git/index.lock"), seconds: 60)
        return dir.full(".git/index.lock")
    }

    /// Git runs under limits of its own: a hook that spins (a repository's hooks are its
    /// owner's, but a git that never ends is no sync) is stopped at the processor-time limit,
    /// and says so.
    @Test func gitRunsUnderLimits() throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        var (_, repository) = try Self.repository(dir)
        #expect(repository.limits == GitRepository.standardLimits)
        try dir.write(".git/hooks/pre-commit", "#!/bin/sh\nwhile :; do :; done\n")
        #expect(chmod(dir.full(".git/hooks/pre-commit"), 0o755) == 0)
        try dir.write("more.md", "What holds DNA? :: The nucleus\n")
        repository.limits.cpuSeconds = 1
        repository.limits.wallSeconds = 20
        #expect(repository.run(["add", "-A"]).status == 0)
        let start = Date()
        let commit = repository.run(["commit", "-q", "-m", "more"])
        #expect(commit.status != 0 && Date().timeIntervalSince(start) < 15, "\(commit.status) \(commit.errorText)")
    }

    @Test func aLockLeftByAKilledGitIsRemovedAndTheSyncGoesOn() throws {
        try withTempDir { dir in
            let (vault, repository) = try Self.repository(dir)
            let lock = try Self.leftLock(dir)
            try dir.write("new.md", "Q :: A\n")
            let sync = try Sync(vault: vault, executable: "/bin/false")
            let report = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(report.stopped == nil, "\(report)")
            #expect(report.steps.first?.hasPrefix("removed \(lock)") == true, "\(report.steps)")
            #expect(!FileManager.default.fileExists(atPath: lock))
            // The sync went on: the new note is committed.
            #expect(repository.run(["status", "--porcelain"]).text.isEmpty)
            #expect(repository.run(["log", "--oneline"]).text.split(separator: "\n").count == 2)
        }
    }

    /// A push killed on its way to a remote in a local folder leaves that repository's ref lock
    /// (found by the kill trial): the sync names the file to remove instead of "sync again".
    @Test func aLockLeftInALocalRemoteIsNamed() throws {
        try withTempDir { dir in
            let (vault, _) = try Self.clones(dir)
            let lock = dir.full("remote.git/refs/heads/main.lock")
            try dir.write("remote.git/refs/heads/main.lock", "")
            let sync = try Sync(vault: vault, executable: "/bin/false")
            let report = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(report.stopped?.contains("the remote repository holds \(lock)") == true, "\(report)")
            #expect(report.stopped?.contains("remove that file and sync again") == true, "\(report)")
            try FileManager.default.removeItem(atPath: lock)
            let again = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(again.stopped == nil, "\(again)")
        }
    }

    @Test func aLockOfAGitAtWorkIsLeftAlone() throws {
        try withTempDir { dir in
            let (vault, repository) = try Self.repository(dir)
            let lock = try Self.leftLock(dir)
            let sync = try Sync(vault: vault, executable: "/bin/false")
            // A git process whose folder is the work tree, inside it, or the git folder; or one
            // whose folder cannot be read.
            for folder in [dir.path, dir.full("sub"), repository.root + "/.git", nil] as [String?] {
                let git = RunningProcess(pid: 999_999, command: "git", workingFolder: folder)
                let report = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [git])
                #expect(report.stopped?.contains("a git command is at work") == true, "\(report)")
                #expect(FileManager.default.fileExists(atPath: lock))
            }
            // Git elsewhere, or another program here, does not hold it; a lock made a moment ago
            // (its command may be starting) is left alone.
            let elsewhere = [RunningProcess(pid: 1, command: "git", workingFolder: "/"),
                             RunningProcess(pid: 2, command: "vim", workingFolder: dir.path)]
            Self.age(lock, seconds: 1)
            #expect(repository.locks(now: Self.now, processes: elsewhere) == .held(path: lock))
            Self.age(lock, seconds: 3)
            guard case .stale = repository.locks(now: Self.now, processes: elsewhere) else {
                Issue.record("a lock three seconds old with no git at work here is stale")
                return
            }
        }
    }

    /// A real git command holding the lock (`commit -a` waiting for its editor), found through /proc.
    @Test func aRealGitCommandHoldsItsLock() throws {
        try withTempDir { dir in
            let (_, repository) = try Self.repository(dir)
            try dir.write("cells.md", "What makes ATP? :: The mitochondrion, edited\n")
            #expect(repository.run(["add", "-A"]).status == 0)
            let committing = Process()
            committing.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            committing.arguments = ["git", "-C", dir.path, "commit", "-a", "-q"]
            committing.environment = ProcessInfo.processInfo.environment.merging(["GIT_EDITOR": "sleep 4; true"]) { $1 }
            try committing.run()
            defer { committing.terminate(); committing.waitUntilExit() }
            let lock = dir.full(".git/index.lock")
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: lock) { usleep(20_000) }
            #expect(FileManager.default.fileExists(atPath: lock))
            let later = Timestamp(milliseconds: SystemClock.milliseconds() + 60_000)
            #expect(repository.locks(now: later) == .held(path: lock))
            #expect(RunningProcess.all().contains { $0.command == "git" && $0.workingFolder == FileIO.realPath(dir.path) })
        }
    }

    /// The vault with an upstream (a bare remote) that another clone has moved on: a note added
    /// there. Returns the vault and its repository.
    static func clones(_ dir: TempDir) throws -> (Vault, GitRepository) {
        try FileManager.default.createDirectory(atPath: dir.full("vault"), withIntermediateDirectories: true)
        let (vault, repository) = try Self.repository(TempDir(path: dir.full("vault")))
        #expect(ChildProcess.run(["git", "init", "-q", "--bare", "-b", "main", dir.full("remote.git")]).status == 0)
        #expect(repository.run(["remote", "add", "origin", dir.full("remote.git")]).status == 0)
        #expect(repository.run(["push", "-q", "-u", "origin", "main"]).status == 0)
        #expect(ChildProcess.run(["git", "clone", "-q", dir.full("remote.git"), dir.full("other")]).status == 0)
        try dir.write("other/theirs.md", "Theirs? :: yes\n")
        let other = try #require(GitRepository(containing: dir.full("other")))
        #expect(other.run(["add", "-A"]).status == 0)
        #expect(other.run(["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "theirs"]).status == 0)
        #expect(other.run(["push", "-q"]).status == 0)
        try dir.write("vault/ours.md", "Ours? :: yes\n")
        #expect(repository.run(["add", "-A"]).status == 0)
        #expect(repository.run(["commit", "-q", "-m", "ours"]).status == 0)
        #expect(repository.run(["fetch", "-q"]).status == 0)
        return (vault, repository)
    }

    /// A sync killed after git merged but before the merge's commit: the next sync finishes it.
    /// The same unfinished merge begun by the user (no sync's mark) is left to them.
    @Test func aMergeASyncBeganIsFinishedByTheNext() throws {
        try withTempDir { dir in
            let (vault, repository) = try Self.clones(dir)
            #expect(repository.run(["merge", "-q", "--no-commit", "origin/main"]).status == 0)
            let sync = try Sync(vault: vault, executable: "/bin/false")
            let users = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(users.stopped?.hasPrefix("a merge is under way") == true, "\(users)")
            // As a killed sync leaves it: its mark in git's folder.
            try dir.write("vault/.git/quire-sync", "origin/main")
            let report = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(report.stopped == nil, "\(report)")
            #expect(report.steps.contains("finished the merge an earlier sync began"), "\(report.steps)")
            #expect(report.steps.contains("pushed to origin/main"), "\(report.steps)")
            #expect(!FileManager.default.fileExists(atPath: dir.full("vault/.git/quire-sync")))
            #expect(FileManager.default.fileExists(atPath: dir.full("vault/theirs.md")))
            #expect(repository.run(["status", "--porcelain"]).text.isEmpty)
        }
    }

    /// Git killed amid a sync's pull leaves a file it was writing again removed, empty or cut
    /// short, and the other side's new file half there: the next sync puts them back (keeping
    /// the bytes as found) and pulls, rather than committing them as this device's edits.
    @Test func filesAPullKilledMidwayLeftAreRepaired() throws {
        try withTempDir { dir in
            let (vault, repository) = try Self.clones(dir)
            try dir.write("vault/.git/quire-sync", "origin/main")
            try dir.remove("vault/ours.md")
            try dir.write("vault/cells.md", "")
            try dir.write("vault/theirs.md", "Thei")
            let sync = try Sync(vault: vault, executable: "/bin/false")
            let report = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(report.stopped == nil, "\(report)")
            #expect(report.steps.first?.hasPrefix("put back cells.md, ours.md, theirs.md as before a sync stopped amid its pull") == true,
                    "\(report.steps)")
            #expect(try dir.text("vault/cells.md") == "What makes ATP? :: The mitochondrion\n")
            #expect(try dir.text("vault/ours.md") == "Ours? :: yes\n")
            #expect(try dir.text("vault/theirs.md") == "Theirs? :: yes\n")
            let saved = "vault/.git/quire-sync-saved/\(Self.now.milliseconds)/"
            #expect(try dir.text(saved + "cells.md") == "" && dir.text(saved + "theirs.md") == "Thei")
            #expect(repository.run(["status", "--porcelain"]).text.isEmpty)
            #expect(repository.run(["log", "--format=%s", "-1", "--", "cells.md"]).text == "start")
        }
    }

    /// Temporary files a killed merge or write left — git's `.merge_file_*` scratch files and
    /// Quire's `.NAME.quire-PID-RANDOM.tmp` — are never committed; git's scratch files at the top
    /// are removed, and one an older sync committed leaves the next commit.
    @Test func temporaryFilesAreNeverCommitted() throws {
        try withTempDir { dir in
            let (vault, repository) = try Self.repository(dir)
            try dir.write(".merge_file_a1B2c3", "base version")
            try dir.write("deck/.cells.md.quire-999999-123.tmp", "half a note")
            try dir.write("deck/.merge_file_x9", "scratch")
            try dir.write("new.md", "Q :: A\n")
            let sync = try Sync(vault: vault, executable: "/bin/false")
            let report = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(report.steps.first == "removed .merge_file_a1B2c3, git's scratch files from a merge that was stopped", "\(report.steps)")
            // The other two files are the merge driver's set-up (.gitattributes, .gitignore).
            #expect(report.steps.contains("committed: quire sync: 1 note added, 2 other files"), "\(report.steps)")
            let committed = repository.run(["ls-files"]).text.split(separator: "\n").map(String.init)
            #expect(committed.sorted() == [".gitattributes", ".gitignore", ".quire/config.yaml", "cells.md", "new.md"], "\(committed)")
            // Only temporaries left: nothing to commit.
            let again = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            #expect(again.steps.contains("nothing to commit"), "\(again.steps)")
            // A temporary file an older sync committed is taken out of the next commit, not changed.
            #expect(repository.run(["add", "-f", "deck/.merge_file_x9"]).status == 0)
            try dir.write("other.md", "Q2 :: A2\n")
            _ = try sync.run(mode: .merge, dryRun: false, config: VaultConfig(), now: Self.now, processes: [])
            let last = repository.run(["show", "--name-only", "--format=", "HEAD"]).text
            #expect(last == "other.md", "\(last)")
        }
    }
}
