#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A folder of the system's temporary folder for one command's scratch files (a downloaded wheel,
/// rendered pages, ImageMagick's and tesseract's own temporary files), made with a name no other
/// run has, readable by the user alone, and removed by ``remove()``. A run killed before it could
/// remove its folder leaves it behind: the next run of the same kind removes it (the folder's name
/// holds its process's ID, which no longer runs).
public struct ScratchFolder: Sendable {
    public let path: String

    /// Makes `/tmp/PREFIX-PID-RANDOM` (mode 0700), after removing the folders of this prefix that
    /// runs no longer running left.
    public init(_ prefix: String) throws(AppError) {
        let base = NSTemporaryDirectory()
        Self.removeLeftovers(prefix, in: base)
        path = base + prefix + "-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard mkdir(path, 0o700) == 0 else {
            throw .scratch("cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the folder and what is in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The environment helper programs run with so that their own temporary files go into the
    /// folder (ImageMagick's `magick-*` pixel caches, hundreds of MB for a large image).
    public var helperEnvironment: [String: String] { ["MAGICK_TMPDIR": path, "TMPDIR": path] }

    /// Removes `PREFIX-PID-…` folders of `base` that belong to this user and whose process no
    /// longer runs.
    static func removeLeftovers(_ prefix: String, in base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where name.hasPrefix(prefix + "-") {
            let parts = name.dropFirst(prefix.count + 1).split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, pid != getpid() else { continue }
            var info = stat()
            let full = base + name
            guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { continue }
            if kill(pid, 0) == -1, errno == ESRCH { try? FileManager.default.removeItem(atPath: full) }
        }
    }
}
