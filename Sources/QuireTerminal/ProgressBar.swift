import QuireStudy
import Dispatch
import Foundation
import Synchronization
import QuireApp
import QuireSupport
import QuireSystem

/// A progress bar on standard error, drawn only when it is a terminal and the work is long; a
/// pipe or a log file gets nothing.
package struct ProgressBar {
    private let total: Int
    private let label: String
    private let shown: Bool
    private var drawn = -1
    /// When the first step was reported, on the monotonic clock (nanoseconds).
    private var started: UInt64?

    /// A bar for `total` steps, shown when there are at least `minimum`.
    package init(_ label: String, total: Int, minimum: Int = 200) {
        self.total = total
        self.label = label
        shown = total >= minimum && StandardStreams.errorIsTerminal
    }

    /// Shows that `done` steps are done (redrawn each whole percent), with the rate so far and
    /// the time left at that rate.
    package mutating func update(_ done: Int) {
        guard shown, total > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if started == nil { started = now }
        let percent = min(100, done * 100 / total)
        guard percent != drawn else { return }
        drawn = percent
        let width = 30, filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = "\r\u{1B}[2K\(label) \(bar) \(done)/\(total)"
        let seconds = Double(now - (started ?? now)) / 1e9
        if seconds >= 1, done > 0 {
            let rate = Double(done) / seconds
            line += " · " + (rate >= 10 ? "\(Int(rate))/s" : String(format: "%.1f/s", rate))
            if done < total { line += " · " + StudyStats.duration(seconds: Int((Double(total - done) / rate).rounded(.up))) + " left" }
        }
        StandardStreams.write(Array(line.utf8), to: 2)
        if done >= total { StandardStreams.write(Array("\r\u{1B}[2K".utf8), to: 2) }
    }

    /// Takes the bar off the screen (work that stopped before the end).
    package mutating func clear() {
        guard shown, drawn >= 0 else { return }
        StandardStreams.write(Array("\r\u{1B}[2K".utf8), to: 2)
        drawn = -1
    }
}

extension ProgressBar {
    /// Where an index build reports the files it reads, drawn as a bar on a terminal once the
    /// build has taken half a second over at least 2,000 files (a first index, or a cache rebuilt
    /// after an upgrade); a warm index ends before that and draws nothing. The bar is taken off
    /// the screen by the last report, before the command prints anything. Nil when standard error
    /// is not a terminal.
    package static func indexing() -> WorkProgress? {
        guard StandardStreams.errorIsTerminal else { return nil }
        let state = Mutex<(bar: ProgressBar?, began: UInt64)>((nil, 0))
        return WorkProgress { done, total in
            state.withLock { s in
                let now = DispatchTime.now().uptimeNanoseconds
                if done == 0 {
                    s.bar?.clear()
                    s = (nil, now)
                    return
                }
                if s.bar == nil {
                    guard total >= 2_000, done < total, now - s.began >= 500_000_000 else { return }
                    s.bar = ProgressBar("Indexing", total: total, minimum: 0)
                }
                s.bar?.update(done)
            }
        }
    }
}
