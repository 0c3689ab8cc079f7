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
            // A process that ended since the folder was listed is skipped.
            guard let bytes = try? io.read("/proc/\(name)/comm").bytes else { continue }
            let comm = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
            found.append(RunningProcess(pid: pid, command: comm, workingFolder: link("/proc/\(name)/cwd")))
        }
        return found
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
