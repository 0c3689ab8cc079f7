/// Why a sentence-embedding model could not be loaded or used.
public enum EmbeddingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No model is installed where Quire looks for it (`quire model install`).
    case notInstalled(folder: String)
    /// A model file could not be read.
    case unreadable(path: String, reason: String)
    /// A model file is not what it should be: `path`, the byte offset (or line) and why.
    case malformed(path: String, location: String, reason: String)

    public var description: String {
        switch self {
        case .notInstalled(let folder): "no sentence-embedding model in \(folder) (run `quire model install`)"
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .malformed(let path, let location, let reason): "\(path):\(location): \(reason)"
        }
    }
}
