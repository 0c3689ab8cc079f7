import Foundation
import QuireEmbedding
import QuireIndex
import QuireModel
import QuireSearch
import QuireSupport
import QuireVault

/// A search answered from the two caches alone, without loading the vault's index: when the index
/// cache shows no note changed (each folder and file still has its stamp, as `quire due --prompt`
/// checks) and the search index holds exactly those notes at those digests, the search index is
/// current and is queried as it is. Anything else — a note changed, a file with an error, a query
/// filter that needs the notes, vectors still missing, an index that cannot be opened — answers
/// nil, and the caller searches through ``VaultSearch`` (which brings the index up to date).
/// Both ways give the same hits.
public enum QuickSearch {
    /// The hits for `words` as ``VaultSearch/search(_:mode:scope:limit:now:)`` finds them, or nil
    /// when this way cannot answer. `clock`: the wall-clock time, which tells a file modified in
    /// the same tick as the cache was written (read again, as the cache's own checks do).
    public static func search(_ words: [String], in vault: Vault, mode: SearchMode?, scope: SearchScope = .everything,
                              limit: Int, clock: Timestamp,
                              notice: (VaultSearch.Notice) -> Void = { _ in }) -> (text: String, hits: [SearchHit])? {
        guard let (text, filters, _) = try? VaultSearch.split(words, wholeWordsOnly: false), filters.isEmpty,
              vault.io.linkStamp(vault.root + "/" + Vault.folderName)?.isDirectory == true,
              let cache = vault.cache,
              let summary = ScheduleSummary.load(root: vault.root, cache: cache, maximumParsed: 0, updateCache: false, now: clock),
              !summary.diagnostics.contains(where: { $0.severity == .error }),
              let path = try? vault.internalPath(VaultSearch.indexFile), vault.io.linkStamp(path)?.isRegularFile == true,
              let index = try? SearchIndex(path: path), let stored = try? index.digests(), stored.count == summary.notes.count,
              summary.notes.allSatisfy({ stored[$0.path] == $0.digest })
        else { return nil }
        var encoder: SentenceEncoder?
        if mode != .lexical {
            // A model that fails to load: the full way says so.
            do { encoder = try EmbeddingModel.loadInstalled(environment: ProcessInfo.processInfo.environment) } catch { return nil }
            if encoder != nil {
                // Vectors still to compute: the full way computes a few or says how many wait.
                guard let (chunks, embedded) = try? index.counts(), chunks == embedded else { return nil }
            } else {
                notice(.wordsOnly(hintShown: VaultSearch.hintShown(vault: vault, cache: true)))
            }
        }
        let asked = scope == .everything ? limit : limit * 20
        guard let hits = try? index.find(text, mode: encoder == nil ? .lexical : mode ?? .hybrid, encoder: encoder, limit: asked)
        else { return nil }
        let paths = Set(summary.notes.map(\.path))
        let kept = hits.filter { paths.contains($0.path) && scope.keeps($0) }
        return (text, Array(kept.prefix(limit)))
    }
}
