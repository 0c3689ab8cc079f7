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

/// A thread that computes the search index's missing vectors whenever woken, at the lowest
/// priority, on one core, through a connection of its own (SQLite's write lock and busy timeout
/// keep its batches and the watcher's updates apart). Each batch is committed as it is done, so
/// the work survives the process being stopped at any point.
public final class VectorWorker: @unchecked Sendable {
    // Sendable: `pending`, `runs` and `niceness` are only touched under `condition`.
    private let condition = NSCondition()
    private var pending = false
    private var runs = 0
    /// The worker thread's niceness once it lowered it (nil before it started).
    public private(set) var niceness: Int32?

    init(path: String, encoder: SentenceEncoder) {
        let thread = Thread { [self] in run(path: path, encoder: encoder) }
        thread.name = "quire-vectors"
        thread.start()
    }

    /// Asks for a pass over the index (the vectors of chunks that have none).
    public func wake() {
        condition.lock()
        pending = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every pass asked for so far has ended, or `seconds` pass; whether they ended.
    public func waitUntilIdle(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while pending || runs > 0 {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    private func run(path: String, encoder: SentenceEncoder) {
        let nice = ThreadPriority.lowerCurrent()
        condition.lock()
        niceness = nice
        condition.unlock()
        var index: SearchIndex?
        while true {
            condition.lock()
            while !pending { condition.wait() }
            pending = false
            runs += 1
            condition.unlock()
            // A failure waits for the next wake (the next search computes what is missing).
            if index == nil { index = try? SearchIndex(path: path) }
            _ = try? index?.embedMissing(with: encoder, threads: 1)
            condition.lock()
            runs -= 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
