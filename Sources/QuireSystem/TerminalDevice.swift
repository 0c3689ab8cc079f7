#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal as a full screen: raw input, the alternate screen, and restoring the
/// terminal on every way out — normal exit, Ctrl-C, SIGTERM/SIGHUP, and crashes (the fatal signals
/// are caught, the terminal restored, and the signal raised again).
package enum TerminalDevice {
    /// The terminal settings before raw mode, restored on exit (read by the signal handler).
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active = false
    /// Set by SIGWINCH; the event loop redraws.
    nonisolated(unsafe) private static var resizedFlag: sig_atomic_t = 0

    /// What leaves the alternate screen and shows the cursor again.
    private static let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// The signals after which the terminal is restored before the process goes.
    private static let endingSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Enters raw mode and the alternate screen; false when standard input or output is not a
    /// terminal. Input typed before is dropped (after `$EDITOR`, a key typed before it opened must
    /// not count).
    package static func begin() -> Bool {
        guard isatty(0) == 1, isatty(1) == 1, tcgetattr(0, &saved) == 0 else { return false }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 1
        }
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else { return false }
        active = true
        // A parent may have left signals blocked; the terminal is only restored if they arrive.
        var handled = sigset_t()
        sigemptyset(&handled)
        for sig in endingSignals {
            signal(sig, terminalSignalHandler)
            sigaddset(&handled, sig)
        }
        signal(SIGWINCH, { _ in TerminalDevice.resizedFlag = 1 })
        sigaddset(&handled, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        return true
    }

    /// Leaves raw mode and the alternate screen.
    package static func end() {
        guard active else { return }
        restore()
        for sig in endingSignals + [SIGWINCH] { signal(sig, SIG_DFL) }
    }

    /// Async-signal-safe restore: only write(2) and tcsetattr(3).
    fileprivate static func restore() {
        guard active else { return }
        active = false
        restoreSequence.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
        tcsetattr(0, TCSAFLUSH, &saved)
    }

    /// Whether the terminal was resized since the last call (SIGWINCH).
    package static func takeResized() -> Bool {
        guard resizedFlag != 0 else { return false }
        resizedFlag = 0
        return true
    }

    /// Writes text to the terminal at once.
    package static func write(_ text: String) { StandardStreams.write(Array(text.utf8), to: 1) }

    /// The terminal's size (columns, rows), or 80×24.
    package static var size: (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 { return (Int(ws.ws_col), Int(ws.ws_row)) }
        return (80, 24)
    }

    /// What one wait for input gave.
    package enum Input: Equatable {
        /// Nothing came within the time.
        case nothing
        /// Bytes typed (one read may bring several keys).
        case bytes([UInt8])
        /// Standard input is at its end.
        case endOfInput
        /// The read failed (a signal, a closed terminal).
        case failed
    }

    /// Waits up to `timeoutMilliseconds` for input on standard input.
    package static func read(timeoutMilliseconds: Int32) -> Input {
        var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, timeoutMilliseconds) > 0 else { return .nothing }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
        if n > 0 { return .bytes(Array(buffer[..<n])) }
        return n == 0 ? .endOfInput : .failed
    }

    /// Runs a program with the terminal given back to it (for `$EDITOR`), then takes it again;
    /// the program's wait status, or -1 when it could not be started.
    package static func runOutside(_ arguments: [String]) -> Int32 {
        restore()
        defer { _ = begin() }
        var pid = pid_t()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let spawned = posix_spawnp(&pid, arguments[0], nil, nil, &argv, environ)
        guard spawned == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status
    }
}

/// Restores the terminal, then lets the signal do what it would have done.
private func terminalSignalHandler(_ sig: Int32) {
    TerminalDevice.restoreFromSignal()
    signal(sig, SIG_DFL)
    raise(sig)
}

extension TerminalDevice {
    fileprivate static func restoreFromSignal() { restore() }
}

/// Standard output and error as the CLI writes them: whole writes, and a closed pipe (`quire list
/// | head`) ending the program quietly with status 0.
package enum StandardStreams {
    /// Ignores SIGPIPE, so that a write to a closed pipe fails with EPIPE (and ends the program
    /// quietly) instead of killing it.
    package static func ignoreBrokenPipeSignal() { signal(SIGPIPE, SIG_IGN) }

    /// Unblocks the signals that end a program (Ctrl-C, `kill`, a closed terminal): a parent may
    /// have started Quire with them blocked, and a long-running command (`watch`) must still stop.
    package static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Writes all of `bytes` to `descriptor` (1: output, 2: error). On standard output, a closed
    /// pipe ends the program with status 0; other failures drop the rest.
    package static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE, descriptor == 1 { Glibc.exit(0) }
                return
            }
            offset += n
        }
    }

    /// Whether standard output is a terminal.
    package static var outputIsTerminal: Bool { isatty(1) == 1 }

    /// Whether standard input is a terminal (someone can be asked).
    package static var inputIsTerminal: Bool { isatty(0) == 1 }

    /// Whether standard error is a terminal (progress bars go there).
    package static var errorIsTerminal: Bool { isatty(2) == 1 }

    /// The width of the terminal standard output goes to, or nil.
    package static var outputWidth: Int? {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        return nil
    }
}
