#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The program ``ChildProcess/runPassingInterrupts(_:)`` runs, which its signal handler interrupts.
private let interruptedChild = Atomic<Int32>(0)

/// A program run to its end with its output captured (git, for the merge driver and `quire sync`).
///
/// Started with `posix_spawnp` and waited for with `waitpid`: a merge driver runs git a dozen
/// times for every note git hands it, so the start of a program must cost no more than the
/// kernel's.
package struct ChildProcess: Sendable {
    /// The exit status (128 + the signal for a program a signal ended; -1 when it could not start).
    package var status: Int32
    package var output: [UInt8]
    package var errorOutput: [UInt8]

    /// The standard output as text, without a final line break.
    package var text: String {
        var s = String(decoding: output, as: UTF8.self)
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    /// The standard error as text, without surrounding blanks.
    package var errorText: String {
        var s = Substring(String(decoding: errorOutput, as: UTF8.self))
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// Runs `arguments` (the program found on `PATH`) on this process's standard input, output and
    /// error (an editor on the terminal), and waits for it: its exit status, or -1 when it could
    /// not be started (not installed), or 128 plus the signal that ended it.
    package static func runAttached(_ arguments: [String]) -> Int32 {
        guard let program = arguments.first else { return -1 }
        var pid = pid_t()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        guard posix_spawnp(&pid, program, nil, nil, &argv, environ) == 0 else { return -1 }
        return waitForExit(pid)
    }

    /// Runs `arguments` like ``runAttached(_:)``, but an interrupt or termination that reaches Quire
    /// (Ctrl-C, `kill`) is passed on to the program as an interrupt instead of ending Quire: a
    /// program that stops cleanly on it (ffmpeg recording) ends, and Quire goes on with what it
    /// wrote. The signals' former handling is restored afterwards.
    package static func runPassingInterrupts(_ arguments: [String]) -> Int32 {
        guard let program = arguments.first else { return -1 }
        var previous: [Glibc.sigaction] = [Glibc.sigaction(), Glibc.sigaction()]
        let signals = [SIGINT, SIGTERM]
        for (k, s) in signals.enumerated() {
            var action = Glibc.sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                let child = interruptedChild.load(ordering: .relaxed)
                if child > 0 { kill(child, SIGINT) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(s, &action, &previous[k])
        }
        defer { for (k, s) in signals.enumerated() { sigaction(s, &previous[k], nil) } }
        var pid = pid_t()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        guard posix_spawnp(&pid, program, nil, nil, &argv, environ) == 0 else { return -1 }
        interruptedChild.store(pid, ordering: .relaxed)
        defer { interruptedChild.store(0, ordering: .relaxed) }
        return waitForExit(pid)
    }

    /// `path` as an argument no program can take for an option: a relative path starting with `-`
    /// is given as `./-…`.
    package static func fileArgument(_ path: String) -> String { path.hasPrefix("/") ? path : "./" + path }

    /// Runs `arguments` (the program found on `PATH`), with `input` on its standard input and
    /// `environment` added to this process's.
    package static func run(_ arguments: [String], input: [UInt8] = [], environment: [String: String] = [:],
                            timeoutSeconds: Int? = nil, outputLimit: Int? = nil) -> ChildProcess {
        func failed(_ what: String) -> ChildProcess {
            ChildProcess(status: -1, output: [], errorOutput: Array("\(arguments.first ?? ""): \(what)".utf8))
        }
        guard let program = arguments.first else { return failed("no program") }
        let stdin: [Int32], stdout: [Int32], stderr: [Int32]
        switch makePipes() {
        case .success(let pipes): (stdin, stdout, stderr) = (pipes[0], pipes[1], pipes[2])
        case .failure(let failure): return failed(failure.message)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)

        var pid = pid_t()
        let spawned = spawn(arguments, environment: environment, pid: &pid, actions: &actions, attributes: nil)
        close(stdin[0]); close(stdout[1]); close(stderr[1])
        guard spawned == 0 else {
            close(stdin[1]); close(stdout[0]); close(stderr[0])
            return failed(errnoMessage(spawned))
        }
        // The input first (small: git's answers come after), then both outputs drained together,
        // so that neither pipe fills and stops the program.
        writeAll(input, to: stdin[1])
        close(stdin[1])
        var drain = OutputDrain(stdout: stdout[0], stderr: stderr[0])
        drain.readAll(timeoutSeconds: timeoutSeconds, outputLimit: outputLimit)
        if drain.stopped != nil { kill(pid, SIGKILL) }
        for fd in drain.open { close(fd) }
        let code = waitForExit(pid)
        if let stopped = drain.stopped { return ChildProcess(status: -2, output: [], errorOutput: Array("\(program): \(stopped)".utf8)) }
        return ChildProcess(status: code, output: drain.output, errorOutput: drain.errors)
    }

    /// Why the pipes for a program could not be made.
    private struct PipeFailure: Error {
        /// `pipe: ` and the system's message.
        let message: String
    }

    /// The pipes for a program's standard input, output and error, each as `pipe(2)` gives its
    /// ends; when one cannot be made, those made are closed.
    private static func makePipes() -> Result<[[Int32]], PipeFailure> {
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            // A pipe whose ends a program started meanwhile on another thread does not inherit.
            guard pipe(&ends) == 0 else {
                for fd in pipes.joined() { close(fd) }
                return .failure(PipeFailure(message: "pipe: \(errnoMessage(errno))"))
            }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            pipes.append(ends)
        }
        return .success(pipes)
    }

    /// Starts `arguments` (the program found on `PATH`) with `environment` added to this process's,
    /// `actions` on its file descriptors and `attributes`: 0 with its identifier in `pid`, else the
    /// error number.
    static func spawn(_ arguments: [String], environment: [String: String], pid: inout pid_t,
                      actions: inout posix_spawn_file_actions_t, attributes: UnsafePointer<posix_spawnattr_t>?) -> Int32 {
        guard let program = arguments.first else { return EINVAL }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environmentEntries(adding: environment).map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        return argv.withUnsafeBufferPointer { args in
            envp.withUnsafeBufferPointer { env -> Int32 in
                guard let args = args.baseAddress, let env = env.baseAddress else { return EINVAL }
                return posix_spawnp(&pid, program, &actions, attributes, args, env)
            }
        }
    }

    /// Waits for `pid` to end (through interruptions); its exit code.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return exitCode(ofWaitStatus: status)
    }

    /// A `waitpid` status as an exit code: the program's own, or 128 plus the signal that ended it
    /// (WIFEXITED / WEXITSTATUS / WTERMSIG spelled out: Swift does not import the macros).
    static func exitCode(ofWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// This process's environment with `environment` added, as `NAME=value` entries sorted by name.
    static func environmentEntries(adding environment: [String: String]) -> [String] {
        var variables: [String: String] = [:]
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { variables[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            e += 1
        }
        for (key, value) in environment { variables[key] = value }
        return variables.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }
    }

    /// Writes `bytes` to `fd`, stopping early when the reader has gone.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            written += n
        }
    }

    /// A program's standard output and error, read together so that neither pipe fills.
    private struct OutputDrain {
        /// The read end of the standard output's pipe.
        let stdout: Int32
        var output: [UInt8] = [], errors: [UInt8] = []
        /// The read ends not yet at their end.
        var open: [Int32]
        /// Why reading stopped before both ends closed: a limit passed.
        var stopped: String?

        /// A drain of the pipes' read ends `stdout` and `stderr`.
        init(stdout: Int32, stderr: Int32) {
            self.stdout = stdout
            open = [stdout, stderr]
        }

        /// Reads until both outputs end or poll fails. Limits (for programs reading untrusted
        /// files): past the time or the output, reading stops with the reason in ``stopped``.
        mutating func readAll(timeoutSeconds: Int?, outputLimit: Int?) {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var clock = timespec()
            clock_gettime(CLOCK_MONOTONIC, &clock)
            let deadline = timeoutSeconds.map { Int64(clock.tv_sec) * 1000 + Int64(clock.tv_nsec) / 1_000_000 + Int64($0) * 1000 }
            while !open.isEmpty {
                var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                var wait: Int32 = -1
                if let deadline {
                    clock_gettime(CLOCK_MONOTONIC, &clock)
                    let left = deadline - (Int64(clock.tv_sec) * 1000 + Int64(clock.tv_nsec) / 1_000_000)
                    if left <= 0 {
                        stopped = "stopped after \(timeoutSeconds ?? 0) s"
                        break
                    }
                    wait = Int32(min(left, 60_000))
                }
                if let outputLimit, output.count + errors.count > outputLimit {
                    stopped = "stopped: more than \(outputLimit >> 20) MB of output"
                    break
                }
                let ready = poll(&fds, nfds_t(fds.count), wait)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for f in fds where f.revents != 0 { read(f.fd, into: &buffer) }
            }
        }

        /// Reads what is ready on `fd`, closing it at its end.
        mutating func read(_ fd: Int32, into buffer: inout [UInt8]) {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { return }
            if n <= 0 {
                close(fd)
                open.removeAll { $0 == fd }
            } else if fd == stdout {
                output += buffer[..<n]
            } else {
                errors += buffer[..<n]
            }
        }
    }
}
