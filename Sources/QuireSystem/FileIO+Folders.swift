#if canImport(Glibc)
import Glibc
#endif

/// What a folder entry is, as the file system tells it when the folder is read.
public enum FolderEntryKind: Sendable, Equatable {
    case regularFile, directory, symbolicLink
    /// The file system did not say (some do not): ask with a stamp.
    case unknown
    /// A FIFO, a device, a socket.
    case other
}

extension FileIO {
    /// Reads the folder at `path` one entry at a time, in the order the file system gives them
    /// (`.` and `..` among them), handing `body` each entry's name (repaired when it is not UTF-8),
    /// its kind, and whether the name is valid UTF-8. Returns nil, or the error number that kept
    /// the folder from being opened (``errnoMessage(_:)`` words it).
    public func readFolder(_ path: String, _ body: (_ name: String, _ kind: FolderEntryKind, _ isValidName: Bool) -> Void) -> Int32? {
        guard let dir = opendir(path) else { return currentErrno }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let (name, valid) = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { c -> (String, Bool) in
                    let name = String(cString: c)
                    // A repaired name holds U+FFFD (EF BF BD): only then is the check worth its cost.
                    return (name, !name.utf8.contains(0xEF) || String(validatingCString: c) != nil)
                }
            }
            let kind: FolderEntryKind = switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): .regularFile
            case Int32(DT_DIR): .directory
            case Int32(DT_LNK): .symbolicLink
            case Int32(DT_UNKNOWN): .unknown
            default: .other
            }
            body(name, kind, valid)
        }
        return nil
    }

    /// The absolute path `path` names with every symbolic link followed (`realpath`), or nil when
    /// it names nothing.
    public static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
