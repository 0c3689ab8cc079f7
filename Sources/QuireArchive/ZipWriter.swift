import Foundation
import ZIPFoundation

/// Writes a zip archive (an Anki package) through ZIPFoundation: entries deflated, in order.
public enum ZipWriter {
    /// Writes `entries` to a new archive at `path` (which must not exist).
    public static func write(_ entries: [(name: String, bytes: [UInt8])], to path: String) throws(ArchiveError) {
        do {
            let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
            for (name, bytes) in entries {
                let data = Data(bytes)
                try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        } catch {
            throw .invalidArchive(name: path, reason: "cannot write: \(error)")
        }
    }
}
