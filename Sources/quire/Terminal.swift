#if canImport(Glibc)
import Glibc
#endif

/// The full-screen terminal: raw input, the alternate screen, and restoring the terminal on every
/// way out — normal exit, Ctrl-C, SIGTERM/SIGHUP, and crashes (the fatal signals are caught, the
/// terminal restored, and the signal raised again).
enum Terminal {
    /// The terminal settings before raw mode, restored on exit (read by the signal handler).
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active = false
    /// Set by SIGWINCH; the event loop redraws.
    nonisolated(unsafe) static var resized: sig_atomic_t = 0

    /// What leaves the alternate screen and shows the cursor again.
    private static let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// Enters raw mode and the alternate screen; false when standard input or output is not a terminal.
    static func begin() -> Bool {
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
        // TCSAFLUSH dropped input not yet read; keys read but not yet handled go with it (after
        // `$EDITOR`, a key typed before it opened must not grade the card).
        keys = KeyDecoder()
        active = true
        // A parent may have left signals blocked; the terminal is only restored if they arrive.
        var handled = sigset_t()
        sigemptyset(&handled)
        for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(sig, terminalSignalHandler)
            sigaddset(&handled, sig)
        }
        signal(SIGWINCH, { _ in Terminal.resized = 1 })
        sigaddset(&handled, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        return true
    }

    /// Leaves raw mode and the alternate screen.
    static func end() {
        guard active else { return }
        restore()
        for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGWINCH] {
            signal(sig, SIG_DFL)
        }
    }

    /// Async-signal-safe restore: only write(2) and tcsetattr(3).
    fileprivate static func restore() {
        guard active else { return }
        active = false
        restoreSequence.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
        tcsetattr(0, TCSAFLUSH, &saved)
    }

    /// Writes text to the terminal at once.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
        bytes.removeAll()
    }

    /// The terminal's size (columns, rows), or 80×24.
    static var size: (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 { return (Int(ws.ws_col), Int(ws.ws_row)) }
        return (80, 24)
    }

    /// Keys read but not yet handed out: one `read` may bring several (typed ahead, pasted, or
    /// sent while the program was busy), and none may be lost.
    nonisolated(unsafe) private static var keys = KeyDecoder()

    /// One key press, waiting up to `timeoutMilliseconds`; nil on timeout or a resize.
    static func readKey(timeoutMilliseconds: Int32) -> Key? {
        if let key = keys.next(atEnd: false) { return key }
        var timeout = timeoutMilliseconds
        while true {
            var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, timeout)
            // Nothing more came: a key cut short (a lone Escape) is what it is.
            guard ready > 0 else { return keys.next(atEnd: true) }
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            guard n > 0 else { return keys.next(atEnd: true) ?? (n == 0 ? .endOfInput : nil) }
            keys.feed(buffer[..<n])
            if let key = keys.next(atEnd: false) { return key }
            // The rest of an escape sequence or a character is on its way.
            timeout = 30
        }
    }

    /// Runs a program with the terminal given back to it (for `$EDITOR`), then takes it again.
    static func runOutside(_ arguments: [String]) -> Int32 {
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
    Terminal.restoreFromSignal()
    signal(sig, SIG_DFL)
    raise(sig)
}

extension Terminal {
    fileprivate static func restoreFromSignal() { restore() }
}
