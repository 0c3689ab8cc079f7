import Foundation
import ZIPFoundation

/// A zip archive read from a file (an Anki package), entry by entry into memory, through
/// ZIPFoundation: nothing is extracted to disk by the names inside, and every entry's size is
/// counted as it is decompressed, so an entry that claims little and inflates to gigabytes (a zip
/// bomb) is stopped at its limit.
public final class ZipArchive {
    private let archive: Archive
    /// The name in errors.
    public let name: String

    /// An entry: its name as stored, and whether it is a plain file (not a folder or a link).
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var isFile: Bool
        /// The size it declares once decompressed (not trusted: reading counts the real one).
        public var declaredSize: UInt64
    }

    /// Opens the archive at `path`.
    public init(path: String, name: String) throws(ArchiveError) {
        self.name = name
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw .invalidArchive(name: name, reason: Self.reason(error, path: path))
        }
    }

    /// Why the archive at `path` cannot be opened, in words: an empty file, one with no zip
    /// directory at its end (cut short, or no zip at all), else the library's reason.
    static func reason(_ error: any Error, path: String) -> String {
        if ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) == 0 { return "the file is empty" }
        if case .missingEndOfCentralDirectoryRecord? = error as? Archive.ArchiveError {
            return "no zip directory at its end: the file is cut short, or no zip file"
        }
        return "\(error)"
    }

    /// The entries, in the archive's order.
    public var entries: [Entry] {
        archive.map { Entry(path: $0.path, isFile: $0.type == .file, declaredSize: $0.uncompressedSize) }
    }

    /// The bytes of the plain-file entry named `path`, or nil when there is none.
    ///
    /// - Throws: ``ArchiveError/tooLarge(name:limit:)`` past `limit` bytes,
    ///   ``ArchiveError/invalidArchive(name:reason:)`` for damaged data (a bad checksum too).
    public func read(_ path: String, limit: Int) throws(ArchiveError) -> [UInt8]? {
        guard let entry = archive[path] else { return nil }
        guard entry.type == .file else { return nil }
        if entry.uncompressedSize > UInt64(limit) { throw .tooLarge(name: name + ": " + path, limit: limit) }
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(entry.uncompressedSize, UInt64(limit))))
        struct TooLarge: Error {}
        do {
            _ = try archive.extract(entry) { chunk in
                guard out.count + chunk.count <= limit else { throw TooLarge() }
                out.append(contentsOf: chunk)
            }
        } catch is TooLarge {
            throw .tooLarge(name: name + ": " + path, limit: limit)
        } catch {
            throw .invalidArchive(name: name, reason: "\(path): \(error)")
        }
        return out
    }
}
