import QuireTerminal
import Foundation
import QuireMarkdown
import QuireModel
import QuireSystem
import QuireParsing

/// The only place the CLI reads the clock.
enum Clock {
    static func now() -> Timestamp { SystemClock.now() }

    /// The local time zone's offset from UTC at `time`, in seconds east (from `TZ` or the system).
    static func utcOffset(at time: Timestamp) -> Int { SystemClock.utcOffset(at: time) }
}

/// The only place the CLI reads the folder it was started in.
enum WorkingDirectory {
    static func path() -> String { FileManager.default.currentDirectoryPath }
}
