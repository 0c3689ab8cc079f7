import QuireGeneration
import QuireSupport
import Synchronization

extension LoadedVault {
    /// The vault's word rarity over every note's file, and the files of the notes in `paths`
    /// (read once for both). A note that cannot be read is left out of both. The notes are read
    /// and counted on every core, in parts joined at the end.
    public func termStatistics(keeping paths: Set<String>) -> (statistics: TermStatistics, files: [String: [UInt8]]) {
        let notes = index.notes.map(\.path)
        let vault = self.vault
        let parts = ResultSlots<(TermStatistics, [String: [UInt8]])>(count: (notes.count + 255) / 256)
        inParallelChunks(of: notes.count, chunk: 256, concurrency: nil) { range in
            var statistics = TermStatistics()
            var files: [String: [UInt8]] = [:]
            for path in notes[range] {
                guard let bytes = try? vault.io.read(try vault.notePath(path)).bytes else { continue }
                statistics.add(String(decoding: bytes, as: UTF8.self))
                if paths.contains(path) { files[path] = bytes }
            }
            parts[range.lowerBound / 256] = (statistics, files)
            return true
        }
        var statistics = TermStatistics()
        var files: [String: [UInt8]] = [:]
        for k in 0..<((notes.count + 255) / 256) {
            guard let (s, f) = parts.take(k) else { continue }
            statistics.merge(s)
            files.merge(f) { a, _ in a }
        }
        return (statistics, files)
    }
}
