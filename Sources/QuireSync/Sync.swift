import QuireIndex
import QuireModel
import QuireReview
import QuireSystem
import QuireYAML
import QuireVault

/// `quire sync`: commit the vault's changes, pull with the merge driver, replay what the merged
/// log says is behind, push (FORMAT.md §6.5). Every step is git run as a program; a step that
/// fails stops the sync with what to do next, and the repository is never left mid-merge or
/// mid-rebase without saying so.
public struct Sync {
    /// How to bring the other devices' commits in.
    public enum PullMode: String, Sendable {
        case merge, rebase
    }

    /// The pull mode git's own configuration asks for, as `git pull` reads it: the current
    /// branch's `branch.NAME.rebase`, else `pull.rebase`; merging when neither is set. Any true
    /// value (`true`, `merges`, `interactive`) means a rebase.
    public func configuredMode() -> (mode: PullMode, setBy: String?) {
        let branch = repository.run(["symbolic-ref", "-q", "--short", "HEAD"]).text
        let keys = (branch.isEmpty ? [] : ["branch.\(branch).rebase"]) + ["pull.rebase"]
        for key in keys {
            guard let value = repository.config(key)?.lowercased() else { continue }
            let off = ["false", "no", "off", "0", ""].contains(value)
            return (off ? .merge : .rebase, key)
        }
        return (.merge, nil)
    }

    /// What a sync did or, with `dryRun`, would do, step by step, for the user.
    public struct Report: Sendable {
        public var steps: [String] = []
        /// Set when the sync stopped before its end: what happened and how to go on.
        public var stopped: String?
    }

    let vault: Vault
    let repository: GitRepository
    let executable: String
    /// The vault's folder as an absolute path (git runs in the work tree's top folder).
    let root: String
    /// The file that says a sync is merging or rebasing (`quire-sync` in git's folder): written
    /// before the pull, removed when it ends, kept when it stops at conflicts. A merge or rebase
    /// found unfinished with this file there is one a sync began.
    let ownPullMarker: String

    /// A sync of `vault`, whose git work tree must exist; `executable` is the `quire` the merge
    /// driver runs (registered when the clone does not have it yet).
    public init(vault: Vault, executable: String) throws(SyncError) {
        guard let repository = GitRepository(containing: vault.root) else { throw .notARepository(vault.root) }
        self.vault = vault
        self.repository = repository
        self.executable = executable
        root = FileIO.realPath(vault.root) ?? vault.root
        ownPullMarker = repository.gitPath("quire-sync")
    }

    /// Runs the sync (or, with `dryRun`, only says what it would do).
    ///
    /// `now` tells a lock git left behind from one a git command holds this moment
    /// (``GitRepository/locks(now:io:processes:minimumAgeMilliseconds:)``).
    public func run(mode: PullMode, dryRun: Bool, config: VaultConfig, now: Timestamp) throws(SyncError) -> Report {
        try run(mode: mode, dryRun: dryRun, config: config, now: now, processes: RunningProcess.all())
    }

    /// The sync, with the processes running on the machine given (tests); they are listed only
    /// when git's folder holds a lock.
    func run(mode: PullMode, dryRun: Bool, config: VaultConfig, now: Timestamp,
             processes: @autoclosure () -> [RunningProcess]) throws(SyncError) -> Report {
        var report = Report()
        guard clearLocks(now: now, processes: processes(), dryRun: dryRun, into: &report) else { return report }
        if !dryRun {
            let scratch = removeMergeScratch()
            if !scratch.isEmpty { report.steps.append("removed \(scratch.joined(separator: ", ")), git's scratch files from a merge that was stopped") }
        }
        guard finishOwnOperation(dryRun: dryRun, into: &report) else { return report }
        if !dryRun, let upstream = ownPull(), unfinishedOperation() == nil {
            try repairKilledPull(upstream: upstream, now: now, into: &report)
        }
        if !dryRun { endOwnPull() }
        if !GitSetup.isRegistered(vault: vault) {
            if dryRun {
                report.steps.append("would register the merge driver (quire git setup)")
            } else {
                report.steps += try GitSetup.register(vault: vault, executable: executable)
            }
        }
        try commitLocalChanges(dryRun: dryRun, into: &report)
        // 2. Pull.
        guard let upstream = upstream() else {
            report.steps.append("no upstream branch: nothing to pull from or push to (git push -u REMOTE BRANCH sets one)")
            return report
        }
        if dryRun {
            let behind = repository.run(["rev-list", "--count", "HEAD..\(upstream)"]).text
            report.steps.append("would fetch and \(mode.rawValue) \(upstream) (\(behind.isEmpty ? "?" : behind) commit(s) known behind before fetching), then push")
            return report
        }
        try pullAndPush(upstream: upstream, mode: mode, config: config, into: &report)
        return report
    }

