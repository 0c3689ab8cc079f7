#if canImport(Glibc)
import Glibc
#endif
import QuireSupport
import Synchronization

/// A program left running while Quire works (a language model's server), in a process group of
/// its own so that stopping it stops whatever it started, its input empty and its output appended
/// to a log file. Stopped by ``stop(graceSeconds:)`` (an interrupt, then a kill), never left behind
/// by a Quire that ends normally: the owner stops it, and ``deinit`` does too.
package final class BackgroundProcess: @unchecked Sendable {
    /// Its process identifier (and its group's).
    package let pid: pid_t
    /// Its exit status once waited for.
    private let ended = Mutex<Int32?>(nil)

    private init(pid: pid_t) { self.pid = pid }

    deinit { stop(graceSeconds: 1) }

    /// Starts `arguments` (the program found on `PATH`) with `environment` added to this process's,
    /// standard input from `/dev/null`, standard output and error appended to `logPath`. Throws the
    /// system's reason when it cannot start.
    package static func start(_ arguments: [String], environment: [String: String] = [:], logPath: String) throws(FileIOError) -> BackgroundProcess {
        guard let program = arguments.first else { throw .system(path: logPath, operation: "posix_spawn", code: EINVAL) }
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard log >= 0 else { throw .system(path: logPath, operation: "open", code: errno) }
        defer { close(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log, 1)
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        var pid = pid_t()
        let spawned = ChildProcess.spawn(arguments, environment: environment, pid: &pid, actions: &actions, attributes: &attributes)
        guard spawned == 0 else { throw .system(path: program, operation: "posix_spawn", code: spawned) }
        return BackgroundProcess(pid: pid)
    }

    /// The exit status once it has ended (128 + the signal when one ended it), else nil.
    package var exitStatus: Int32? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            ended = ChildProcess.exitCode(ofWaitStatus: status)
            return ended
        }
    }

    /// Stops it and its group: an interrupt, then, after `graceSeconds`, a kill. Waits for it.
    package func stop(graceSeconds: Double = 3) {
        ended.withLock { ended in
            guard ended == nil else { return }
            kill(-pid, SIGTERM)
            var status: Int32 = 0
            let steps = max(1, Int(graceSeconds * 20))
            for _ in 0..<steps {
                if waitpid(pid, &status, WNOHANG) == pid {
                    ended = ChildProcess.exitCode(ofWaitStatus: status)
                    kill(-pid, SIGKILL)
                    return
                }
                usleep(50_000)
            }
            kill(-pid, SIGKILL)
            ended = ChildProcess.waitForExit(pid)
        }
    }
}
