import QuireGeneration

extension LoadedVault {
    /// The vault's word rarity over every note's file, and the files of the notes in `paths`
    /// (read once for both). A note that cannot be read is left out of both.
    func termStatistics(keeping paths: Set<String>) -> (statistics: TermStatistics, files: [String: [UInt8]]) {
        var statistics = TermStatistics()
        var files: [String: [UInt8]] = [:]
        for note in index.notes {
            guard let bytes = try? vault.io.read(try vault.notePath(note.path)).bytes else { continue }
            statistics.add(String(decoding: bytes, as: UTF8.self))
            if paths.contains(note.path) { files[note.path] = bytes }
        }
        return (statistics, files)
    }
}
