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

    public var description: String {
        switch self {
        case .invalidArchive(let name, let reason): "\(name): not a readable zip archive: \(reason)"
        case .tooLarge(let name, let limit): "\(name): larger than \(ByteCount.text(limit)) once decompressed; refused"
        case .invalidDatabase(let name, let reason): "\(name): not a readable SQLite database: \(reason)"
        case .invalidCompression(let name, let reason): "\(name): cannot be decompressed: \(reason)"
        }
    }
}
