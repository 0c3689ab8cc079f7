#if canImport(Glibc)
import Glibc
#endif

extension FileIO {
    /// The names of the entries of the folder at `path` (without `.` and `..`), in the order the
    /// file system gives them; nil when the folder cannot be opened.
    package func names(in path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = VaultScanner.name(of: entry)
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
