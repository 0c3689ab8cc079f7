extension FileIO {
    /// The names of the entries of the folder at `path` (without `.` and `..`), in the order the
    /// file system gives them; nil when the folder cannot be opened.
    package func names(in path: String) -> [String]? {
        var names: [String] = []
        let failure = readFolder(path) { name, _, _ in
            if name != ".", name != ".." { names.append(name) }
        }
        return failure == nil ? names : nil
    }
}
