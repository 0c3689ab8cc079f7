#if canImport(Glibc)
import Glibc
#endif

/// The temporary files Quire writes beside a file it replaces: `.NAME.quire-PID-RANDOM.tmp`.
///
/// A process killed between creating one and renaming it leaves it behind. The next write in the
/// same folder removes those whose process is gone, and `quire check` reports the ones it finds.
public enum TemporaryFiles {
    /// The temporary name for a file named `name`, written by process `pid`.
    static package func name(for name: String, pid: Int32, random: UInt32) -> String {
        "." + name + ".quire-\(pid)-\(random).tmp"
    }

    /// The process ID in a temporary file's name, or nil when the name is not one of Quire's.
    public static func writer(ofName name: String) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        // `.NAME.quire-PID-RANDOM.tmp`: the last three dot-separated parts are `quire-PID-RANDOM`,
        // `tmp`, and before them NAME (which may hold dots).
        let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count >= 4, let marker = Substring(parts[parts.count - 2]) as Substring?,
              marker.hasPrefix("quire-") else { return nil }
        let numbers = marker.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard numbers.count == 2, let pid = Int32(numbers[0]), pid > 0, UInt32(numbers[1]) != nil else { return nil }
        return pid
    }

    /// Whether the process that wrote a temporary file is gone (no process has its ID).
    public static func isLeftover(_ name: String) -> Bool {
        guard let pid = writer(ofName: name) else { return false }
        return isGone(pid)
    }

    /// Whether no process has the ID `pid` (the one that wrote a temporary file, or made a
    /// private folder, ended).
    package static func isGone(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the temporary files in `dir` whose writer is gone; best effort.
    static func removeLeftovers(in dir: String, io: FileIO) {
        var gone: [String] = []
        let failure = io.readFolder(dir) { name, _, _ in
            // Cheap test first: a folder holds many names, few of them Quire's temporary files.
            if name.utf8.first == UInt8(ascii: "."), isLeftover(name) { gone.append(name) }
        }
        guard failure == nil else { return }
        for name in gone {
            var st = stat()
            let full = dir + "/" + name
            // Only plain files: a link or folder with such a name is not Quire's.
            if io.sys.lstat(full, &st) == 0, st.st_mode & S_IFMT == S_IFREG { _ = io.sys.unlink(full) }
        }
    }
}
