import QuireSystem

/// A progress bar on standard error, drawn only when it is a terminal and the work is long; a
/// pipe or a log file gets nothing.
struct ProgressBar {
    private let total: Int
    private let label: String
    private let shown: Bool
    private var drawn = -1

    /// A bar for `total` steps, shown when there are at least `minimum`.
    init(_ label: String, total: Int, minimum: Int = 200) {
        self.total = total
        self.label = label
        shown = total >= minimum && StandardStreams.errorIsTerminal
    }

    /// Shows that `done` steps are done (redrawn each whole percent).
    mutating func update(_ done: Int) {
        guard shown, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != drawn else { return }
        drawn = percent
        let width = 30, filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        StandardStreams.write(Array("\r\(label) \(bar) \(done)/\(total)".utf8), to: 2)
        if done >= total { StandardStreams.write(Array("\r\u{1B}[2K".utf8), to: 2) }
    }

    /// Takes the bar off the screen (work that stopped before the end).
    mutating func clear() {
        guard shown, drawn >= 0 else { return }
        StandardStreams.write(Array("\r\u{1B}[2K".utf8), to: 2)
        drawn = -1
    }
}
