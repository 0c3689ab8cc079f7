import QuireSystem

/// The full-screen terminal of the review screen: ``TerminalDevice`` (raw mode, the alternate
/// screen, restoring on every way out) with the keys decoded from what it reads.
package enum Terminal {
    /// Keys read but not yet handed out: one `read` may bring several (typed ahead, pasted, or
    /// sent while the program was busy), and none may be lost.
    nonisolated(unsafe) private static var keys = KeyDecoder()

    /// Enters raw mode and the alternate screen; false when standard input or output is not a terminal.
    package static func begin() -> Bool {
        guard TerminalDevice.begin() else { return false }
        // Raw mode dropped input not yet read; keys read but not yet handled go with it (after
        // `$EDITOR`, a key typed before it opened must not grade the card).
        keys = KeyDecoder()
        return true
    }

    /// Leaves raw mode and the alternate screen.
    package static func end() { TerminalDevice.end() }

    /// Whether the terminal was resized since the last call.
    package static func takeResized() -> Bool { TerminalDevice.takeResized() }

    /// Writes text to the terminal at once.
    package static func write(_ text: String) { TerminalDevice.write(text) }

    /// The terminal's size (columns, rows), or 80×24.
    package static var size: (columns: Int, rows: Int) { TerminalDevice.size }

    /// One key press, waiting up to `timeoutMilliseconds`; nil on timeout or a resize.
    package static func readKey(timeoutMilliseconds: Int32) -> Key? {
        if let key = keys.next(atEnd: false) { return key }
        var timeout = timeoutMilliseconds
        while true {
            switch TerminalDevice.read(timeoutMilliseconds: timeout) {
            case .nothing:
                // Nothing more came: a key cut short (a lone Escape) is what it is.
                return keys.next(atEnd: true)
            case .endOfInput:
                return keys.next(atEnd: true) ?? .endOfInput
            case .failed:
                return keys.next(atEnd: true)
            case .bytes(let bytes):
                keys.feed(bytes)
                if let key = keys.next(atEnd: false) { return key }
                // The rest of an escape sequence or a character is on its way.
                timeout = 30
            }
        }
    }

    /// Runs a program with the terminal given back to it (for `$EDITOR`), then takes it again.
    package static func runOutside(_ arguments: [String]) -> Int32 {
        let status = TerminalDevice.runOutside(arguments)
        keys = KeyDecoder()
        return status
    }
}
