#if canImport(Glibc)
import Glibc
#endif

/// A process running on this machine, as `/proc` shows it: what tells whether a git command is at
/// work in a repository (git works in its repository's folder: `git -C` changes to it first).
package struct RunningProcess: Sendable, Equatable {
    package var pid: Int32
    /// Its command's name (`/proc/PID/comm`: at most 15 bytes, as the kernel keeps it).
    package var command: String
    /// Its working folder, or nil when it cannot be read (another user's process).
    package var workingFolder: String?

    package init(pid: Int32, command: String, workingFolder: String?) {
        self.pid = pid
        self.command = command
        self.workingFolder = workingFolder
    }

    /// Every process `/proc` lists (empty where there is no `/proc`).
    package static func all() -> [RunningProcess] {
        let io = FileIO()
        var found: [RunningProcess] = []
        for name in io.names(in: "/proc") ?? [] {
            guard let pid = Int32(name), pid > 0 else { continue }
            // A process that ended since the folder was listed is skipped, and so is one that has
            // ended and not been reaped (a zombie: where nothing reaps orphans, as in a container
            // without an init, a killed command's git stays one for good, and works at nothing).
            guard let bytes = try? io.read("/proc/\(name)/comm").bytes, !isZombie(name, io: io) else { continue }
            let comm = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
            found.append(RunningProcess(pid: pid, command: comm, workingFolder: link("/proc/\(name)/cwd")))
        }
        return found
    }

    /// Whether `/proc/PID/stat` says the process has ended (state `Z` or `X`), or is gone.
    static func isZombie(_ pid: String, io: FileIO) -> Bool {
        guard let stat = try? io.read("/proc/\(pid)/stat").bytes else { return true }
        return state(ofStat: stat).map { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "X") } ?? false
    }

    /// The state letter of a `/proc/PID/stat` line: the field after the command, which is in
    /// parentheses and may itself hold `)` and spaces.
    static func state(ofStat stat: [UInt8]) -> UInt8? {
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { return nil }
        return stat[close + 2]
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