    /// Removes the locks a git command killed midway left (with no git command at work here);
    /// false when the sync must stop (a git command is at work, or a lock changed meanwhile).
    private func clearLocks(now: Timestamp, processes: @autoclosure () -> [RunningProcess], dryRun: Bool, into report: inout Report) -> Bool {
        // A git command killed midway (a crash, a closed terminal) leaves its index lock, and
        // every later git command refuses to run: removed when no git command works here.
        switch repository.locks(now: now, io: vault.io, processes: processes()) {
        case .none:
            break
        case .held(let path):
            report.stopped = "a git command is at work in \(repository.root) (\(path) is there): let it finish, then sync again"
            return false
        case .stale(let locks):
            for lock in locks {
                if dryRun {
                    report.steps.append("would remove \(lock.path), left by a git command that was stopped")
                    continue
                }
                guard vault.io.linkStamp(lock.path) == lock.stamp, vault.io.removeFile(lock.path) else {
                    report.stopped = "\(lock.path) changed while it was looked at: sync again"
                    return false
                }
                report.steps.append("removed \(lock.path), left by a git command that was stopped (no git command works here)")
            }
        }
        return true
    }

    /// Finishes a merge or rebase an earlier sync began and was stopped in; false when the sync
    /// must stop (someone else's operation, conflicts left, or it cannot be finished).
    private func finishOwnOperation(dryRun: Bool, into report: inout Report) -> Bool {
        if let busy = unfinishedOperation() {
            // A merge or rebase a sync began, stopped before its commit (killed, or stopped at
            // conflicts since resolved): finished here. Anyone else's is the user's to finish.
            guard ownPull() != nil, busy != "cherry-pick", conflictedFiles().isEmpty, !dryRun else {
                report.stopped = "a \(busy) is under way in \(repository.root): finish it (git \(busy) --continue) or abort it (git \(busy) --abort), then sync again"
                return false
            }
            // Git writes the merge's message after its head: a merge killed between has none, or
            // an empty one.
            let written = (try? vault.io.read(repository.gitPath("MERGE_MSG")).bytes) ?? []
            let hasMessage = String(decoding: written, as: UTF8.self).split(separator: "\n")
                .contains { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
            let commit = hasMessage ? ["commit", "-q", "--no-edit"] : ["commit", "-q", "-m", "Merge \(ownPull() ?? "the upstream branch")"]
            let continued = repository.run(busy == "rebase" ? ["-c", "core.editor=true", "rebase", "--continue"] : commit)
            guard continued.status == 0 else {
                report.stopped = "the \(busy) a sync began could not be finished (\(continued.errorText)): finish it (git \(busy) --continue) or abort it (git \(busy) --abort), then sync again"
                return false
            }
            report.steps.append("finished the \(busy) an earlier sync began")
        }
        return true
    }

    /// 1. Commits what changed here (or says it would).
    private func commitLocalChanges(dryRun: Bool, into report: inout Report) throws(SyncError) {
        let message = try commitMessage()
        if let message {
            if dryRun {
                report.steps.append("would commit: \(message)")
            } else {
                try stage()
                try git(["commit", "-q", "-m", message])
                report.steps.append("committed: \(message)")
            }
        } else {
            report.steps.append("nothing to commit")
        }

    }

    /// Fetches and merges (or rebases) `upstream`, replays the notes that came in, and pushes; a
    /// push refused because the remote moved on meanwhile is tried again, three times at most.
    private func pullAndPush(upstream: String, mode: PullMode, config: VaultConfig, into report: inout Report) throws(SyncError) {
        // Another device may push between this fetch and this push: the push is then refused,
        // and the sync fetches and merges again (a few times at most).
        for attempt in 1...3 {
            beginOwnPull(upstream)
            if let stop = try pull(upstream: upstream, mode: mode, into: &report) {
                report.stopped = stop
                return
            }
            endOwnPull()
            try replayBehindNotes(config: config, into: &report)
            let pushed = repository.run(["push", "-q"])
            if pushed.status == 0 {
                report.steps.append("pushed to \(upstream)")
                return
            }
            let locked = Self.remoteLock(pushed.errorText) != nil
            let refused = pushed.errorText.contains("rejected") || pushed.errorText.contains("fetch first")
            guard refused, !locked, attempt < 3 else {
                report.stopped = Self.pushFailure(pushed.errorText)
                return
            }
            report.steps.append("the remote moved on meanwhile: pulling again")
        }
    }

    /// What to tell about a push git refused. A push to a remote in a local folder killed midway
    /// leaves a lock file in that repository (its `receive-pack` ran here): then the message names
    /// the file to remove, since syncing again cannot help.
    static func pushFailure(_ errorText: String) -> String {
        if let lock = remoteLock(errorText) {
            return "git push failed: the remote repository holds \(lock), a lock a git stopped while pushing there left; "
                + "if no git works on that repository now, remove that file and sync again (your commits are safe here)"
        }
        return "git push failed (\(errorText)); your commits are safe here: 'quire sync' again later"
    }

    /// The lock file git's push error names ("Unable to create '…lock': File exists"), or nil.
    static func remoteLock(_ errorText: String) -> String? {
        guard let start = errorText.range(of: "Unable to create '"),
              let end = errorText[start.upperBound...].range(of: ".lock': File exists") else { return nil }
        return (String(errorText[start.upperBound..<end.lowerBound]) + ".lock").replacingOccurrences(of: "/./", with: "/")
    }

    /// Fetches and merges (or rebases onto) `upstream`; what stopped it, or nil.
    private func pull(upstream: String, mode: PullMode, into report: inout Report) throws(SyncError) -> String? {
        let fetched = repository.run(["fetch", "-q"])
        guard fetched.status == 0 else { throw .git(command: "fetch", message: fetched.errorText) }
        var pulled = repository.run(mode == .rebase ? ["rebase", "-q", upstream] : ["merge", "-q", "--no-edit", upstream])
        // A note renamed on one side and changed on the other that git took for a delete (its
        // rename detection weighs the scheduling lines, most of a small note's bytes): the rename
        // and the change are merged, and the merge or rebase goes on.
        var rounds = 0
        while pulled.status != 0, rounds < 100, let kept = try keepRenames(), !kept.isEmpty {
            rounds += 1
            report.steps += kept
            guard repository.run(["diff", "-z", "--name-only", "--diff-filter=U"]).output.isEmpty else { break }
            pulled = repository.run(mode == .rebase ? ["-c", "core.editor=true", "rebase", "--continue"] : ["commit", "-q", "--no-edit"])
        }
        guard pulled.status != 0 else {
            report.steps.append("\(mode == .rebase ? "rebased onto" : "merged") \(upstream)")
            return nil
        }
        let conflicted = conflictedFiles()
        let go = mode == .rebase ? "git rebase --continue" : "git commit"
        let back = mode == .rebase ? "git rebase --abort" : "git merge --abort"
        if conflicted.isEmpty { return "git \(mode.rawValue) failed: \(pulled.errorText)" }
        return "conflicts in the notes' text (their scheduling lines are merged): " + conflicted.joined(separator: ", ")
            + ". For each: 'quire resolve NOTE --ours' or '--theirs' (or edit it), then '\(go)' and 'quire sync' again;"
            + " or '\(back)' to go back to before the sync"
    }

    /// Resolves each modify/delete conflict of a note that the deleting side in fact renamed: the
    /// note in the work tree whose text, scheduling lines aside, is the deleted note's (or closest
    /// to it, at least half its lines) takes the other side's changes, merged as the driver merges
    /// notes, and the old path goes. Returns what was done (nothing when no such conflict).
    func keepRenames(only: String? = nil) throws(SyncError) -> [String]? {
        let status = repository.run(["status", "--porcelain=v1", "-z", "--untracked-files=no"])
        guard status.status == 0 else { return nil }
        var deleted: [String] = []
        for entry in status.output.split(separator: 0) where entry.count > 3 {
            let code = String(decoding: entry.prefix(2), as: UTF8.self), path = String(decoding: entry.dropFirst(3), as: UTF8.self)
            if code == "DU" || code == "UD", path.lowercased().hasSuffix(".md"), only.map({ $0 == path }) ?? true { deleted.append(path) }
        }
        guard !deleted.isEmpty else { return [] }
        let tracked = repository.names(["ls-files", "-z", "--", "*.md", "*.MD"])
        var done: [String] = []
        let driver = try GitMergeDriver(directory: repository.root, environment: [:])
        for path in deleted {
            guard let base = stage(1, path), let changed = stage(2, path) ?? stage(3, path) else { continue }
            let baseLines = Self.bodyLines(base)
            guard !baseLines.isEmpty else { continue }
            // The renamed note: the best match among the other notes, at least half the lines alike.
            var best: (path: String, score: Double, bytes: [UInt8])?
            for other in tracked where other != path {
                guard let bytes = try? FileIO().read(repository.root + "/" + other).bytes else { continue }
                let lines = Self.bodyLines(bytes)
                let shared = Set(lines).intersection(baseLines).count
                let score = Double(shared) / Double(max(baseLines.count, Set(lines).count, 1))
                if score >= 0.5, score > (best?.score ?? 0) { best = (other, score, bytes) }
            }
            guard let renamed = best else { continue }
            let (merged, outcome) = try driver.merged(base: base, ours: renamed.bytes, theirs: changed, path: renamed.path)
            do { try FileIO().replace(repository.root + "/" + renamed.path, with: merged, expected: renamed.bytes) } catch { throw .io(error) }
            let removed = repository.run(["rm", "-q", "-f", "--ignore-unmatch", "--", path])
            guard removed.status == 0 else { throw .git(command: "rm", message: removed.errorText) }
            if !outcome.hasConflicts {
                let added = repository.run(["add", "--", renamed.path])
                guard added.status == 0 else { throw .git(command: "add", message: added.errorText) }
            }
            done.append("kept the rename of \(path) to \(renamed.path) with the other side's changes"
                        + (outcome.hasConflicts ? " (conflicts in its text are left to you)" : ""))
        }
        return done
    }

    /// A version of a conflicted file from git's index (1 base, 2 ours, 3 theirs).
    private func stage(_ n: Int, _ path: String) -> [UInt8]? {
        let shown = repository.run(["show", ":\(n):" + path])
        return shown.status == 0 ? shown.output : nil
    }

    /// A note's body lines, without its front matter (and so without its scheduling lines), blank
    /// lines left out: what a rename keeps.
    static func bodyLines(_ bytes: [UInt8]) -> Set<String> {
        let body: ArraySlice<UInt8>
        if let fm = try? FrontMatter(file: bytes) { body = bytes[fm.bodyRange] } else { body = bytes[...] }
        return Set(String(decoding: body, as: UTF8.self).split(separator: "\n").map { $0.trimmingSpaces() }.filter { !$0.isEmpty })
    }

    /// Replays and commits the scheduling lines the merged log says are behind (a conflict
    /// resolved by hand, lines git merged without the driver).
    private func replayBehindNotes(config: VaultConfig, into report: inout Report) throws(SyncError) {
        let replay = ReviewReplay(vault: vault, index: vault.index(), config: config)
        guard !replay.differences.isEmpty else { return }
        let applied = vault.apply(replay.plan(vault: vault).edits)
        if let problem = applied.diagnostics.first { throw .notWritten(problem.description) }
        try stage()
        try git(["commit", "-q", "-m", "quire sync: \(replay.differences.count) scheduling line(s) replayed from the merged log"])
        report.steps.append("replayed \(replay.differences.count) scheduling line(s) from the merged log, committed")
    }

    /// A generated commit message for the vault's uncommitted changes, or nil when there are none:
    /// `quire sync: 12 reviews, 2 notes edited, 1 note added`.
    func commitMessage() throws(SyncError) -> String? {
        let status = repository.run(["status", "--porcelain", "-z", "--untracked-files=all", "--", root])
        guard status.status == 0 else { throw .git(command: "status", message: status.errorText) }
        // Temporary files are never committed (``stage()``): they are no change to tell of.
        let entries = status.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            .filter { $0.count <= 3 || !Self.isTemporary(String($0.dropFirst(3))) }
        guard !entries.isEmpty else { return nil }
        var added = 0, edited = 0, removed = 0, other = 0
        for entry in entries where entry.count > 3 {
            let code = entry.prefix(2), path = entry.dropFirst(3)
            guard path.hasSuffix(".md") else {
                // Quire's own files (logs, settings snapshots) are told by the review count.
                if !path.contains(".quire/") { other += 1 }
                continue
            }
            if code.contains("?") || code.contains("A") { added += 1 } else if code.contains("D") { removed += 1 } else { edited += 1 }
        }
        // Reviews: the grade lines this clone added to its log since the last commit.
        let logDiff = repository.run(["diff", "HEAD", "--unified=0", "--", root + "/" + Vault.logFolder])
        var reviews = logDiff.text.split(separator: "\n").filter { $0.hasPrefix("+") && $0.contains(" grade ") }.count
        for entry in entries where entry.hasPrefix("??") && entry.hasSuffix(".log") {
            let path = repository.root + "/" + entry.dropFirst(3)
            if let bytes = try? vault.io.read(path).bytes {
                reviews += String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { $0.contains(" grade ") }.count
            }
        }
        func count(_ n: Int, _ one: String, _ many: String) -> String? { n == 0 ? nil : "\(n) \(n == 1 ? one : many)" }
        let parts = [count(reviews, "review", "reviews"), count(edited, "note edited", "notes edited"),
                     count(added, "note added", "notes added"), count(removed, "note removed", "notes removed"),
                     count(other, "other file", "other files")].compactMap { $0 }
        return "quire sync: " + (parts.isEmpty ? "changes" : parts.joined(separator: ", "))
    }

    /// The upstream branch of the current one (`origin/main`), or nil.
    func upstream() -> String? {
        let found = repository.run(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"])
        return found.status == 0 && !found.text.isEmpty ? found.text : nil
    }

    /// A merge, rebase or cherry-pick left unfinished, by the word git uses for it, or nil.
    func unfinishedOperation() -> String? {
        for (state, name) in [("rebase-merge", "rebase"), ("rebase-apply", "rebase"), ("MERGE_HEAD", "merge"),
                              ("CHERRY_PICK_HEAD", "cherry-pick")] {
            if vault.io.linkStamp(repository.gitPath(state)) != nil { return name }
        }
        return nil
    }

    /// After a sync killed amid its pull. Git writes the work tree file by file, each removed
    /// and then written again, so a kill leaves a note missing, empty or cut short, and the new
    /// files of the other side half there — which the next commit would take as this device's
    /// edits and send everywhere. The sync had committed everything before it pulled, so each
    /// file that differs from the index is put back as the index has it (the commit before the
    /// pull, or the pull's result when git got as far as writing it), and the other side's new
    /// files are taken out; the pull then does it all again. The files as found are kept under
    /// `quire-sync-saved/TIME/` in git's folder (an edit made since the kill is not lost).
    private func repairKilledPull(upstream: String, now: Timestamp, into report: inout Report) throws(SyncError) {
        let changed = repository.names(["ls-files", "-z", "--modified"])
        let incoming = Set(repository.names(["ls-tree", "-r", "-z", "--name-only", upstream]))
        let halfThere = repository.names(["ls-files", "-z", "--others", "--exclude-standard"]).filter(incoming.contains)
        guard !changed.isEmpty || !halfThere.isEmpty else { return }
        let folder = repository.gitPath("quire-sync-saved/\(now.milliseconds)")
        for path in changed + halfThere {
            let file = repository.root + "/" + path
            guard let bytes = try? vault.io.read(file).bytes else { continue }
            do {
                try vault.io.makeDirectories(FileIO.directory(of: folder + "/" + path))
                try vault.io.createNew(folder + "/" + path, with: bytes)
            } catch {
                throw .git(command: "sync", message: "cannot keep \(path) under \(folder): \(error)")
            }
        }
        if !changed.isEmpty { try git(["checkout", "--"] + changed) }
        for path in halfThere { _ = vault.io.removeFile(repository.root + "/" + path) }
        report.steps.append("put back \((changed + halfThere).joined(separator: ", ")) as before a sync stopped amid its pull "
                            + "(the files as it left them are in \(folder))")
    }

    /// What the marker says (the upstream branch the pull began from), or nil.
    func ownPull() -> String? {
        (try? vault.io.read(ownPullMarker).bytes).map { String(decoding: $0, as: UTF8.self) }
    }

    private func beginOwnPull(_ upstream: String) {
        _ = vault.io.removeFile(ownPullMarker)
        try? vault.io.createNew(ownPullMarker, with: Array(upstream.utf8))
    }

    private func endOwnPull() { _ = vault.io.removeFile(ownPullMarker) }

    /// Pathspecs of the temporary files a killed process can leave in the work tree, never
    /// committed: git's merge scratch files (`.merge_file_XXXXXX`, the driver's three versions)
    /// and Quire's own (`.NAME.quire-PID-RANDOM.tmp`, ``TemporaryFiles``).
    static let temporaryPathspecs = [":(exclude,glob)**/.merge_file_*", ":(exclude,glob)**/.*.quire-*.tmp"]

    /// Stages the vault's changes, temporaries left out; then checks what is staged, so that a
    /// temporary file git already tracks (committed by an older sync) goes out of the commit.
    private func stage() throws(SyncError) {
        try git(["add", "-A", "--", root] + Self.temporaryPathspecs)
        let temporaries = repository.names(["diff", "--cached", "-z", "--name-only"]).filter { Self.isTemporary($0) }
        if !temporaries.isEmpty { try git(["reset", "-q", "--"] + temporaries) }
    }

    /// Whether a path names a temporary file (``temporaryPathspecs``).
    static func isTemporary(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasPrefix(".merge_file_") || TemporaryFiles.writer(ofName: name) != nil
    }

    /// Git's merge scratch files at the work tree's top, left by a git killed amid a merge:
    /// removed when no git works here (no lock held). Returns their names.
    private func removeMergeScratch() -> [String] {
        let names = (vault.io.names(in: repository.root) ?? []).filter { $0.hasPrefix(".merge_file_") }.sorted()
        return names.filter { vault.io.removeFile(repository.root + "/" + $0) }
    }

    /// The files git marks as conflicted.
    func conflictedFiles() -> [String] { repository.names(["diff", "-z", "--name-only", "--diff-filter=U"]) }

    private func git(_ arguments: [String]) throws(SyncError) {
        let run = repository.run(arguments)
        guard run.status == 0 else { throw .git(command: arguments.first ?? "", message: run.errorText) }
    }
}
