import QuireSupport

/// Why a package, archive or database could not be read.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a zip archive, or a damaged one.
    case invalidArchive(name: String, reason: String)
    /// An entry larger than allowed once decompressed (a zip or zstd bomb), or larger than it said.
    case tooLarge(name: String, limit: Int)
    /// Not a SQLite database, a damaged one, or a query on it failed.
    case invalidDatabase(name: String, reason: String)
    /// Compressed data that could not be decompressed.
    case invalidCompression(name: String, reason: String)

    public var description: String { name + ": " + message }

    /// What went wrong with the file ``name`` names, without its name (a located diagnostic
    /// gives the name).
    public var message: String {
        switch self {
        case .invalidArchive(_, let reason): "not a readable zip archive: \(reason)"
        case .tooLarge(_, let limit): "larger than \(ByteCount.text(limit)) once decompressed; refused"
        case .invalidDatabase(_, let reason): "not a readable SQLite database: \(reason)"
        case .invalidCompression(_, let reason): "cannot be decompressed: \(reason)"
        }
    }

    /// The file, or the part of it, the error is about.
    public var name: String {
        switch self {
        case .invalidArchive(let name, _), .tooLarge(let name, _), .invalidDatabase(let name, _), .invalidCompression(let name, _): name
        }
    }
}
