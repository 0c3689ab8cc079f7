#if canImport(Glibc)
import Glibc
#endif

/// Folders of the system's temporary folder that one run owns: made readable by the user alone,
/// named with the run's process ID so that the next run can tell a killed run's leftovers.
package enum PrivateFolder {
    /// Makes `base/PREFIX-PID-RANDOM` with mode 0700 (after removing the folders of this prefix
    /// that runs no longer running left); its path, or the system's reason it could not be made.
    package static func make(_ prefix: String, in base: String, io: FileIO = FileIO()) -> Result<String, FileIOError> {
        let base = base.hasSuffix("/") ? base : base + "/"
        removeLeftovers(prefix, in: base, io: io)
        let path = base + prefix + "-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard mkdir(path, 0o700) == 0 else { return .failure(.system(path: path, operation: "mkdir", code: errno)) }
        return .success(path)
    }

    /// Removes `PREFIX-PID-…` folders of `base` that belong to this user and whose process no
    /// longer runs.
    static func removeLeftovers(_ prefix: String, in base: String, io: FileIO) {
        for name in io.names(in: base) ?? [] where name.hasPrefix(prefix + "-") {
            let parts = name.dropFirst(prefix.count + 1).split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, pid != getpid() else { continue }
            var info = stat()
            let full = base + name
            guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { continue }
            if TemporaryFiles.isGone(pid) { io.removeTree(full) }
        }
    }
}
