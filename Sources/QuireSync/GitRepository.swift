import QuireModel
import Foundation
import QuireSystem

/// A git work tree, driven through the `git` program (the merge driver, `quire git setup`,
/// `quire sync`): what Quire needs of git, and nothing of git's internals.
package struct GitRepository: Sendable {
    /// The top folder of the work tree.
    package let root: String
    /// What each git command may spend: an hour of processor and clock time (a first push of a
    /// large vault over a slow link), 256 MB of output, files of 16 GB, 1,024 open files. No
    /// address-space limit: git maps its pack files, and its memory follows the repository's
    /// size, which the user chose.
    package var limits = Self.standardLimits
    package static let standardLimits = ChildProcess.Limits(memoryBytes: nil, cpuSeconds: 3600, wallSeconds: 3600, outputBytes: 256 << 20,
                                                            fileBytes: 16 << 30, openFiles: 1024)

    /// The work tree holding `directory`, or nil when it is in none (or git is not installed).
    package init?(containing directory: String) {
        let found = ChildProcess.run(["git", "-C", directory, "rev-parse", "--show-toplevel"], limits: Self.standardLimits)
        guard found.status == 0, !found.text.isEmpty else { return nil }
        root = found.text
    }

    /// Runs `git ARGUMENTS` in the work tree, under ``limits``.
    /// Git speaks English here, so that its answers can be read (a refused push); names come
    /// with `-z` where they are read.
    package func run(_ arguments: [String], input: [UInt8] = []) -> ChildProcess {
        ChildProcess.run(["git", "-C", root] + arguments, limits: limits, input: input, environment: ["LC_ALL": "C"])
    }

    /// The commits whose changes are being brought into `HEAD` while git merges, rebases or
    /// cherry-picks, as a merge driver sees them: for a merge, the heads git names in its
    /// `GITHEAD_<commit>` environment variables; for a rebase, the branch's tip before the rebase
    /// (`rebase-merge/orig-head`: it holds every commit being replayed); else `MERGE_HEAD`,
    /// `REBASE_HEAD` or `CHERRY_PICK_HEAD` when one exists.
    package func incomingCommits(environment: [String: String]) -> [String] {
        var found = environment.keys.filter { $0.hasPrefix("GITHEAD_") }.map { String($0.dropFirst("GITHEAD_".count)) }.sorted()
        if found.isEmpty {
            // Both paths from one git run: the merge driver runs once per note.
            let paths = run(["rev-parse", "--git-path", "rebase-merge/orig-head", "--git-path", "rebase-apply/orig-head"])
            for path in paths.text.split(separator: "\n").map(String.init) {
                let file = path.hasPrefix("/") ? path : root + "/" + path
                if let text = try? FileIO().read(file).bytes {
                    let commit = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    if !commit.isEmpty { found.append(commit) }
                }
            }
        }
        if found.isEmpty {
            for ref in ["MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD"] {
                let head = run(["rev-parse", "--verify", "--quiet", ref])
                if head.status == 0, !head.text.isEmpty { found.append(head.text) }
            }
        }
        // Only object names: an environment variable is no place to take a command from.
        return found.filter { !$0.isEmpty && $0.allSatisfy(\.isHexDigit) }
    }

    /// The paths of the files under `folder` in `commit`.
    package func files(at commit: String, under folder: String) -> [String] {
        let listed = run(["ls-tree", "-r", "-z", "--name-only", commit, "--", folder])
        guard listed.status == 0 else { return [] }
        return Self.names(listed.output)
    }

    /// The NUL-separated names a `-z` command printed (nothing when it failed).
    package func names(_ arguments: [String]) -> [String] {
        let listed = run(arguments)
        return listed.status == 0 ? Self.names(listed.output) : []
    }

    private static func names(_ output: [UInt8]) -> [String] {
        output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The full path of `name` in git's folder (`git rev-parse --git-path`, which knows worktrees
    /// and `GIT_DIR`): `MERGE_HEAD`, `rebase-merge`, a file of Quire's own.
    package func gitPath(_ name: String) -> String {
        let path = run(["rev-parse", "--git-path", name]).text
        return path.hasPrefix("/") ? path : root + "/" + path
    }

    /// A file's bytes in `commit`, or nil when it has no such file.
    package func contents(of path: String, at commit: String) -> [UInt8]? {
        let shown = run(["cat-file", "blob", commit + ":" + path])
        return shown.status == 0 ? shown.output : nil
    }

    /// Sets a key of the repository's own configuration (`.git/config`).
    package func setConfig(_ key: String, _ value: String) -> ChildProcess { run(["config", key, value]) }

    /// A key of the configuration git sees here, or nil.
    package func config(_ key: String) -> String? {
        let found = run(["config", "--get", key])
        return found.status == 0 ? found.text : nil
    }

    /// Git's lock files (`index.lock`, `HEAD.lock`, a branch's `refs/heads/NAME.lock`, …), as a
    /// sync finds them.
    package enum Locks: Equatable, Sendable {
        /// No lock: git may run.
        case none
        /// A git command works in this repository (its process is there), or a lock was taken a
        /// moment ago: wait.
        case held(path: String)
        /// Left by a git command that was killed (git takes a lock with `O_EXCL` and removes it
        /// when it ends, which a killed one cannot): no git process works here, and each is older
        /// than two seconds (git on another machine sharing the folder is not seen).
        case stale([Lock])
    }

    /// One lock file and the stamp it had when found (removed only if it still has it).
    package struct Lock: Equatable, Sendable {
        package var path: String
        package var stamp: FileStamp
    }

    /// The lock files in git's folder and under its `refs/`. A git process is taken to work here
    /// when its working folder is the work tree, the git folder or inside either; one whose folder
    /// cannot be read counts as working here.
    /// The processes are listed only when a lock is there.
    package func locks(now: Timestamp, io: FileIO = FileIO(), processes: @autoclosure () -> [RunningProcess] = RunningProcess.all(),
                       minimumAgeMilliseconds: Int64 = 2_000) -> Locks {
        let gitFolder = run(["rev-parse", "--absolute-git-dir"]).text
        guard !gitFolder.isEmpty else { return .none }
        var found: [Lock] = []
        func gather(_ folder: String, depth: Int) {
            guard depth < 8, let names = io.names(in: folder) else { return }
            for name in names.sorted() {
                let path = folder + "/" + name
                guard let stamp = io.linkStamp(path) else { continue }
                if stamp.isDirectory, !stamp.isSymbolicLink {
                    if depth > 0 || name == "refs" { gather(path, depth: depth + 1) }
                } else if name.hasSuffix(".lock") {
                    found.append(Lock(path: path, stamp: stamp))
                }
            }
        }
        gather(gitFolder, depth: 0)
        guard let first = found.first else { return .none }
        let folders = [root, gitFolder].map { FileIO.realPath($0) ?? $0 }
        let busy = processes().contains { p in
            guard p.command == "git" || p.command.hasPrefix("git-") else { return false }
            guard let folder = p.workingFolder else { return true }
            return folders.contains { folder == $0 || folder.hasPrefix($0 + "/") }
        }
        if busy { return .held(path: first.path) }
        if let young = found.first(where: { now.milliseconds - $0.stamp.mtimeNanoseconds / 1_000_000 < minimumAgeMilliseconds }) {
            return .held(path: young.path)
        }
        return .stale(found)
    }
}
