import Foundation
import QuireEmbedding
import QuireIndex
import QuireSearch
import QuireSystem
import QuireWatch
import QuireVault

/// Keeps a vault's search index current while `quire watch` runs: each changed note's chunks
/// replaced as the watcher reports them, and — with the model installed — their vectors computed
/// by a thread of its own at the lowest priority (``VectorWorker``), so the watcher never waits for
/// them and the rest of the machine comes first. Only a vault that already has a search index is
/// followed.
public final class SearchFollower {
    let vault: Vault
    let index: SearchIndex
    /// Computes missing vectors in the background; nil without the model.
    let vectors: VectorWorker?

    /// Nil when the vault has no search index yet (or it cannot be opened). `encoder`: the
    /// model's (default: the installed one, if any).
    public init?(vault: Vault, index vaultIndex: VaultIndex, encoder: SentenceEncoder?? = nil) {
        guard let path = try? vault.internalPath(VaultSearch.indexFile), vault.io.stamp(path) != nil,
              let index = try? SearchIndex.openOrRebuild(path: path, io: vault.io) else { return nil }
        self.vault = vault
        self.index = index
        let model = encoder ?? ((try? EmbeddingModel.loadInstalled(environment: ProcessInfo.processInfo.environment)) ?? nil)
        vectors = model.map { VectorWorker(path: path, encoder: $0) }
        _ = follow([.rescanned(reason: "start")], index: vaultIndex)
    }

    /// Applies a batch of the watcher's events; a failure is returned as the warning to show (the
    /// next search brings the index up to date).
    @discardableResult
    public func follow(_ events: [LiveIndex.Event], index vaultIndex: VaultIndex) -> String? {
        do {
            if events.contains(where: { if case .rescanned = $0 { true } else { false } }) {
                try index.refresh(from: vaultIndex, vault: vault)
            } else {
                let paths = events.compactMap { event -> String? in if case .note(let u) = event { u.path } else { nil } }
                try index.refresh(paths: paths, from: vaultIndex, vault: vault)
            }
            vectors?.wake()
            return nil
        } catch {
            return "the search index: \(error); searches will bring it up to date"
        }
    }
}
