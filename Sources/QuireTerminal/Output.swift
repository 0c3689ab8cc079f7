import Foundation
import QuireMarkdown
import QuireModel
import QuireSystem
import QuireParsing

/// Buffered writing to standard output and error. A closed pipe (`quire list | head`) ends the
/// program quietly with status 0.
package enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    package static func ignoreBrokenPipeSignal() { StandardStreams.ignoreBrokenPipeSignal() }

    /// Unblocks the signals that end a program (``StandardStreams/unblockTerminationSignals()``).
    package static func unblockTerminationSignals() { StandardStreams.unblockTerminationSignals() }

    /// How a writer waits for the vault's write lock: `QUIRE_LOCK_TIMEOUT` seconds (30 by default),
    /// saying once on standard error that it waits.
    package static func configureWriteLock() {
        // getenv, not ProcessInfo's environment: that builds a dictionary of every variable, a
        // measurable part of a prompt's start.
        let timeout = getenv("QUIRE_LOCK_TIMEOUT").flatMap { Double(String(cString: $0)) } ?? 30
        FileLock.configure(FileLock.Waiting(timeout: max(0, timeout)) { holder in
            Output.error("quire: waiting for another quire\(holder.map { " (process \($0))" } ?? "") that is writing this vault…")
        })
    }

    /// Writes a line to standard output (control characters shown, see ``safe(_:)``).
    package static func line(_ text: String = "") {
        buffer.append(contentsOf: safe(text).utf8)
        buffer.append(10)
        if buffer.count > 1 << 16 { flush() }
    }

    /// Writes text to standard output (control characters shown, see ``safe(_:)``).
    package static func write(_ text: String) {
        buffer.append(contentsOf: safe(text).utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    /// `text` with every control character made visible (``TerminalText``) except tab, line feed
    /// and the colour sequences Quire itself writes (`ESC [ P ; … m` with only the parameters of
    /// ``ownColorParameters``): text from a vault cannot set the window title, write the clipboard,
    /// move the cursor or hide text (`ESC[8m`). Fields that are coloured afterwards (diagnostics,
    /// table cells) are made fully visible first.
    package static func safe(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 }) else {
            return text
        }
        var out = ""
        var rest = Substring(text)
        while let escape = rest.firstIndex(of: "\u{1B}") {
            out += TerminalText.visible(String(rest[..<escape]))
            let after = rest[rest.index(after: escape)...]
            if after.first == "[", let end = after.dropFirst().firstIndex(where: { !($0.isASCII && ($0.isNumber || $0 == ";")) }),
               after[end] == "m",
               after[after.index(after: after.startIndex)..<end].split(separator: ";", omittingEmptySubsequences: false)
                   .allSatisfy({ ownColorParameters.contains(String($0)) }) {
                out += "\u{1B}" + after[..<after.index(after: end)]
                rest = after[after.index(after: end)...]
            } else {
                out += "^["
                rest = after
            }
        }
        return out + TerminalText.visible(String(rest))
    }

    /// The SGR parameters Quire's own colours use (reset, bold, dim, italic, underline, strike,
    /// and the foreground colours red to cyan); a sequence with any other is shown, not obeyed.
    package static let ownColorParameters: Set<String> = ["", "0", "1", "2", "3", "4", "9", "31", "32", "33", "34", "35", "36"]

    /// Flushes standard output and ends the process with status 0 at once, its memory given back
    /// whole: freeing a million review events one by one took a third of a second (`quire stats`
    /// on a long log). Only for a command that has written everything it writes.
    package static func exitWithoutFreeing() -> Never {
        flush()
        exit(0)
    }

    package static func flush() {
        StandardStreams.write(buffer, to: 1)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes a line to standard error (after flushing standard output, to keep order on a shared
    /// terminal).
    package static func error(_ text: String) {
        flush()
        var bytes = Array(safe(text).utf8)
        bytes.append(10)
        StandardStreams.write(bytes, to: 2)
    }

    /// Whether standard output is a terminal.
    package static var isTerminal: Bool { StandardStreams.outputIsTerminal }

    /// Whether to use colour on standard output: a terminal, `NO_COLOR` unset, `TERM` not `dumb`.
    package static var useColor: Bool {
        let env = ProcessInfo.processInfo.environment
        return isTerminal && env["NO_COLOR"].map(\.isEmpty) ?? true && env["TERM"] != "dumb"
    }

    /// Terminal width, or 80.
    package static var width: Int { StandardStreams.outputWidth ?? 80 }

    /// Prints diagnostics in compiler style with the offending line and a caret, to standard
    /// output or error.
    package static func diagnostics(_ list: [Diagnostic], root: String, toStandardError: Bool, color: Bool) {
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
