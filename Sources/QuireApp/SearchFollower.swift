import Foundation
import QuireEmbedding
import QuireIndex
import QuireSearch
import QuireSystem
import QuireWatch
import QuireVault

/// Keeps a vault's search index current while `quire watch` runs: each changed note's chunks
/// replaced (and their vectors computed, with the model installed) as the watcher reports them,
/// so a search never waits for them. Only a vault that already has a search index is followed.
public final class SearchFollower {
    let vault: Vault
    let index: SearchIndex
    let encoder: SentenceEncoder?

    /// Nil when the vault has no search index yet (or it cannot be opened).
    public init?(vault: Vault, index vaultIndex: VaultIndex) {
        guard let path = try? vault.internalPath(VaultSearch.indexFile), vault.io.stamp(path) != nil,
              let index = try? SearchIndex.openOrRebuild(path: path, io: vault.io) else { return nil }
        self.vault = vault
        self.index = index
        encoder = (try? EmbeddingModel.loadInstalled(environment: ProcessInfo.processInfo.environment)) ?? nil
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
            if let encoder { try index.embedMissing(with: encoder) }
            return nil
        } catch {
            return "the search index: \(error); searches will bring it up to date"
        }
    }
}
