#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireMarkdown
import QuireModel
import QuireFileSystem
import QuireParsing

/// Buffered writing to standard output and error. A closed pipe (`quire list | head`) ends the
/// program quietly with status 0.
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    static func ignoreBrokenPipeSignal() { signal(SIGPIPE, SIG_IGN) }

    /// Unblocks the signals that end a program (Ctrl-C, `kill`, a closed terminal): a parent may
    /// have started Quire with them blocked, and a long-running command (`watch`) must still stop.
    static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// How a writer waits for the vault's write lock: `QUIRE_LOCK_TIMEOUT` seconds (30 by default),
    /// saying once on standard error that it waits.
    static func configureWriteLock() {
        let timeout = ProcessInfo.processInfo.environment["QUIRE_LOCK_TIMEOUT"].flatMap(Double.init) ?? 30
        VaultLock.configure(VaultLock.Waiting(timeout: max(0, timeout)) { holder in
            Output.error("quire: waiting for another quire\(holder.map { " (process \($0))" } ?? "") that is writing this vault…")
        })
    }

    /// Writes a line to standard output (control characters shown, see ``safe(_:)``).
    static func line(_ text: String = "") {
        buffer.append(contentsOf: safe(text).utf8)
        buffer.append(10)
        if buffer.count > 1 << 16 { flush() }
    }

    /// Writes text to standard output (control characters shown, see ``safe(_:)``).
    static func write(_ text: String) {
        buffer.append(contentsOf: safe(text).utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    /// `text` with every control character made visible (``TerminalText``) except tab, line feed
    /// and the colour sequences Quire itself writes (`ESC [ digits ; … m`): text from a vault
    /// cannot set the window title, write the clipboard or move the cursor. Fields that are
    /// coloured afterwards (diagnostics, table cells) are made fully visible first.
    static func safe(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 }) else {
            return text
        }
        var out = ""
        var rest = Substring(text)
        while let escape = rest.firstIndex(of: "\u{1B}") {
            out += TerminalText.visible(String(rest[..<escape]))
            let after = rest[rest.index(after: escape)...]
            if after.first == "[", let end = after.dropFirst().firstIndex(where: { !($0.isASCII && ($0.isNumber || $0 == ";")) }),
               after[end] == "m" {
                out += "\u{1B}" + after[..<after.index(after: end)]
                rest = after[after.index(after: end)...]
            } else {
                out += "^["
                rest = after
            }
        }
        return out + TerminalText.visible(String(rest))
    }

    static func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(1, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { Glibc.exit(0) }
                break
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes a line to standard error (after flushing standard output, to keep order on a shared
    /// terminal).
    static func error(_ text: String) {
        flush()
        var bytes = Array(safe(text).utf8)
        bytes.append(10)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    /// Whether standard output is a terminal.
    static var isTerminal: Bool { isatty(1) == 1 }

    /// Whether to use colour on standard output: a terminal, `NO_COLOR` unset, `TERM` not `dumb`.
    static var useColor: Bool {
        let env = ProcessInfo.processInfo.environment
        return isTerminal && env["NO_COLOR"].map(\.isEmpty) ?? true && env["TERM"] != "dumb"
    }

    /// Terminal width, or 80.
    static var width: Int {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        return 80
    }

    /// Prints diagnostics in compiler style with the offending line and a caret, to standard
    /// output or error.
    static func diagnostics(_ list: [Diagnostic], root: String, toStandardError: Bool, color: Bool) {
        var sources: [String: SourceText] = [:]
        for d in list {
            // The path and message come from the vault: shown whole before any colour is added.
            var text = TerminalText.visible(d.description)
            if color {
                let sev = d.severity.rawValue + ":"
                let colored = d.severity == .error ? "\u{1B}[1;31m" + sev : d.severity == .warning ? "\u{1B}[1;33m" + sev : "\u{1B}[1;36m" + sev
                text = text.replacingOccurrences(of: ": " + sev + " ", with: ": " + colored + "\u{1B}[0m ")
            }
            if let line = d.line {
                if sources[d.path] == nil, let bytes = try? FileIO().read(root + "/" + d.path).bytes {
                    sources[d.path] = SourceText(bytes)
                }
                if let source = sources[d.path], line <= source.lineCount {
                    // A window of the line around the column: a line may be megabytes long.
                    let bytes = Array(source.line(line).utf8)
                    let column = max(0, min((d.column ?? 1) - 1, bytes.count))
                    var from = max(0, column - 60), to = min(bytes.count, from + 160)
                    while from > 0, from < bytes.count, bytes[from] & 0xC0 == 0x80 { from -= 1 }
                    while to < bytes.count, bytes[to] & 0xC0 == 0x80 { to += 1 }
                    let head = from > 0 ? "…" : "", tail = to < bytes.count ? "…" : ""
                    let shown = TerminalText.visible(String(decoding: bytes[from..<to], as: UTF8.self)
                        .replacingOccurrences(of: "\t", with: " "), keepLineBreaks: false)
                    text += "\n" + head + shown + tail
                    if d.column != nil {
                        let before = TerminalText.visible(String(decoding: bytes[from..<max(from, column)], as: UTF8.self),
                                                          keepLineBreaks: false)
                        text += "\n" + String(repeating: " ", count: before.count + head.count) + "^"
                    }
                }
            }
            if toStandardError { error(text) } else { self.line(text) }
        }
    }
}

/// The only place the CLI reads the clock and the working directory.
enum Clock {
    static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(milliseconds: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }

    static func currentDirectory() -> String { FileManager.default.currentDirectoryPath }

    /// The local time zone's offset from UTC at `time`, in seconds east (from `TZ` or the system).
    static func utcOffset(at time: Timestamp) -> Int {
        var t = time_t(time.milliseconds / 1000)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }
}
